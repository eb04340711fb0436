"""GET requests to the API server as raw JSON: paginated lists and watch streams.

Requests go through kubernetes-asyncio's ``ApiClient.call_api`` (so TLS, proxies and
credential refresh are the library's) with ``_preload_content=False``, and the bytes are
parsed here with ``json.loads``: no typed models, no re-serialisation. Two measured facts
shape this module (tech-notes §A3-A5): kubernetes-asyncio 36.1.0 does not raise on non-2xx
raw responses, so the status is checked here; and a half-open connection hangs forever
unless the client sets a socket read timeout, so every request carries one.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence

import aiohttp
from kubernetes_asyncio.client import ApiClient

from olmtui.store import Obj

Query = Sequence[tuple[str, str]]

#: Objects per list page: small pages keep the event loop responsive (tech-notes §A5).
PAGE_SIZE = 500


class StatusError(Exception):
    """The API server said no: an HTTP error or a watch ``ERROR`` event, as a Status."""

    def __init__(self, code: int, reason: str, message: str) -> None:
        super().__init__(f"{code} {reason}: {message}" if message else f"{code} {reason}")
        self.code = code
        self.reason = reason
        self.message = message


def status_error(code: int, body: bytes | Obj) -> StatusError:
    """Build the error from a Status body (or whatever text the server sent instead)."""
    status: Obj
    if isinstance(body, dict):
        status = body
    else:
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            status = parsed
        else:
            status = {"message": body.decode("utf-8", "replace").strip()[:300]}
    return StatusError(
        int(status.get("code") or code), str(status.get("reason") or ""),
        str(status.get("message") or ""),
    )


def timeout_of(read_timeout: float) -> aiohttp.ClientTimeout:
    """No total limit (watches are long), but silence longer than ``read_timeout`` fails."""
    return aiohttp.ClientTimeout(sock_read=read_timeout, sock_connect=read_timeout)


class Requester:
    """GETs through kubernetes-asyncio ``ApiClient`` objects, one for lists and one for
    watches (the same one for full objects). A client's default ``Accept`` header decides
    what the server sends: full objects, or PartialObjectMetadataList for a list and
    PartialObjectMetadata for the events of a watch."""

    def __init__(self, list_client: ApiClient, watch_client: ApiClient,
                 read_timeout: float) -> None:
        self.list_client = list_client
        self.watch_client = watch_client
        self.read_timeout = read_timeout

    async def open(self, path: str, query: Query, *, watch: bool = False
                   ) -> aiohttp.ClientResponse:
        """Send a GET and return the response once its status is known to be 2xx."""
        client = self.watch_client if watch else self.list_client
        response = await client.call_api(
            path, "GET", query_params=list(query), auth_settings=["BearerToken"],
            _preload_content=False, _request_timeout=timeout_of(self.read_timeout),
        )
        if not 200 <= response.status <= 299:
            try:
                body = await response.read()
            finally:
                response.release()
            raise status_error(response.status, body)
        return response

    async def get_json(self, path: str, query: Query = ()) -> Obj:
        response = await self.open(path, query)
        try:
            return json.loads(await response.read())
        finally:
            response.release()

    async def list_pages(self, path: str, query: Query, page_size: int = PAGE_SIZE
                         ) -> AsyncIterator[Obj]:
        """Pages of one list (``limit``/``continue``), all served from the same snapshot;
        the last page's ``metadata.resourceVersion`` is the version to watch from."""
        token = ""
        while True:
            page_query = [*query, ("limit", str(page_size))]
            if token:
                page_query.append(("continue", token))
            page = await self.get_json(path, page_query)
            yield page
            token = (page.get("metadata") or {}).get("continue") or ""
            if not token:
                return
            await asyncio.sleep(0)

    async def open_watch(self, path: str, query: Query, resource_version: str
                         ) -> aiohttp.ClientResponse:
        """Start a watch from ``resource_version``, with bookmarks."""
        return await self.open(path, [
            *query, ("watch", "true"), ("allowWatchBookmarks", "true"),
            ("resourceVersion", resource_version),
        ], watch=True)


async def watch_batches(response: aiohttp.ClientResponse, size: int
                        ) -> AsyncIterator[list[Obj]]:
    """The events of an open watch in batches of at most ``size``, taken from what one
    network read brought (a burst is applied in few batches, and parsed batch by batch so
    that a 2 MB read does not hold the loop). Ends when the server closes the stream;
    raises when it is cut inside an event. The connection is closed when the iteration
    stops, however it stops."""
    pending = bytearray()
    try:
        async for chunk in response.content.iter_any():
            pending += chunk
            end = pending.rfind(b"\n")
            if end < 0:
                continue
            lines = [line for line in bytes(pending[:end]).split(b"\n") if line.strip()]
            del pending[: end + 1]
            for start in range(0, len(lines), size):
                yield [json.loads(line) for line in lines[start:start + size]]
        if pending.strip():
            raise aiohttp.ClientPayloadError("watch stream ended inside an event")
    finally:
        response.close()
