"""The dashboard's mark-and-compare (``m``, then ``M``): a state marked, kept as
``olmtui diff`` reads a side (``model/diff``'s :class:`DiffSide`: the objects and the
report as they were then), and compared later with the state shown, whatever moved in
between: the replay's cursor, a live cluster, another context (R-REC-6..8).

The marked side is taken once and never changes: the cache goes on (a live cluster's
objects are replaced, never edited in place) while the mark keeps what it held. The
comparison is the one ``olmtui diff`` makes and its words the same text, so the screen and
the command line always agree.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from olmtui.model.diff.compare import DiffSide, compare
from olmtui.model.diff.records import StateDiff
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.compare import diff_side
from olmtui.pipeline.session import Session
from olmtui.report.diff_report import diff_lines, side_words


@dataclass(frozen=True)
class Mark:
    """A state marked: what it was (``label``, as the dashboard says it), the side the
    comparison reads and the words that name it there (``olmtui diff``'s)."""

    label: str
    side: DiffSide
    words: str


#: How a view marks a row whose object changed since the mark: new, or changed.
ADDED, CHANGED = "+", "~"


@dataclass(frozen=True)
class Comparison:
    """The marked state against the one shown: the diff and its lines of text."""

    diff: StateDiff
    lines: tuple[str, ...]

    def row_marks(self) -> dict[ObjectRef, str]:
        """What each list view marks on an object's row: :data:`ADDED` or :data:`CHANGED`
        (an object gone since the mark has no row: the Compare screen lists it)."""
        marks = dict.fromkeys(self.diff.added, ADDED)
        marks.update((change.ref, CHANGED) for change in self.diff.changed)
        return marks


def state_label(session: Session) -> str:
    """The state a session shows now, as a person names it: a recording's moment, a live
    cluster's time of day (UTC), else the input itself."""
    if session.time is not None:
        return f"{session.label} at {session.time.place().moment}"
    if session.kind == "live":
        now = dt.datetime.now(dt.UTC).strftime("%H:%M:%S")
        return f"{session.label} at {now} UTC"
    return session.label


def side_label(session: Session, side: DiffSide) -> str:
    """A side as ``olmtui diff`` names it: the input and its moment (a recording's says its
    moment itself; a live cluster's is the time of day it was taken)."""
    label = session.label if session.time is not None else state_label(session)
    return side_words(side.report["source"], label)


def mark(session: Session) -> Mark:
    """The state ``session`` shows now, kept."""
    side = diff_side(session)
    return Mark(state_label(session), side, side_label(session, side))


def compared(marked: Mark, session: Session) -> Comparison:
    """What changed from the marked state to the one ``session`` shows now."""
    now = diff_side(session)
    diff = compare(marked.side, now)
    return Comparison(diff, tuple(diff_lines(diff, marked.words, side_label(session, now))))
