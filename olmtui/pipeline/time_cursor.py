"""The replay's time cursor: a session whose store shows a recording at one moment.

The cursor is a moment of the recording (the session's clock: CSV ages and "since" texts
are measured against it) and the position that moment falls at (the changes recorded at or
before it). Moving it moves the store by what differs between the two states
(``pipeline/recording_state.py``): forward a little, the changes in between; back or far,
the recording's state there. The Model, the HealthIndex and the screens follow through the
store's change feed as they follow a live cluster, so every view shows the state at the
cursor. A recording still being written grows: a cursor at its end stays at the end.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Hashable, Sequence

from olmtui.errors import UsageError
from olmtui.model.records.types import Finding
from olmtui.pipeline.finding_history import FindingHistory, Walked
from olmtui.pipeline.predicted import WorkerHost
from olmtui.pipeline.recording_log import RecordingLog, time_of_day
from olmtui.pipeline.recording_state import apply_net, net_between
from olmtui.pipeline.time_control import CursorPlace, FindingTimes, TimelineEntry
from olmtui.sources.recording.moments import parse_moment, utc_text
from olmtui.sources.recording.timeline import Timeline
from olmtui.store import Store

#: ``:at end`` (and ``:at now``): back to the end of the recording.
END_WORDS = ("end", "now")
#: How often a recording still being written is read again for what was appended (seconds).
GROW_INTERVAL = 1.0
#: A finding the history did not find at the end of the cursor's second: one that comes and
#: goes within a second, or one of the resolver's, which the history does not run.
#: How many changes one run of the worker tells or walks: the screens fill in as it goes.
WORK_PART = 20_000
NOT_SEEN = "first seen: not known (not among the findings at the end of this second)"


class TimeCursor:
    """One session's cursor over ``timeline``; ``store`` holds the state at the cursor.
    ``moved`` is told after each move (the session's health index measures ages again);
    ``grow`` reads what the recorder appended since and says whether it still writes;
    ``worker_grow`` reads on the worker's own reader (called only while no run is going)."""

    def __init__(
        self,
        timeline: Timeline,
        store: Store,
        position: int,
        *,
        moved: Callable[[], None] = lambda: None,
        history: FindingHistory | None = None,
        grow: Callable[[], bool] | None = None,
        worker_timeline: Timeline | None = None,
        worker_grow: Callable[[], object] | None = None,
    ) -> None:
        self._timeline = timeline
        self._store = store
        self.position = position
        self.moment = timeline.time_of(position)
        self._at_end = position == len(timeline)
        self._moved = moved
        self._history = history
        self._grow = grow
        self._growing = grow is not None
        #: What the worker reads: a reader of its own (a file's is not shared by threads).
        self._worker_timeline = worker_timeline or timeline
        #: Reads on the worker's reader, between two runs of the worker only.
        self._worker_grow = worker_grow
        self._log = RecordingLog(self._worker_timeline)
        self._busy = False
        #: Moves with every move of the cursor (the screens' stamp).
        self._moves = 0

    # -- where ---------------------------------------------------------------------------
    def clock(self) -> dt.datetime:
        """The session's clock: the cursor's moment."""
        return dt.datetime.fromtimestamp(self.moment, dt.UTC)

    def place(self) -> CursorPlace:
        timeline = self._timeline
        return CursorPlace(
            utc_text(self.moment),
            self.position,
            len(timeline),
            utc_text(timeline.started),
            utc_text(timeline.ended),
            self._growing,
        )

    def stamp(self) -> Hashable:
        generation = 0 if self._history is None else self._history.generation
        return (self._moves, generation, len(self._log.entries()))

    # -- moves ---------------------------------------------------------------------------
    def _move(self, position: int, moment: float) -> None:
        """To the state after ``position`` changes, shown as of ``moment``."""
        net = net_between(self._timeline, self._store, self.position, position)
        self.position = position
        self.moment = moment
        self._at_end = position == len(self._timeline)
        apply_net(self._store, net)
        self._moves += 1
        self._moved()

    def jump(self, position: int) -> None:
        position = max(0, min(position, len(self._timeline)))
        self._move(position, self._timeline.time_of(position))

    def step(self, changes: int) -> None:
        self.jump(self.position + changes)

    def at_moment(self, when: float) -> None:
        """To the state at ``when`` (inside the recording): every change recorded then."""
        timeline = self._timeline
        when = max(timeline.started, min(when, timeline.ended))
        self._move(timeline.count_at(when), when)

    def step_minutes(self, minutes: int) -> None:
        self.at_moment(self.moment + 60 * minutes)

    def to_end(self) -> None:
        self._move(len(self._timeline), self._timeline.ended)

    def go_to(self, text: str) -> str | None:
        if text.strip().lower() in END_WORDS:
            self.to_end()
            return None
        timeline = self._timeline
        try:
            when = parse_moment(text, timeline.started, timeline.ended)
        except UsageError as exc:
            return str(exc)
        self.at_moment(when)
        return None

    # -- a recording still being written ---------------------------------------------------
    async def run(self) -> None:
        """The session's runner: read what the recorder appends; a cursor at the end
        follows it there."""
        grow = self._grow
        while grow is not None and self._growing:
            await asyncio.sleep(GROW_INTERVAL)
            self.grown(grow())

    def grown(self, still: bool) -> None:
        """The timeline was read again: a cursor that was at its end follows it there."""
        self._growing = still
        if self._at_end and len(self._timeline) > self.position:
            self.to_end()
        else:
            self._moves += 1  # the header's span and "of M" moved

    # -- what the screens list -------------------------------------------------------------
    def entries(self) -> Sequence[TimelineEntry]:
        return self._log.entries()

    def finding_times(self, finding: Finding) -> FindingTimes | None:
        history = self._history
        if history is None or history.done < self.position:
            return None
        presence = history.presence(finding, self.moment)
        if presence is None:
            return FindingTimes("", "", note=NOT_SEEN)
        return FindingTimes(
            time_of_day(presence.since), time_of_day(presence.last_changed), presence.from_start
        )

    def follow(self, host: WorkerHost) -> None:
        """Start the next part of the worker's work (the Changes view's entries first, then
        the finding times, :data:`WORK_PART` changes of each at most), one run at a time."""
        if self._busy:
            return
        if self._worker_grow is not None and len(self._worker_timeline) < len(self._timeline):
            self._worker_grow()  # the recording grew: the worker's reader reads on too
        length = len(self._worker_timeline)
        log_stop = min(length, self._log.built + WORK_PART)
        history = self._history
        walk_stop = 0 if history is None else min(length, history.walked + WORK_PART)
        telling = log_stop > self._log.built
        walking = history is not None and walk_stop > history.walked
        if not (telling or walking):
            return
        self._busy = True

        def work() -> None:
            made = self._log.build(log_stop) if telling else []
            walked = history.walk(walk_stop) if walking and history is not None else None
            host.call_from_thread(self._landed, made, walked)

        host.run_worker(work, thread=True, group="recording", exit_on_error=False)

    def _landed(self, made: list[TimelineEntry], walked: Walked | None) -> None:
        """On the UI loop: keep what a run of the worker made."""
        self._busy = False
        self._log.add(made)
        if walked is not None and self._history is not None:
            self._history.merge(*walked)
