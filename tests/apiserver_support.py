"""Helpers for the loopback API server tests: real OLM objects from an OCP 4.8 must-gather,
and a started server with an aiohttp session pointed at it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
from model_builders import load_all

from olmtui.apiserver import LoopbackAPIServer

DATA = Path(__file__).resolve().parent / "data" / "apiserver"
MUST_GATHER = DATA / "must-gather-azure"
PACKAGE_MANIFESTS = DATA / "mocks.packagemanifests.yaml"
OLM = "/apis/operators.coreos.com/v1alpha1"
CSVS = f"{OLM}/clusterserviceversions"
TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"

Obj = dict[str, Any]


def must_gather_objects() -> list[Obj]:
    """26 real objects: 9 CSVs (6 of them copies), Subscriptions, InstallPlans, ..."""
    return [d for p in sorted(MUST_GATHER.rglob("*.yaml")) for d in load_all(p)]


def all_objects() -> list[Obj]:
    return must_gather_objects() + load_all(PACKAGE_MANIFESTS)


def csv_names(objs: list[Obj]) -> list[tuple[str, str]]:
    return [(o["metadata"]["namespace"], o["metadata"]["name"]) for o in objs]


@asynccontextmanager
async def serving(
    objs: list[Obj] | None = None,
    **options: Any,
) -> AsyncIterator[tuple[LoopbackAPIServer, aiohttp.ClientSession]]:
    """A started server holding ``objs`` (default: every test object) and a session.
    Watches end after 10 s unless told otherwise, so a broken stream fails, not hangs."""
    server = LoopbackAPIServer(**{"watch_timeout": 10.0, **options})
    server.state.load(all_objects() if objs is None else objs)
    await server.start()
    try:
        async with aiohttp.ClientSession(server.url) as session:
            yield server, session
    finally:
        await server.stop()


async def get_json(
    session: aiohttp.ClientSession,
    path: str,
    *,
    accept: str | None = None,
    expect: int = 200,
    **params: str,
) -> Obj:
    headers = {"Accept": accept} if accept else {}
    async with session.get(path, params=params, headers=headers) as response:
        body = await response.read()
        assert response.status == expect, body[:500]
        return json.loads(body)


async def read_events(
    response: aiohttp.ClientResponse, count: int, timeout: float = 10.0
) -> list[Obj]:
    """The next ``count`` watch events of a stream (each one JSON line); a missing event
    fails after ``timeout`` seconds instead of hanging the test."""
    events = []
    while len(events) < count:
        try:
            line = await asyncio.wait_for(response.content.readline(), timeout)
        except TimeoutError:
            raise AssertionError(f"no watch event after {len(events)} of {count}") from None
        assert line, f"stream ended after {len(events)} events"
        events.append(json.loads(line))
    return events
