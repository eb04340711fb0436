"""What every view shares: the source header, the ``:``/``/`` prompt, the footer, and the
hooks the app calls (``refresh_data`` when the model changed, ``selected_ref`` for y/g/Enter)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from olmtui.gc_pause import cyclic_gc_paused
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.session import Session
from olmtui.ui import access, completion, palette
from olmtui.ui.screens.olm_screen import OlmScreen
from olmtui.ui.widgets.command_bar import CommandBar
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.keys_footer import KeysFooter
from olmtui.ui.widgets.source_header import SourceHeader
from olmtui.ui.widgets.virtual_table import Column, Row, RowSet, Scope, VirtualTable


class ViewScreen(OlmScreen):
    """A screen of the dashboard. Subclasses set ``VIEW_TITLE`` and compose ``compose_body``."""

    VIEW_TITLE = "olmtui"

    BINDINGS = [
        # priority: the app opens the prompt before it hands on the next key, so ``:csv``
        # arriving in one burst (a slow link batches keys) is typed into the prompt
        Binding(":", "prompt('command')", "Jump", key_display=":", priority=True),
        Binding("slash", "prompt('filter')", "Filter", key_display="/", priority=True),
        Binding("escape", "back", "Back"),
        Binding("y", "app.yaml", "YAML"),
        Binding("g", "app.graph", "Graph"),
        Binding("question_mark", "app.help", "Keys", key_display="?"),
    ]

    def __init__(self, session: Session, commands: Sequence[str] = ()) -> None:
        super().__init__()
        self._shown_theme: str | None = None
        self.session = session
        self._commands = tuple(commands)

    @property
    def commands(self) -> tuple[str, ...]:
        """The ``:`` prompt's words, for a view this one opens (a timeline)."""
        return self._commands

    def compose(self) -> ComposeResult:
        yield SourceHeader(self.session, self.VIEW_TITLE)
        yield from self.compose_body()
        yield CommandBar(self._commands, completer=self.complete_command, dismissed=self.focus_main)
        yield KeysFooter()

    def compose_body(self) -> ComposeResult:
        yield Static("")

    def on_mount(self) -> None:
        self._shown_theme = self.app.theme
        self.refresh_data()

    def on_screen_resume(self) -> None:
        # coming back from a detail: rebuild only if the model (or the theme) moved meanwhile
        if self._shown_theme is not None and self._shown_theme != self.app.theme:
            self.restyle()
        elif getattr(self, "_shown_version", None) != self.session.analysis.shown_stamp():
            self.refresh_data()
        elif getattr(self, "_shown_marks", 0) != getattr(self.app, "row_marks_generation", 0):
            self.refresh_data()  # ``M`` or ``:unmark`` while another view was up
        else:
            self.apply_scope()  # ``:ns`` may have changed while another view was up

    @property
    def namespace_scope(self) -> str | None:
        """The app's ``:ns`` scope (``None``: every namespace)."""
        return getattr(self.app, "namespace_scope", None)

    def apply_scope(self) -> None:
        """Show the app's ``:ns`` scope; a cheap filter over the rows already built."""

    def restyle(self) -> None:
        """Paint the view again in the app's current theme: its text was styled when built."""
        self._shown_theme = self.app.theme
        self.redraw_header(force=True)
        self.refresh_data()

    # -- hooks -----------------------------------------------------------------------------
    def refresh_data(self) -> None:
        """Re-read the model; called at most a few times a second, only when it changed."""

    def selected_ref(self) -> ObjectRef | None:
        """The object under the cursor (for y, g and Enter)."""
        return None

    def apply_filter(self, query: str) -> None:
        """Filter the view (``/``); a leading ``!`` inverts."""

    def filter_active(self) -> bool:
        """Whether a ``/`` filter hides rows now (Esc then clears it before leaving)."""
        return False

    def action_back(self) -> None:
        """Esc: clear an active filter first (less and k9s habit), then go back."""
        if self.filter_active():
            self.apply_filter("")
        else:
            self.app.go_back()

    def redraw_header(self, force: bool = False) -> None:
        for header in self.query(SourceHeader):
            header.redraw(force)

    # -- prompt ----------------------------------------------------------------------------
    def complete_command(self, line: str) -> list[str]:
        """Tab in the ``:`` prompt: views and commands, namespaces, kubeconfig contexts."""
        contexts = self.session.contexts() if self.session.contexts is not None else ()
        return completion.candidates(
            line, self._commands, self.session.model.namespaces(), contexts
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the prompt is open, ``:`` and ``/`` are text in it (``ns/name``)."""
        if action == "prompt":
            return not self.query_one(CommandBar).has_class("-shown")
        return True

    def action_prompt(self, mode: str) -> None:
        bar = self.query_one(CommandBar)
        bar.open("filter" if mode == "filter" else "command")

    @on(CommandBar.FilterChanged)
    def _filter_changed(self, event: CommandBar.FilterChanged) -> None:
        self.apply_filter(event.value)

    def focus_main(self) -> None:
        """Give the keys back to the view when the prompt closes: at once (``set_focus``),
        so keys typed right after Enter reach the view, not the hidden prompt."""

    @on(CommandBar.Entered)
    def _submitted(self, event: CommandBar.Entered) -> None:
        self.focus_main()
        if event.mode == "filter":
            self.apply_filter(event.value)
        elif event.value:
            self.app.run_command_line(event.value)


#: The detail pane while a ``/`` filter keeps no row.
NO_MATCH = "no row matches the filter (Backspace or Esc clears it)"


class TableScreen(ViewScreen):
    """A view that is a (virtual) table of rows plus a detail pane for the highlighted row.

    ``ACCESS_KIND`` is the kind the rows are objects of: while the source may not read it
    (``Store.unreadable``) the view says "no access" instead of its empty text, and marks
    rows read before access was lost as the last data seen.
    """

    COLUMNS: Sequence[Column] = ()
    REFRESH_PARTS: ClassVar[tuple[str, ...]] = ("#table", "#access-notice")
    EMPTY_TEXT = "nothing to show"
    #: What an empty table says while a snapshot still streams in, instead of "no ...".
    LOADING_EMPTY_TEXT = "loading: none read yet"
    ACCESS_KIND: str | None = None
    #: Whether ``s`` sorts the rows (a timeline keeps its own order: time).
    SORTABLE: ClassVar[bool] = True
    #: How ``:ns NAME`` narrows the rows: the key of the column holding the namespace (the
    #: fast path), ``"ref"`` for the namespace of each row's object (``ref_for``; rows of no
    #: object are hidden), or ``None`` where namespaces do not apply (upgrade graphs).
    SCOPE: str | None = "namespace"
    #: How old the rows' ages (``AGE 5m``) may grow on a session whose clock is now (live,
    #: the demo) before the view rebuilds with no change to show; ``None``: no ages shown.
    AGE_STEP: dt.timedelta | None = None
    _built_at: dt.datetime | None = None

    def ages_stale(self) -> bool:
        """Whether the ages shown have fallen ``AGE_STEP`` behind the session's clock."""
        if self.AGE_STEP is None or self.session.clock is None or self._built_at is None:
            return False
        return self.session.clock() - self._built_at >= self.AGE_STEP

    def compose_body(self) -> ComposeResult:
        with Vertical(classes="table-view"):
            yield from self.compose_summary()
            notice = InertStatic(id="access-notice")
            notice.display = False
            yield notice
            yield VirtualTable(
                self.COLUMNS, empty_text=self.EMPTY_TEXT, sortable=self.SORTABLE, id="table"
            )
            with VerticalScroll(classes="detail-pane", can_focus=False):
                yield InertStatic(id="detail")

    def compose_summary(self) -> ComposeResult:
        """Widgets above the table (a view's counts or legend); none by default."""
        yield from ()

    @property
    def table(self) -> VirtualTable:
        return self.query_one("#table", VirtualTable)

    def on_mount(self) -> None:
        super().on_mount()
        self.table.focus()

    def focus_main(self) -> None:
        self.set_focus(self.table)

    def refresh_data(self) -> None:
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        table = self.table
        self._shown_version = self.session.analysis.shown_stamp()
        self._built_at = self.session.clock() if self.session.clock is not None else None
        # A hundred thousand rows (copies shown) are kept until the next rebuild and hold no
        # cycles: moved out of the collector's view, so its full collections stop walking
        # them on later keys (they were the slowest ``:ns`` switches); ``gc_pause`` freezes
        # only a block that made enough objects to be worth it.
        with cyclic_gc_paused(keep=True):
            rows = self._marked(self.row_set())
            self._show_access(bool(rows.rows))
            self._set_scope(apply=False)
            table.set_rows(rows)
        self._describe(table.selected_key)
        self._count_rows()

    def _marked(self, rows: RowSet) -> RowSet:
        """The rows, those of objects new or changed since the mark (``m``, then ``M``)
        led by ``+`` or ``~`` in their first cell; the rows as built when nothing is marked."""
        self._shown_marks = getattr(self.app, "row_marks_generation", 0)
        marks: dict[ObjectRef, str] = getattr(self.app, "row_marks", {})
        if not marks:
            return rows
        marked = []
        for row in rows.rows:
            ref = self.ref_for(row.key)
            sign = None if ref is None else marks.get(ref)
            if sign is None or not row.cells:
                marked.append(row)
                continue
            cell = row.cells[0]
            first = Text(f"{sign} ", style=palette.WARNING_STRONG)
            first.append_text(cell if isinstance(cell, Text) else Text(cell))
            marked.append(row._replace(cells=(first, *row.cells[1:])))
        return RowSet(marked)

    def _show_access(self, has_rows: bool) -> None:
        unreadable = self.session.store.unreadable.get(self.ACCESS_KIND or "")
        if self.session.loading_now:  # a partial snapshot proves nothing absent
            self.table.empty_text = self.LOADING_EMPTY_TEXT
        elif unreadable is None:
            self.table.empty_text = self.EMPTY_TEXT
        else:
            self.table.empty_text = access.empty_text(unreadable)
        notice = self.query_one("#access-notice", Static)
        notice.display = unreadable is not None and has_rows
        if unreadable is not None and has_rows:
            notice.update(Text(access.stale_text(unreadable), style=palette.UNKNOWN_STRONG))

    def apply_filter(self, query: str) -> None:
        self.table.set_filter(query)
        # now, not on the table's "row highlighted" message: the pane's new text is then laid
        # out in the same pass as the table's scrollbar (one layout of the screen, not two)
        self._describe(self.table.selected_key)
        self._count_rows()

    def filter_active(self) -> bool:
        return bool(self.table.filter_text.strip())

    def apply_scope(self) -> None:
        if not self.parts_present():
            return
        if self._set_scope(apply=True):
            self._describe(self.table.selected_key)
        self._count_rows()  # the header names the scope, applied here or not

    def _set_scope(self, apply: bool) -> bool:
        """Hand the scope to the table; whether it changed. With ``apply=False`` the table
        only records it (``set_rows`` follows and applies it)."""
        scope = self.namespace_scope if self.SCOPE is not None else None
        if scope == getattr(self, "_shown_scope", None):
            return False
        self._shown_scope = scope
        keys = [c.key for c in self.COLUMNS]
        if scope is None:
            self.table.set_scope(None, apply=apply)
        elif self.SCOPE in keys:
            self.table.set_scope(Scope(scope, column=keys.index(self.SCOPE)), apply=apply)
        else:
            self.table.set_scope(Scope(scope, test=self._ref_in(scope)), apply=apply)
        return True

    def _ref_in(self, namespace: str) -> Callable[[Row], bool]:
        def test(row: Row) -> bool:
            ref = self.ref_for(row.key)
            return ref is not None and ref.namespace == namespace

        return test

    def title_note(self) -> str:
        """What the header adds to the view's title about how the rows are chosen (the CSVs
        view: that the copies are shown)."""
        return ""

    def _scope_title(self) -> str:
        """The header's word for the scope: ``ns:NAME``, or that this view ignores it."""
        scope = self.namespace_scope
        if scope is None:
            return ""
        return f" ns:{scope}" if self.SCOPE is not None else f" (ns:{scope} not applied here)"

    def _count_rows(self) -> None:
        """k9s-style count in the header: ``[rows]``, or ``[shown/all]`` under a filter."""
        table = self.table
        count = (
            f"[{table.row_count}]"
            if not table.filter_text.strip()
            else f"[{table.row_count}/{table.total_count} /{table.filter_text}]"
        )
        if getattr(self.app, "row_marks", None):
            count += " +new ~changed since mark"
        for header in self.query(SourceHeader):
            header.view_title = f"{self.VIEW_TITLE}{self.title_note()}{self._scope_title()} {count}"
            header.redraw()

    def row_set(self) -> RowSet:
        """The rows to show now; a view that flips between sets of rows keeps them here."""
        return RowSet(self.build_rows())

    def build_rows(self) -> Iterable[Row]:
        return ()

    def describe(self, key: Hashable) -> RenderableType:
        """The detail pane for one row (Rich renderables; never markup from the cluster)."""
        return Text("")

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return key if isinstance(key, ObjectRef) else None

    def selected_ref(self) -> ObjectRef | None:
        key = self.table.selected_key
        return None if key is None else self.ref_for(key)

    def open(self, key: Hashable) -> None:
        """Enter: drill down. Default: the object detail of the row's object."""
        ref = self.ref_for(key)
        if ref is not None:
            self.app.open_object(ref)

    #: What the detail pane shows: the row's key and ``describe_stamp()`` when it was made.
    _described: tuple[Hashable | None, object] | None = None

    def describe_stamp(self) -> object:
        """What ``describe`` reads besides the row (the model's version, the theme), for a
        view that can say: the pane is then made again for the same row only when it moved
        (a new pane lays the whole screen out again). By default a new object: always."""
        return object()

    def _describe(self, key: Hashable | None) -> None:
        shown = (key, self.describe_stamp())
        if shown == self._described:
            return
        for detail in self.query("#detail").results(Static):  # absent while composing
            if key is not None:
                detail.styles.min_height = None
                detail.update(self.describe(key))
            elif self.filter_active():
                # the pane keeps its height: clearing the filter then brings the row's text
                # back at the same size, and Textual lays the screen out once, not three times
                detail.styles.min_height = detail.size.height
                detail.update(Text(NO_MATCH, style=palette.MUTED))
            else:
                detail.update(Text(""))
            self._described = shown

    @on(VirtualTable.RowHighlighted)
    def _highlighted(self, event: VirtualTable.RowHighlighted) -> None:
        # the table says so after every change of its rows (a filter cleared, a sort): the
        # row under the cursor, described since, needs no new pane
        if self._described is not None and event.key == self._described[0]:
            return
        self._describe(event.key)

    @on(VirtualTable.RowSelected)
    def _selected(self, event: VirtualTable.RowSelected) -> None:
        self.open(event.key)
