"""Timeline (``t`` on a namespace row, or on an incident in Overview and Findings): what
happened to its objects, in the order it happened (R-EVD-11), oldest first, the cursor on
the newest. Times in UTC, the date on every row (dim where it is the previous row's: it
stands out where it changes; the first row on screen may not be the list's first), each
relative to the gather time of a snapshot or to now on a live cluster; above the table, what
the list leaves out (older entries past the cap, facts with no time).

It follows the cache as every view does (``OlmScreen.REFRESH_PARTS``, the app's coalesced
refresh): a new Event or condition change appears at the bottom. Enter opens the entry's
object. Every text comes from the cluster: cells are plain strings, the notes inert.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterable, Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult

from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.records.types import ObjectRef
from olmtui.model.viewmodels.timeline import (
    NAMESPACE_LIMIT,
    Timeline,
    TimelineEntry,
    left_out_words,
    reference_words,
    timeline_lines,
)
from olmtui.model.viewmodels.timeline_objects import (
    incident_refs,
    namespace_timeline,
    refs_timeline,
)
from olmtui.pipeline.session import Session
from olmtui.ui import palette
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.virtual_table import Column, Row


class TimelineScreen(TableScreen):
    """The timeline of one namespace (``namespace``) or of one incident's objects
    (``refs``, named ``title``)."""

    VIEW_TITLE = "Timeline"
    SCOPE = None  # one namespace or one incident already: ``:ns`` does not narrow it
    SORTABLE = False  # the order is the point: time
    COLUMNS = (
        Column("when", "WHEN (UTC)", cut="never"),
        # as wide as its widest name: a name is cut (in its middle) only when the row does not
        # fit the terminal, the messages of WHAT giving way first (the detail pane has them)
        Column("object", "OBJECT", min_width=18, cut="middle", max_width=None),
        Column("what", "WHAT"),
    )
    EMPTY_TEXT = "nothing in the input records a time for these objects"
    #: Live, "3m ago" grows old: the rows are made again this often with no change to show.
    AGE_STEP = dt.timedelta(seconds=5)
    REFRESH_PARTS: ClassVar[tuple[str, ...]] = (*TableScreen.REFRESH_PARTS, "#timeline-notes")

    def __init__(
        self,
        session: Session,
        commands: Sequence[str] = (),
        *,
        namespace: str | None = None,
        refs: Sequence[ObjectRef] = (),
        title: str = "",
    ) -> None:
        super().__init__(session, commands)
        self.namespace = namespace
        self.refs = tuple(refs)
        self.VIEW_TITLE = f"Timeline {title or f'of namespace {namespace}'}"
        self._entries: dict[int, TimelineEntry] = {}
        #: The timeline last built (tests read it), and the analysis stamp it was built at.
        self.timeline = Timeline(())
        self._timeline_stamp: object = None

    def compose_summary(self) -> ComposeResult:
        yield InertStatic(id="timeline-notes", classes="metrics")

    def on_mount(self) -> None:
        super().on_mount()
        self.table.action_jump(-1)  # the newest entry: what happened last

    def _build(self) -> Timeline:
        store = self.session.store
        if self.namespace is not None:
            return namespace_timeline(store, self.namespace, indexes=self.session.analysis.model)
        return refs_timeline(store, self.refs, NAMESPACE_LIMIT)

    def refresh_data(self) -> None:
        if not self.parts_present():
            return
        table = self.table
        following = table.row_count == 0 or table.cursor >= table.row_count - 1
        stamp = self.session.analysis.shown_stamp()
        if stamp != self._timeline_stamp:  # else only the relative times grew older
            self.timeline, self._timeline_stamp = self._build(), stamp
        super().refresh_data()
        if following:  # on the newest row: stay on the newest, as ``tail -f``
            table.action_jump(-1)
        self._show_notes()

    def _show_notes(self) -> None:
        clock = self.session.clock
        reference = clock() if clock is not None else None
        words = [reference_words(reference, live=self.session.kind != "snapshot")]
        words += left_out_words(self.timeline)
        notes = self.query_one("#timeline-notes", InertStatic)
        notes.update(Text(" · ".join(words), style=palette.MUTED))

    def build_rows(self) -> Iterable[Row]:
        clock = self.session.clock
        reference = clock() if clock is not None else None
        self._entries = {}
        live = self.session.kind != "snapshot"
        for index, line in enumerate(timeline_lines(self.timeline.entries, reference, live)):
            entry = line.entry
            self._entries[index] = entry
            # every row says its date (the first row on screen may not be the first), dim
            # where it is the previous row's: the date stands out where it changes
            when = Text(f"{entry.at:%Y-%m-%d}", style="" if line.date else palette.MUTED)
            when.append(f" {line.time}")
            if line.relative:
                when.append(f"  {line.relative}", style=palette.MUTED)
            what: str | Text = (
                Text(entry.what, style=palette.WARNING_STRONG) if entry.trouble else entry.what
            )
            yield Row(index, (when, str(entry.ref), what))

    def describe(self, key: Hashable) -> RenderableType:
        entry = self._entries.get(key) if isinstance(key, int) else None
        if entry is None:
            return Text("")
        return Text(f"{entry.at:%Y-%m-%d %H:%M:%S} UTC  {entry.ref}\n{entry.what}")

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        entry = self._entries.get(key) if isinstance(key, int) else None
        return None if entry is None else entry.ref


def open_namespace_timeline(screen: TableScreen, namespace: str | None) -> None:
    """``t`` on a namespace row: its timeline, or a note when no row is selected."""
    if not namespace:
        screen.notify("t: select a namespace to see its timeline", markup=False)
        return
    screen.app.push_screen(TimelineScreen(screen.session, screen.commands, namespace=namespace))


def open_incident_timeline(
    screen: TableScreen, diagnosis: Diagnosis | None, root: int | None
) -> None:
    """``t`` on an incident (a finding's row: its incident's): the timeline of the objects
    its findings are about and those it affects."""
    if diagnosis is None or root is None:
        screen.notify("t: select an incident (a finding) to see its timeline", markup=False)
        return
    findings = diagnosis.findings
    subjects = [
        (findings[i].kind, findings[i].namespace, findings[i].name)
        for i in (root, *diagnosis.consequences(root))
    ]
    refs = incident_refs(subjects, diagnosis.affected(root))
    title = f"of incident {diagnosis.incident_of(root)}"
    screen.app.push_screen(TimelineScreen(screen.session, screen.commands, refs=refs, title=title))
