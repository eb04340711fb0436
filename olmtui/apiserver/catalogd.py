"""catalogd's HTTP API behind the API server's service proxy (olm-v1-rules R-V1-21).

A real client reaches catalogd from outside the cluster with a plain GET on
``/api/v1/namespaces/<ns>/services/https:<service>:443/proxy/catalogs/<catalog>/api/v1/all``.
This serves that path for the catalogs a test or the demo registers: JSON Lines of FBC
metas (``Content-Type: application/jsonl``), ``Last-Modified`` and ``If-Modified-Since``
(304), gzip when the client accepts it, 404 for an unknown catalog (catalogd's plain text
``404 page not found``), and, as catalogd's non-leader replicas do, 404 for the next few
requests of a catalog when a test asks for it. The ``/api/v1/metas`` handler (feature gate
``APIV1MetasHandler``) is off (404), as it is by default; :meth:`Catalogd.enable_metas` turns
it on: the documents whose ``schema``, ``package`` and ``name`` match every one of those query
parameters given (catalogd's index: an intersection, in the catalog's order; none given, the
whole catalog; any other parameter, 400), with the same headers as ``all``. RBAC on
``services/proxy`` is the server's (``Permissions``).
"""

from __future__ import annotations

import datetime as dt
import email.utils
import gzip
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from olmtui.apiserver import status as st
from olmtui.apiserver.resources import Resource

#: The subresource RBAC checks for a service proxy request (``get services/proxy``).
SERVICE_PROXY = Resource("", "v1", "Service", "services/proxy", "service", True, verbs=("get",))
CATALOGD_NAMESPACE = "olmv1-system"
CATALOGD_SERVICE = "catalogd-service"
JSONL = "application/jsonl"
_NOT_FOUND = "404 page not found\n"


@dataclass
class ServedCatalog:
    """One catalog's ``all`` body (JSON Lines) and when it was last unpacked."""

    body: bytes
    last_modified: dt.datetime
    _gzipped: bytes | None = field(default=None, repr=False)

    def gzipped(self) -> bytes:
        if self._gzipped is None:
            self._gzipped = gzip.compress(self.body, compresslevel=5, mtime=0)
        return self._gzipped


class Catalogd:
    """The catalogd services the loopback server proxies to, by namespace and name."""

    def __init__(self) -> None:
        self._catalogs: dict[tuple[str, str], dict[str, ServedCatalog]] = {}
        self._not_ready: dict[str, int] = {}
        #: catalogd's ``APIV1MetasHandler`` feature gate (off by default upstream).
        self.metas = False

    def enable_metas(self, enabled: bool = True) -> None:
        """Serve ``/api/v1/metas`` (the feature gate on), or answer it 404 again."""
        self.metas = enabled

    def serve(
        self,
        name: str,
        body: bytes,
        *,
        namespace: str = CATALOGD_NAMESPACE,
        service: str = CATALOGD_SERVICE,
        last_modified: dt.datetime | None = None,
    ) -> None:
        """Serve (or replace) catalog ``name``'s JSON Lines."""
        moment = (last_modified or dt.datetime.now(dt.UTC)).replace(microsecond=0)
        self._catalogs.setdefault((namespace, service), {})[name] = ServedCatalog(body, moment)

    def remove(self, name: str) -> None:
        for catalogs in self._catalogs.values():
            catalogs.pop(name, None)

    def not_leader(self, name: str, count: int) -> None:
        """Answer the next ``count`` requests for ``name`` with 404, as a replica that is
        not the leader does."""
        self._not_ready[name] = count

    def handle(
        self, request: web.Request, namespace: str, service_port: str, rest: list[str]
    ) -> web.Response:
        """A proxied GET to ``<scheme>:<service>:<port>`` in ``namespace``, path ``rest``."""
        scheme, service, port = _service_port(service_port)
        catalogs = self._catalogs.get((namespace, service))
        if catalogs is None:
            return _json_status(
                st.status(
                    404,
                    "NotFound",
                    f'services "{service}" not found',
                    {"name": service, "kind": "services"},
                )
            )
        if scheme != "https" or port not in ("", "443", "https"):
            return _json_status(
                st.status(
                    503,
                    "ServiceUnavailable",
                    f"error trying to reach service: no https endpoint on port {port or '?'}",
                )
            )
        match rest:
            case ["catalogs", name, "api", "v1", "all"] if name in catalogs:
                endpoint = "all"
            case ["catalogs", name, "api", "v1", "metas"] if name in catalogs and self.metas:
                endpoint = "metas"
            case _:
                return web.Response(status=404, text=_NOT_FOUND, content_type="text/plain")
        if self._not_ready.get(name, 0) > 0:
            self._not_ready[name] -= 1
            return web.Response(status=404, text=_NOT_FOUND, content_type="text/plain")
        if endpoint == "metas":
            return _metas(request, catalogs[name])
        return _content(request, catalogs[name])


def _service_port(text: str) -> tuple[str, str, str]:
    """``https:catalogd-service:443`` -> (scheme, name, port); scheme and port may be absent."""
    parts = text.split(":")
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    if len(parts) == 2:
        return "", parts[0], parts[1]
    return "", text, ""


def _content(request: web.Request, served: ServedCatalog) -> web.Response:
    headers = {"Last-Modified": email.utils.format_datetime(served.last_modified, usegmt=True)}
    since = _http_date(request.headers.get("If-Modified-Since"))
    if since is not None and served.last_modified <= since:
        return web.Response(status=304, headers=headers)
    body = served.body
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body = served.gzipped()
        headers["Content-Encoding"] = "gzip"
    headers["Content-Type"] = JSONL
    return web.Response(body=body, headers=headers)


#: The query parameters ``/api/v1/metas`` accepts: the fields of an FBC ``Meta``.
_META_FIELDS = ("schema", "package", "name")


def _metas(request: web.Request, served: ServedCatalog) -> web.Response:
    """``/api/v1/metas?schema=&package=&name=``: the catalog's documents matching every
    parameter given, as catalogd's handler answers it (400 for another parameter)."""
    if any(key not in _META_FIELDS for key in request.query):
        return web.Response(status=400, text="400 Bad Request\n", content_type="text/plain")
    wanted = {key: request.query[key] for key in _META_FIELDS if request.query.get(key)}
    if not wanted:
        return _content(request, served)
    lines = [
        line
        for line in served.body.splitlines(keepends=True)
        if line.strip() and _matches(line, wanted)
    ]
    return _content(request, ServedCatalog(b"".join(lines), served.last_modified))


def _matches(line: bytes, wanted: dict[str, str]) -> bool:
    try:
        meta = json.loads(line)
    except ValueError:
        return False
    if not isinstance(meta, dict):
        return False
    return all(meta.get(key) == value for key, value in wanted.items())


def _http_date(text: str | None) -> dt.datetime | None:
    if not text:
        return None
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def _json_status(body: dict[str, Any]) -> web.Response:
    return web.json_response(body, status=int(body["code"]))
