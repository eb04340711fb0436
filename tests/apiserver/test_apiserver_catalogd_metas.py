"""The loopback server's catalogd answers ``/api/v1/metas`` as catalogd does with its
``APIV1MetasHandler`` gate on (R-V1-28): the documents matching every one of ``schema``,
``package`` and ``name`` given, in the catalog's order, the whole catalog with none, 400 for
another parameter, ``Last-Modified``/304 and gzip as ``all``; 404 with the gate off."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path
from typing import Any

import aiohttp
from live_support import start_server
from v1_cluster import BASE, fbc_lines

from olmtui.sources.catalog.catalogd import METAS, service_of

DOCS = [
    {"schema": "olm.package", "name": "a", "defaultChannel": "stable"},
    {"schema": "olm.channel", "name": "stable", "package": "a", "entries": [{"name": "a.v1"}]},
    {"schema": "olm.bundle", "name": "a.v1", "package": "a", "image": "x", "properties": []},
    {"schema": "olm.package", "name": "b"},
    {"schema": "olm.bundle", "name": "b.v1", "package": "b", "image": "y", "properties": []},
    {"schema": "olm.bundle", "name": "a", "package": "b", "image": "z", "properties": []},
]
BODY = b"".join(json.dumps(d).encode() + b"\n" for d in DOCS)
WHEN = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


async def _get(url: str, **headers: str) -> tuple[int, bytes, Any]:
    async with (
        aiohttp.ClientSession(auto_decompress=False) as http,
        http.get(url, headers={"Accept-Encoding": "identity", **headers}) as resp,
    ):
        return resp.status, await resp.read(), resp.headers


def _names(body: bytes) -> list[tuple[str, str]]:
    return [(d["schema"], d["name"]) for d in map(json.loads, body.splitlines())]


async def test_metas_filters_by_every_parameter_given(tmp_path: Path) -> None:
    server, _ = await start_server(tmp_path, [])
    server.catalogd.serve("c", BODY, last_modified=WHEN)
    server.catalogd.enable_metas()
    url = server.url + service_of(BASE.format("c")).proxy_path(METAS)  # type: ignore[union-attr]
    try:
        status, body, headers = await _get(url + "?package=a")
        assert status == 200 and headers["Content-Type"] == "application/jsonl"
        assert _names(body) == [("olm.channel", "stable"), ("olm.bundle", "a.v1")]
        _, body, _ = await _get(url + "?schema=olm.package&name=a")
        assert _names(body) == [("olm.package", "a")]
        _, body, _ = await _get(url + "?name=a")  # the package and b's bundle named "a"
        assert _names(body) == [("olm.package", "a"), ("olm.bundle", "a")]
        _, body, _ = await _get(url + "?package=nope")
        assert body == b""
        _, body, _ = await _get(url)
        assert body == BODY
        status, _, _ = await _get(url + "?version=1")
        assert status == 400
        status, body, headers = await _get(url + "?package=b", **{"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] == "gzip"
        assert _names(gzip.decompress(body)) == [("olm.bundle", "b.v1"), ("olm.bundle", "a")]
        since = "Sun, 01 Mar 2026 12:00:00 GMT"
        status, body, _ = await _get(url + "?package=a", **{"If-Modified-Since": since})
        assert status == 304 and body == b""
    finally:
        await server.stop()


async def test_metas_is_404_with_the_gate_off_and_all_still_served(tmp_path: Path) -> None:
    server, _ = await start_server(tmp_path, [])
    server.catalogd.serve("c", fbc_lines())
    service = service_of(BASE.format("c"))
    assert service is not None
    try:
        status, body, _ = await _get(server.url + service.proxy_path(METAS) + "?package=a")
        assert (status, body) == (404, b"404 page not found\n")
        status, body, _ = await _get(server.url + service.proxy_path())
        assert status == 200 and body == fbc_lines()
    finally:
        await server.stop()
