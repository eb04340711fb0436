"""What the screens may do with a recording's time cursor, and what they read of it.

``olmtui replay`` on a recording builds its Session over a :class:`TimeControl`
(``pipeline/time_cursor.py`` implements it over the recording's ``Timeline``): the screens
move the cursor (``[`` ``]`` ``{`` ``}``, ``:at``) and read where it is, the recording's
changes and when each finding appeared, through this protocol alone. The timeline itself is a
source (``sources/recording``), which the UI never loads (``tests/contract/test_layers.py``),
so every text the screens show of a moment is made here, in UTC as ``utc_text`` prints it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

from olmtui.frozen import frozen
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.pipeline.predicted import WorkerHost


@frozen
class CursorPlace:
    """Where the cursor is, for the header: the moment shown, change ``position`` of
    ``length``, the recording's span, and whether its file is still being written."""

    moment: str
    position: int
    length: int
    started: str
    ended: str
    growing: bool = False

    @property
    def at_end(self) -> bool:
        return self.position >= self.length


@frozen
class TimelineEntry:
    """One change of the recording as the Changes view lists it. ``position`` is where the
    cursor stands once this change is applied (Enter jumps there)."""

    position: int
    time: str
    what: str
    ref: ObjectRef
    message: str
    severity: str = "info"


@frozen
class FindingTimes:
    """When a finding shown at the cursor's moment first appeared (the start of its
    uninterrupted presence up to that moment) and when its text last changed (R-REC-4).
    ``from_start``: it was there when the recording began, so it may be older."""

    since: str
    last_changed: str
    from_start: bool = False
    #: Said instead when the times are not known (``since`` empty).
    note: str = ""

    @property
    def text(self) -> str:
        if not self.since:
            return self.note
        since = f"since {self.since}"
        if self.from_start:
            since += " (when the recording began; maybe earlier)"
        if self.last_changed != self.since:
            since += f", last changed {self.last_changed}"
        return since


class TimeControl(Protocol):
    """A replay's time cursor as the screens drive it. Each move changes the session's
    store (the model and the findings follow through its change feed) and its clock."""

    def place(self) -> CursorPlace:
        """Where the cursor is now."""
        ...

    def step(self, changes: int) -> None:
        """``]`` / ``[``: that many changes forward (negative: back), stopped at the ends."""
        ...

    def step_minutes(self, minutes: int) -> None:
        """``}`` / ``{``: to the state a minute later (earlier), stopped at the ends."""
        ...

    def go_to(self, text: str) -> str | None:
        """``:at TEXT``: to the moment ``text`` names (``end`` for the end); the one-line
        reason when it names none in the recording (the cursor stays put)."""
        ...

    def jump(self, position: int) -> None:
        """To the state after ``position`` changes (the Changes view's Enter)."""
        ...

    def entries(self) -> Sequence[TimelineEntry]:
        """Every change of the recording, oldest first, as the Changes view lists them."""
        ...

    def finding_times(self, finding: Finding) -> FindingTimes | None:
        """When ``finding`` (shown at the cursor's moment) appeared and last changed;
        ``None`` while that is still being worked out (R-REC-4)."""
        ...

    def stamp(self) -> Hashable:
        """Moves whenever the cursor moved or more finding times became known."""
        ...

    def follow(self, host: WorkerHost) -> None:
        """The app's ticker: work out the finding times off the UI thread (R-REC-5)."""
        ...
