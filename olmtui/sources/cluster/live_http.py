"""GET requests to the API server as raw JSON: paginated lists and watch streams.

Requests go through kubernetes-asyncio's ``ApiClient.call_api`` (so TLS, proxies and
credential refresh are the library's) with ``_preload_content=False``, and the bytes are
parsed here with msgspec (``fast_json``; ``json.loads`` for what it refuses): no typed
models, no re-serialisation. Two measured facts shape this module:
kubernetes-asyncio 36.1.0 does not raise on non-2xx raw responses, so the status is checked
here; and a half-open connection hangs forever unless the client sets a socket read timeout,
so every request carries one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, Container, Iterator, Mapping, Sequence
from typing import Any

import aiohttp
from kubernetes_asyncio.client import ApiClient

from olmtui.gc_pause import cyclic_gc_paused
from olmtui.sources import fast_json
from olmtui.store import Obj

Query = Sequence[tuple[str, str]]

#: Objects per list page: small pages keep the event loop responsive.
PAGE_SIZE = 500

#: Pages of one list fetched ahead of the one being applied.
PAGES_AHEAD = 2

#: The ``Accept`` header for full objects.
JSON = "application/json"


class StatusError(Exception):
    """The API server said no: an HTTP error or a watch ``ERROR`` event, as a Status."""

    def __init__(self, code: int, reason: str, message: str) -> None:
        super().__init__(f"{code} {reason}: {message}" if message else f"{code} {reason}")
        self.code = code
        self.reason = reason
        self.message = message
        #: Seconds the server asked the client to wait (``Retry-After``, with 429 or 503).
        self.retry_after: float | None = None


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
        int(status.get("code") or code),
        str(status.get("reason") or ""),
        str(status.get("message") or ""),
    )


def retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` header in seconds (the API server sends whole seconds; an HTTP date
    or anything else counts as absent)."""
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and 0 <= seconds < float("inf") else None


def parse_json(raw: bytes) -> Any:
    """``fast_json.loads`` with the cyclic collector paused: a parsed page is thousands of
    fresh, acyclic containers, and the collections they set off mid-parse walk them again and
    again for nothing. What it parses mostly becomes cache entries, so it is frozen at once
    too."""
    with cyclic_gc_paused(keep=True):
        return fast_json.loads(raw)


def timeout_of(read_timeout: float) -> aiohttp.ClientTimeout:
    """No total limit (watches are long), but silence longer than ``read_timeout`` fails,
    and so does getting a connection: ``connect`` covers a proxy's answer to ``CONNECT``,
    which neither socket timeout does (a proxy that never answers hung olmtui for good)."""
    return aiohttp.ClientTimeout(
        connect=read_timeout, sock_read=read_timeout, sock_connect=read_timeout
    )


class Requester:
    """GETs through one kubernetes-asyncio ``ApiClient``. The ``Accept`` header of each
    request decides what the server sends: full objects, or PartialObjectMetadataList for a
    list and PartialObjectMetadata for the events of a watch. ``list_timeout``: the tighter
    bound on silence for a request that is no watch (a list page the server never answers
    heals in seconds, not at ``read_timeout``)."""

    def __init__(
        self,
        client: ApiClient,
        read_timeout: float,
        *,
        list_accept: str = JSON,
        watch_accept: str = JSON,
        list_timeout: float | None = None,
    ) -> None:
        self.client = client
        self.read_timeout = read_timeout
        self.list_timeout = min(read_timeout, list_timeout or read_timeout)
        self.list_accept = list_accept
        self.watch_accept = watch_accept

    async def open(
        self,
        path: str,
        query: Query,
        *,
        watch: bool = False,
        headers: Mapping[str, str] | None = None,
        also_ok: Container[int] = (),
    ) -> aiohttp.ClientResponse:
        """Send a GET and return the response once its status is known to be 2xx (or one of
        ``also_ok``, e.g. 304 to a conditional GET); ``headers`` add to or replace Accept."""
        accept = self.watch_accept if watch else self.list_accept
        response: aiohttp.ClientResponse = await self.client.call_api(
            path,
            "GET",
            query_params=list(query),
            header_params={"Accept": accept, **(headers or {})},
            auth_settings=["BearerToken"],
            _preload_content=False,
            _request_timeout=timeout_of(self.read_timeout if watch else self.list_timeout),
        )
        if not 200 <= response.status <= 299 and response.status not in also_ok:
            try:
                body = await response.read()
            finally:
                response.release()
            error = status_error(response.status, body)
            error.retry_after = retry_after(response.headers.get("Retry-After"))
            raise error
        return response

    async def get_json(self, path: str, query: Query = ()) -> Obj:
        response = await self.open(path, query)
        try:
            document: Obj = parse_json(await response.read())
            return document
        finally:
            response.release()

    async def list_pages(
        self, path: str, query: Query, page_size: int = PAGE_SIZE
    ) -> AsyncGenerator[Obj, None]:
        """Pages of one list (``limit``/``continue``), all served from the same snapshot;
        the last page's ``metadata.resourceVersion`` is the version to watch from.

        Pages are fetched by a task of their own, up to :data:`PAGES_AHEAD` ahead of the
        caller: the server prepares the next pages while the cache and model take in this
        one. Close the iterator (``contextlib.aclosing``) to stop that task when the caller
        stops early."""
        ready: asyncio.Queue[Obj | BaseException | None] = asyncio.Queue(PAGES_AHEAD)

        async def fetch() -> None:
            token = ""
            try:
                while True:
                    page_query = [*query, ("limit", str(page_size))]
                    if token:
                        page_query.append(("continue", token))
                    page = await self.get_json(path, page_query)
                    await ready.put(page)
                    token = (page.get("metadata") or {}).get("continue") or ""
                    if not token:
                        await ready.put(None)
                        return
            except Exception as exc:  # handed to the caller, who raises it
                await ready.put(exc)

        fetcher = asyncio.ensure_future(fetch())
        try:
            while (page := await ready.get()) is not None:
                if isinstance(page, BaseException):
                    raise page
                yield page
        finally:
            fetcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await fetcher

    async def open_watch(
        self, path: str, query: Query, resource_version: str
    ) -> aiohttp.ClientResponse:
        """Start a watch from ``resource_version``, with bookmarks."""
        return await self.open(
            path,
            [
                *query,
                ("watch", "true"),
                ("allowWatchBookmarks", "true"),
                ("resourceVersion", resource_version),
            ],
            watch=True,
        )


#: JSON read into one watch batch at most (about a dozen full CSVs): with the model's work
#: on those objects, a batch keeps the event loop for a few milliseconds.
WATCH_BATCH_BYTES = 256 * 1024


class EventLines:
    """The complete lines of a newline-delimited stream, fed one network read at a time.

    Lines are cut lazily, one by one, from the read itself: a client that falls behind gets
    large reads, and splitting (and copying) such a read whole would hold the event loop for
    all of it in one turn. Consume each :meth:`feed` to the end before the next one.
    """

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def feed(self, chunk: bytes) -> Iterator[bytes]:
        start = 0
        if self._parts:
            end = chunk.find(b"\n")
            if end < 0:
                self._parts.append(chunk)
                return
            first = b"".join([*self._parts, chunk[:end]])
            self._parts = []
            start = end + 1
            if first and not first.isspace():
                yield first
        while (end := chunk.find(b"\n", start)) >= 0:
            line = chunk[start:end]
            start = end + 1
            if line and not line.isspace():
                yield line
        if start < len(chunk):
            self._parts.append(chunk[start:])

    @property
    def partial(self) -> bool:
        """Whether the stream stopped inside a line (an event cut short)."""
        return any(part.strip() for part in self._parts)


async def watch_batches(
    response: aiohttp.ClientResponse, size: int
) -> AsyncGenerator[list[Obj], None]:
    """The events of an open watch in batches of at most ``size`` events or about
    :data:`WATCH_BATCH_BYTES` of JSON, each parsed just before it is handed over, so that a
    burst is applied in few batches yet no batch holds the loop long. Ends when the server
    closes the stream; raises when it is cut inside an event. The connection is closed when
    the iteration stops, however it stops."""
    lines = EventLines()
    try:
        async for chunk in response.content.iter_any():
            batch: list[Obj] = []
            weight = 0
            for line in lines.feed(chunk):
                batch.append(parse_json(line))
                weight += len(line)
                if len(batch) >= size or weight >= WATCH_BATCH_BYTES:
                    yield batch
                    batch, weight = [], 0
            if batch:
                yield batch
        if lines.partial:
            raise aiohttp.ClientPayloadError("watch stream ended inside an event")
    finally:
        response.close()
