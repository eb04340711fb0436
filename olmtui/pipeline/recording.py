"""A live session recorded (``olmtui record``, ``olmtui --record FILE``) and a recording read
back at a moment (``check --at``): what ``build.py`` wires around the recording's writer and
reader.

The writer follows the session's Store; the session's runner is wrapped so that, while the
live source runs, the writer is flushed every ``FLUSH_INTERVAL`` (a crash loses at most
that, R-REC-3), told what the source has not listed yet or that it is disconnected
(R-REC-2), and closed when the runner ends, however it ends (SIGTERM and Ctrl-C cancel it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import field

from olmtui.frozen import frozen
from olmtui.model.records.types import Finding
from olmtui.model.rules.input.partial import PartialInput
from olmtui.pipeline.input_state import syncing_partial
from olmtui.sources.cluster.live_status import LiveStatus
from olmtui.sources.recording.moments import utc_text
from olmtui.sources.recording.reader import RecordingTimeline
from olmtui.sources.recording.rotation import Rotation
from olmtui.sources.recording.writer import FLUSH_INTERVAL, RecorderStatus, RecordingWriter
from olmtui.store import Store


@frozen
class RecordTo:
    """Where and how a live session is recorded; ``say`` hears one line per reconnect and
    per change of what may be read (the headless recorder prints them on stderr)."""

    path: str
    rotation: Rotation = field(default_factory=Rotation)
    say: Callable[[str], None] | None = None


@frozen
class RecordingLoad:
    """What the report says was read from a recording: its path and the objects held at the
    moment (a state, not documents: nothing is skipped)."""

    paths: list[str]
    objects: int
    skipped: int = 0
    findings: tuple[Finding, ...] = ()


def recorder_status(live: LiveStatus) -> RecorderStatus:
    """What a live source has read, as a recording keeps it (R-REC-2)."""
    if not live.streams:
        return RecorderStatus(None, live.connected)
    syncing = tuple(sorted(name for name, s in live.streams.items() if s.state == "syncing"))
    return RecorderStatus(syncing, live.connected)


class _Notes:
    """The lines a recorder says as it goes: reconnects and what may not be read."""

    def __init__(self, say: Callable[[str], None] | None, store: Store) -> None:
        self._say = say
        self._store = store
        self._connected: bool | None = None
        self._unreadable: dict[str, str] = {}

    def follow(self, live: LiveStatus) -> None:
        if self._say is None:
            return
        if live.connected != self._connected:
            if live.connected and self._connected is not None:
                self._say("reconnected: recording again")
            elif not live.connected and self._connected:
                self._say("connection lost: reconnecting (changes show when it relists)")
            self._connected = live.connected
        now = {kind: u.scope for kind, u in self._store.unreadable.items()}
        for kind, scope in sorted(now.items()):
            if self._unreadable.get(kind) != scope:
                self._say(f"no access to {scope}: recorded as unreadable")
        for kind in sorted(set(self._unreadable) - set(now)):
            self._say(f"{kind} readable again")
        self._unreadable = now


class Recorded:
    """A runner with its store recorded while it runs: call it as the runner it wraps.
    The file is opened when it is made, before the runner starts (``UsageError`` for a path
    that cannot be written); ``writer`` is the recording's."""

    def __init__(
        self,
        runner: Callable[[], Awaitable[None]],
        store: Store,
        status: Callable[[], LiveStatus],
        target: RecordTo,
        context: str | None,
        namespaces: list[str],
    ) -> None:
        self._runner = runner
        self._status = status
        self.writer = RecordingWriter(
            target.path, context=context, namespaces=namespaces, rotation=target.rotation
        )
        self.writer.attach(store)
        self._notes = _Notes(target.say, store)

    async def _ticking(self) -> None:
        import asyncio  # here: check imports this module and needs no event loop

        while True:
            await asyncio.sleep(FLUSH_INTERVAL)
            live = self._status()
            self.writer.set_status(recorder_status(live))
            self._notes.follow(live)
            self.writer.tick()

    async def __call__(self) -> None:
        import asyncio

        ticker = asyncio.ensure_future(self._ticking())
        try:
            await self._runner()
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            self.writer.close()


def recording_partial(timeline: RecordingTimeline, when: float) -> PartialInput:
    """What a recording does not show at ``when``: the kinds its recorder had not listed yet
    or any kind while it was disconnected (R-REC-2), and a cut tail at its end (R-REC-3,
    said, withholding nothing: what was recorded stays true)."""
    status = timeline.status_at(when)
    reasons: list[str] = []
    kinds: frozenset[str] | None = frozenset()
    if not status.connected:
        reasons.append(
            f"the recorder was not connected at {utc_text(when)}: what changed then is "
            "not in the recording until it listed again"
        )
        kinds = None
    elif status.syncing is None:
        reasons.append(f"the recorder had not started listing at {utc_text(when)}")
        kinds = None
    elif status.syncing:
        syncing = syncing_partial(status.syncing)
        reasons.extend(f"recording: {r}" for r in syncing.reasons)
        kinds = syncing.kinds
    if when >= timeline.ended:
        reasons.extend(timeline.incomplete_because)
    return PartialInput(tuple(reasons), kinds)
