"""When each finding of a recording first appeared and when it last changed (R-REC-4).

A finding is known by its code and the object it is about; its text (severity and message)
may change while it stays. The history is worked out by a session of its own, stepped
through the recording one second at a time (each second that has changes: its changes
folded into one move, ``pipeline/recording_state.py``) and asked for ``all_findings`` after
each step, so what it records is what the dashboard shows at the end of that second. This
runs in a worker thread, never on the UI loop (R-REC-5), a part of the recording at a time:
the worker owns that session; what it found is handed to the UI loop as a list of
transitions and merged there, so the screens read only what the UI thread wrote. Until the
worker has reached the cursor's moment, the times are unknown (the screens say "…").
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from olmtui.frozen import frozen
from olmtui.model.records.types import Finding
from olmtui.pipeline.recording_state import apply_net, folded
from olmtui.pipeline.session import Session
from olmtui.sources.recording.timeline import TimedChange, Timeline
from olmtui.store import Store

#: A finding's identity across moments: its code and its subject.
FindingKey = tuple[str, str, str, str]
#: What it said: the severity and message of each finding of that identity.
FindingPrint = tuple[tuple[str, str], ...]
#: One move of the history: at that second, that identity began to say this (``None``: went).
Transition = tuple[FindingKey, float, FindingPrint | None]
#: What one run of the worker found: how far it walked, and the transitions on the way.
Walked = tuple[int, list[Transition]]


def finding_key(finding: Finding) -> FindingKey:
    return (finding.code, finding.kind, finding.namespace, finding.name)


def finding_prints(findings: Iterable[Finding]) -> dict[FindingKey, FindingPrint]:
    """What every finding identity says, as one comparable value each."""
    said: dict[FindingKey, list[tuple[str, str]]] = {}
    for finding in findings:
        said.setdefault(finding_key(finding), []).append((finding.severity, finding.message))
    return {key: tuple(sorted(texts)) for key, texts in said.items()}


def by_second(changes: Iterable[TimedChange]) -> Iterator[tuple[float, list[TimedChange]]]:
    """Consecutive changes grouped by the whole second they were recorded in."""
    group: list[TimedChange] = []
    second = -math.inf
    for change in changes:
        whole = float(math.floor(change.time))
        if group and whole != second:
            yield second, group
            group = []
        second = whole
        group.append(change)
    if group:
        yield second, group


@frozen
class Presence:
    """A finding identity at one moment: since when it has been there without a break,
    when its text last changed, and whether it was there from the first second evaluated."""

    since: float
    last_changed: float
    from_start: bool


@dataclass(slots=True)
class _Walker:
    """The worker's own session and how far it has walked; touched by the worker only."""

    session: Session
    moment: float = 0.0
    done: int = 0
    current: dict[FindingKey, FindingPrint] = field(default_factory=dict)


class FindingHistory:
    """The transitions of every finding identity over one timeline, as far as worked out.
    ``make`` builds a session over an empty store the way the replay's own is built."""

    def __init__(self, timeline: Timeline, make: Callable[[Store], Session]) -> None:
        self._timeline = timeline
        self._make = make
        self._walker: _Walker | None = None
        self._times: dict[FindingKey, list[float]] = {}
        self._prints: dict[FindingKey, list[FindingPrint | None]] = {}
        self._first: float | None = None
        #: How many changes the merged transitions cover.
        self.done = 0
        #: Moves whenever more became known (the screens' stamp).
        self.generation = 0

    # -- the worker (``TimeCursor.follow`` runs it) ----------------------------------------
    @property
    def walked(self) -> int:
        """How many changes the worker has walked (read by the UI loop between runs only)."""
        return 0 if self._walker is None else self._walker.done

    def walk(self, stop: int) -> Walked:
        """In the worker: the findings after each second of changes up to ``stop``, and
        the transitions they make."""
        walker = self._walker
        if walker is None:
            walker = self._walker = _Walker(self._make(Store()))
            walker.session.clock = lambda: dt.datetime.fromtimestamp(walker.moment, dt.UTC)
        analysis = walker.session.analysis
        found: list[Transition] = []
        for second, group in by_second(self._timeline.changes(walker.done, stop)):
            walker.moment = group[-1].time
            apply_net(walker.session.store, folded(group))
            analysis.health_index().clock_moved()
            prints = finding_prints(analysis.all_findings())
            for key in prints.keys() | walker.current.keys():
                now = prints.get(key)
                if now != walker.current.get(key):
                    found.append((key, second, now))
            walker.current = prints
        walker.done = stop
        return stop, found

    def merge(self, done: int, found: Sequence[Transition]) -> None:
        """On the UI thread: keep what the worker found."""
        for key, second, said in found:
            if self._first is None:
                self._first = second
            self._times.setdefault(key, []).append(second)
            self._prints.setdefault(key, []).append(said)
        if self._first is None and done:
            self._first = math.floor(self._timeline.time_of(1))
        self.done = done
        self.generation += 1

    # -- reading ---------------------------------------------------------------------------
    def presence(self, finding: Finding, moment: float) -> Presence | None:
        """Since when ``finding`` had been there at ``moment``, if it was at the end of
        that moment's second (it may come and go within a second: then ``None``)."""
        key = finding_key(finding)
        times = self._times.get(key)
        if not times:
            return None
        prints = self._prints[key]
        last = bisect.bisect_right(times, moment) - 1
        if last < 0 or prints[last] is None:
            return None
        first = last
        while first > 0 and prints[first - 1] is not None:
            first -= 1
        return Presence(times[first], times[last], times[first] == self._first)
