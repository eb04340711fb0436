"""Changes, on a recording: the timeline of the whole recording, one row per change.

The row of the change the time cursor stands after is marked ``▶``; Enter on a row moves
the cursor there (every view then shows the cluster as of that change), as ``[`` ``]``
``{`` ``}`` and ``:at`` do from anywhere. A recording holds up to a million changes: the
entries are told in a worker, a part at a time (``TimeControl.entries`` grows, the header
counts them), their rows made once and kept; a move re-marks one.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.console import RenderableType
from rich.text import Text

from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.session import Session
from olmtui.pipeline.time_control import TimeControl, TimelineEntry
from olmtui.store import ACCESS
from olmtui.ui import palette
from olmtui.ui.formatting import SEVERITY_STYLE
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.changes import ChangesScreen
from olmtui.ui.widgets.virtual_table import Column, Row, RowSet

#: The mark of the change the cursor stands after.
MARK = "▶"
#: The table's empty text while the worker has told no change yet.
READING = "reading the recording's changes …"


def changes_screen(session: Session, commands: Sequence[str] = ()) -> TableScreen:
    """The Changes view of ``session``: a recording's timeline, else the live log."""
    if session.time is not None:
        return RecordingChangesScreen(session, session.time, commands)
    return ChangesScreen(session, commands)


def entry_row(entry: TimelineEntry, marked: bool = False) -> Row:
    """One change's row: its WHAT coloured by severity when it is a warning or an error
    (a plain string otherwise: a million rows are made, Text objects cost)."""
    severity = entry.severity
    what: str | Text = (
        entry.what
        if severity == "info"
        else Text(entry.what, style=SEVERITY_STYLE.get(severity, ""))
    )
    cells = (MARK if marked else "", entry.time, what, str(entry.ref), entry.message)
    return Row(entry.position, cells, style="bold" if marked else "")


class RecordingChangesScreen(TableScreen):
    VIEW_TITLE = "Changes"
    COLUMNS = (
        Column("at", "", 1, cut="never"),
        Column("time", "TIME", 9, cut="never"),
        Column("what", "WHAT", 18),
        Column("object", "OBJECT", cut="middle"),
        Column("message", "DETAIL"),
    )
    EMPTY_TEXT = "the recording holds no change"
    SORTABLE = False
    SCOPE = "ref"

    def __init__(self, session: Session, time: TimeControl, commands: Sequence[str] = ()) -> None:
        super().__init__(session, commands)
        self.time = time
        self._entries: Sequence[TimelineEntry] = ()
        #: The rows as made, none marked: kept, as a recording may hold a million changes.
        self._rows: list[Row] = []
        self._shown_position: int | None = None

    def title_note(self) -> str:
        told, length = len(self.time.entries()), self.time.place().length
        if told < length:
            return f" (the recording's timeline, {told} of {length} changes read)"
        return " (the recording's timeline)"

    def row_set(self) -> RowSet:
        self._entries = entries = self.time.entries()
        # made in a worker, a part at a time (R-REC-5): none yet is not none recorded
        reading = len(entries) < self.time.place().length
        self.EMPTY_TEXT = READING if reading else RecordingChangesScreen.EMPTY_TEXT
        rows = self._rows
        rows.extend(entry_row(entry) for entry in entries[len(rows) :])
        position = self.time.place().position
        shown = list(rows)
        if 0 < position <= len(entries):
            shown[position - 1] = entry_row(entries[position - 1], marked=True)
        return RowSet(shown)

    def refresh_data(self) -> None:
        super().refresh_data()
        if not self.parts_present():
            return
        position = self.time.place().position
        # the cursor moved (or its row was just read): the table follows it
        if position != self._shown_position and self.table.select_key(max(position, 1)):
            self._shown_position = position

    def _entry(self, key: Hashable) -> TimelineEntry | None:
        if not isinstance(key, int) or not 0 < key <= len(self._entries):
            return None
        return self._entries[key - 1]

    def describe(self, key: Hashable) -> RenderableType:
        entry = self._entry(key)
        if entry is None:
            return Text("")
        text = Text()
        text.append(f"change {entry.position} of {len(self._entries)}, at {entry.time}  ")
        text.append(f"{entry.what}: {entry.ref}\n", style="bold")
        if entry.message:
            text.append(f"{entry.message}\n")
        text.append("Enter: every view as of this change", style=palette.MUTED)
        return text

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        entry = self._entry(key)
        if entry is None or entry.ref.kind == ACCESS:
            return None
        return entry.ref

    def open(self, key: Hashable) -> None:
        """Enter: the time cursor to this change."""
        if isinstance(key, int):
            self.time.jump(key)
            self.app.moved_in_time()
