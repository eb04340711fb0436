"""What the live connection is doing, per watched stream and overall, for the header.

The records are plain mutable objects updated in place by the informers on the event loop,
so a screen reads them synchronously (no awaiting) and redraws when the ``version`` counter
moves or a registered callback fires.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

StreamState = Literal["syncing", "live", "reconnecting", "failed", "no access", "unavailable"]

#: States in which a stream is not following the cluster although it should: the session is
#: then not "live", whatever the others do.
DOWN: frozenset[StreamState] = frozenset({"reconnecting", "failed"})

StatusListener = Callable[["LiveStatus"], None]


def one_line(text: str, limit: int = 200) -> str:
    """An error message squeezed onto one line for the status bar (never parsed as markup)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@dataclass
class StreamStatus:
    """One list+watch stream: a kind, or the copies of CSVs, or a kind in one namespace."""

    name: str
    state: StreamState = "syncing"
    since: float = field(default_factory=time.time)
    last_event: float | None = None
    last_error: str = ""
    resource_version: str = ""
    #: Objects skipped because they could not be applied (a field of the wrong type that
    #: the store's boundary let through), and why the last one was.
    skipped: int = 0
    last_skipped: str = ""


@dataclass
class LiveStatus:
    """Overall connection state plus one :class:`StreamStatus` per stream.

    ``connected`` is true while no stream is reconnecting or failed (a task that ended with
    an unexpected error, restarted after a backoff); ``reconnecting_since`` is when the
    oldest current reconnect (or failure) began, ``failed`` names the failed streams.
    ``csv_upgrade_count`` mirrors OLM's metric of the same name as far as a watcher can see
    it: CSVs ADDED while watching whose ``spec.replaces`` names a CSV present in their
    namespace.
    """

    label: str = ""
    connected: bool = False
    reconnecting_since: float | None = None
    failed: tuple[str, ...] = ()
    last_event: float | None = None
    version: int = 0
    csv_upgrade_count: int = 0
    streams: dict[str, StreamStatus] = field(default_factory=dict)
    _listeners: list[StatusListener] = field(default_factory=list, repr=False)
    _reachable: bool = field(default=False, repr=False)

    def subscribe(self, listener: StatusListener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: StatusListener) -> None:
        self._listeners.remove(listener)

    def stream(self, name: str) -> StreamStatus:
        if name not in self.streams:
            self.streams[name] = StreamStatus(name)
        return self.streams[name]

    def forget(self, name: str) -> None:
        """Drop the record of ``name`` (a task that is no stream, once it runs again)."""
        if self.streams.pop(name, None) is not None:
            self._recompute()

    def set_state(self, name: str, state: StreamState, error: str = "") -> None:
        """Move a stream to ``state`` (``since`` changes only when the state does)."""
        stream = self.stream(name)
        if stream.state != state:
            stream.state = state
            stream.since = time.time()
        if error:
            stream.last_error = one_line(error)
        elif state == "live":
            stream.last_error = ""
        self._recompute()

    def set_reachable(self, reachable: bool) -> None:
        """Discovery answered (or the source closed): the base of ``connected``."""
        self._reachable = reachable
        self._recompute()

    def saw_events(self, name: str, resource_version: str) -> None:
        """Record that a stream delivered data (events, a bookmark or a list page)."""
        stream = self.stream(name)
        now = time.time()
        stream.last_event = now
        self.last_event = now
        if resource_version:
            stream.resource_version = resource_version
        self._changed()

    def skipped_object(self, name: str, reason: str) -> None:
        """Record an object of stream ``name`` that could not be applied (the stream goes on)."""
        stream = self.stream(name)
        stream.skipped += 1
        stream.last_skipped = one_line(reason)
        self._changed()

    def count_upgrade(self) -> None:
        self.csv_upgrade_count += 1
        self._changed()

    def _recompute(self) -> None:
        reconnecting = [s.since for s in self.streams.values() if s.state in DOWN]
        self.failed = tuple(n for n, s in self.streams.items() if s.state == "failed")
        self.connected = self._reachable and not reconnecting
        self.reconnecting_since = min(reconnecting) if reconnecting else None
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        for listener in list(self._listeners):
            listener(self)
