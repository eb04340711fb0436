"""Watch streams: chunked HTTP responses carrying one JSON event per line.

A watch starts either from "now" (no resourceVersion or ``"0"``: the current objects are
sent first as synthetic ``ADDED`` events) or after a given resourceVersion, replayed from
the state's history. A resourceVersion older than that history gets HTTP 200 followed by
one ``ERROR`` event holding a 410 ``Expired`` Status, as kube-apiserver does, and the
stream ends. With ``allowWatchBookmarks`` a ``BOOKMARK`` carrying only the current
resourceVersion is sent every ``bookmark_interval`` seconds of silence. The server closes
the stream after ``timeoutSeconds`` (or its default).

Selectors apply to events as on a real apiserver: an object modified so that it stops
matching is sent as ``DELETED``, one that starts matching as ``ADDED``.

The hub also carries the test controls that act on open streams: dropping them mid-stream,
stalling them (the connection stays open but nothing is sent until the stall ends), making
them half-open for good (nothing is ever sent again) and closing them cleanly when the
server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from olmtui.apiserver import render
from olmtui.apiserver.negotiation import Representation
from olmtui.apiserver.resources import Resource
from olmtui.apiserver.selectors import Selection
from olmtui.apiserver.state import (
    ClusterState,
    ResourceVersionTooLarge,
    ResourceVersionTooOld,
    StoredEvent,
    stamp_rv,
)
from olmtui.apiserver.status import expired, too_large_resource_version
from olmtui.frozen import frozen

Obj = dict[str, Any]


@dataclass(eq=False)
class _OpenWatch:
    """One open watch request, woken through ``poke`` whenever something concerns it."""

    resource: Resource
    request: web.Request
    pending: deque[StoredEvent] = field(default_factory=deque)
    poke: asyncio.Event = field(default_factory=asyncio.Event)
    dropped: bool = False
    closing: bool = False
    #: Half-open: the client's end is still open, but nothing it will ever receive again,
    #: not even the end of the stream (see ``WatchHub.half_open``).
    dead: bool = False


@frozen
class WatchRequest:
    """The parameters of one watch, parsed from the query string."""

    resource: Resource
    namespace: str | None
    selection: Selection
    representation: Representation
    resource_version: str
    bookmarks: bool
    timeout: float
    include_object: str


class WatchHub:
    """The open watches, fed with state changes on the server's event loop."""

    def __init__(self, state: ClusterState, *, bookmark_interval: float) -> None:
        self.state = state
        self.bookmark_interval = bookmark_interval
        self.stalled = False
        self.delivered_rv = state.current_rv
        self._open: set[_OpenWatch] = set()

    @property
    def open_count(self) -> int:
        return len(self._open)

    def publish(self, event: StoredEvent) -> None:
        """Hand one change to the watches of its resource (call on the event loop)."""
        self.delivered_rv = max(self.delivered_rv, event.rv)
        for watch in self._open:
            if watch.resource is event.resource:
                watch.pending.append(event)
                watch.poke.set()

    def drop_all(self) -> None:
        """Abort every open stream mid-stream (the client sees a payload error)."""
        for watch in self._open:
            watch.dropped = True
            watch.poke.set()

    def close_all(self) -> None:
        """End every open stream cleanly, as the server does when it shuts down."""
        for watch in self._open:
            watch.closing = True
            watch.poke.set()

    def half_open(self) -> None:
        """Make every open watch half-open, for good: the connection stays open on the
        client's side but sends nothing more, not even its end at ``timeoutSeconds`` (the
        server, or a NAT between, forgot it). Watches opened later work."""
        for watch in self._open:
            watch.dead = True
            watch.poke.set()

    def set_stalled(self, stalled: bool) -> None:
        self.stalled = stalled
        for watch in self._open:
            watch.poke.set()

    async def serve(self, request: web.Request, params: WatchRequest) -> web.StreamResponse:
        """Stream the watch. The returned response is finished (or, when the client or a
        test control cut the connection, found dead) by aiohttp's ``write_eof``."""
        response = web.StreamResponse(headers={"Content-Type": params.representation.content_type})
        response.enable_chunked_encoding()
        watch = _OpenWatch(params.resource, request)
        self._open.add(watch)  # before reading state, so no change can slip between
        try:
            await self._serve(watch, response, params)
        except ConnectionError:
            pass  # the client went away mid-stream
        finally:
            self._open.discard(watch)
        return response

    async def _serve(
        self, watch: _OpenWatch, response: web.StreamResponse, params: WatchRequest
    ) -> None:
        while self.stalled and not (watch.dropped or watch.closing):
            watch.poke.clear()
            await watch.poke.wait()
        if watch.dropped:
            _abort(watch)
            return
        if watch.closing:
            return
        try:
            initial, last_rv = self._initial_events(params)
        except ResourceVersionTooOld as exc:
            await response.prepare(watch.request)
            await response.write(_line("ERROR", expired(str(exc))))
            return
        except ResourceVersionTooLarge as exc:
            response.set_status(504)
            response.content_type = "application/json"
            await response.prepare(watch.request)
            await response.write(json.dumps(too_large_resource_version(str(exc))).encode())
            return
        await response.prepare(watch.request)
        stream = _Stream(response, params, last_rv)
        await stream.send_all(initial)
        await self._follow(watch, stream, params)

    def _initial_events(self, params: WatchRequest) -> tuple[list[tuple[str, Obj]], int]:
        if params.resource_version in ("", "0"):
            objs, rv = self.state.snapshot_with_rv(params.resource, params.namespace)
            return [("ADDED", o) for o in objs if params.selection.matches(o)], rv
        since = int(params.resource_version)
        events = self.state.events_since(since, params.resource)
        translated = [t for e in events if (t := _translate(e, params)) is not None]
        return translated, max([since, *(e.rv for e in events)])

    async def _follow(self, watch: _OpenWatch, stream: _Stream, params: WatchRequest) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + params.timeout
        next_bookmark = loop.time() + self.bookmark_interval
        while True:
            if watch.dropped:
                _abort(watch)
                return
            if watch.closing:
                return
            if self.stalled or watch.dead:
                watch.poke.clear()
                await watch.poke.wait()
                continue
            if watch.pending:
                batch = list(watch.pending)
                watch.pending.clear()
                await stream.send_events(batch)
                next_bookmark = loop.time() + self.bookmark_interval
                continue
            now = loop.time()
            if now >= deadline:
                return
            if params.bookmarks and now >= next_bookmark:
                await stream.send_bookmark(max(stream.last_rv, self.delivered_rv))
                next_bookmark = now + self.bookmark_interval
                continue
            wake = min(deadline, next_bookmark) if params.bookmarks else deadline
            watch.poke.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watch.poke.wait(), wake - now)


class _Stream:
    """Writes events of one watch, skipping those its starting point already covered."""

    def __init__(self, response: web.StreamResponse, params: WatchRequest, last_rv: int) -> None:
        self.response = response
        self.params = params
        self.last_rv = last_rv

    def _encode(self, event_type: str, obj: Obj) -> bytes:
        p = self.params
        return _line(
            event_type,
            render.represent(obj, p.representation, p.resource, include_object=p.include_object),
        )

    async def send_all(self, events: list[tuple[str, Obj]]) -> None:
        for start in range(0, len(events), 500):
            chunk = events[start : start + 500]
            await self.response.write(b"".join(self._encode(t, o) for t, o in chunk))

    async def send_events(self, events: list[StoredEvent]) -> None:
        fresh = [e for e in events if e.rv > self.last_rv]
        if not fresh:
            return
        self.last_rv = fresh[-1].rv
        lines = [t for e in fresh if (t := _translate(e, self.params)) is not None]
        await self.send_all(lines)

    async def send_bookmark(self, rv: int) -> None:
        self.last_rv = rv
        obj = render.bookmark(self.params.resource, rv, self.params.representation)
        await self.response.write(_line("BOOKMARK", obj))


def _visible(obj: Obj | None, params: WatchRequest) -> bool:
    if obj is None:
        return False
    if params.namespace is not None and obj["metadata"].get("namespace") != params.namespace:
        return False
    return params.selection.matches(obj)


def _translate(event: StoredEvent, params: WatchRequest) -> tuple[str, Obj] | None:
    """What a watch with these parameters sees of one change, if anything."""
    if event.type == "ADDED":
        return ("ADDED", event.obj) if _visible(event.obj, params) else None
    if event.type == "DELETED":
        return ("DELETED", event.obj) if _visible(event.old, params) else None
    now_visible, was_visible = _visible(event.obj, params), _visible(event.old, params)
    if now_visible:
        return ("MODIFIED" if was_visible else "ADDED", event.obj)
    if was_visible and event.old is not None:
        return ("DELETED", stamp_rv(event.old, event.rv))
    return None


def _line(event_type: str, obj: Obj) -> bytes:
    return json.dumps({"type": event_type, "object": obj}, separators=(",", ":")).encode() + b"\n"


def _abort(watch: _OpenWatch) -> None:
    """Cut the TCP connection without ending the chunked body."""
    transport = watch.request.transport
    if transport is not None:
        transport.abort()
