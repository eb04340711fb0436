"""A table that renders only the lines on screen, for lists of a hundred thousand CSVs.

Textual's DataTable measures every cell of every row and rebuilds O(n) caches on each update
(measured when this widget replaced it), so past a few thousand rows it stalls. This widget keeps
rows as a Python list, filters and sorts them there, and paints only ``render_line(y)`` for visible
lines (the Line API). Selection is tracked by row key, so live updates never move the cursor.

Sorting (``s`` picks the next column, ``S`` reverses; the header marks it ``NAME▲``) and the
namespace scope (``set_scope``) reorder or narrow the rows already built: no view rebuilds
its rows for them. Columns that must stay whole (``cut="never"``: versions, finding codes)
keep their full width; the others shrink, names losing their middle (``cut="middle"``) so
that ``openshift-operators`` and ``openshift-operator-lifecycle-manager`` stay distinct. A
name column never gets so narrow that two of its names read the same, and its cut keeps the
ends that tell them apart (:func:`distinct_cut`): past the screen's width the row scrolls
rather than lose what identifies it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import field
from operator import attrgetter, itemgetter
from typing import Literal, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from olmtui.frozen import frozen
from olmtui.safe_text import visible
from olmtui.ui.inert import inert_text
from olmtui.ui.sort_keys import SortKey, SortOrder, column_keys
from olmtui.ui.widgets.row_filter import RowFilter, parse_query

Cell = str | Text

_WIDTH_SAMPLE = 500
_MAX_AUTO_WIDTH = 60
#: Painted lines kept, a few screens' worth: the repaints that do not scroll (the cursor
#: moving, the detail pane below changing size) and a filter cleared back to the rows shown
#: before it reuse them instead of formatting rows again.
_LINES_KEPT = 400
#: The header's marks of the sort column: ascending (severity: worst first), descending.
SORT_MARKS = {False: "▲", True: "▼"}

Cut = Literal["end", "middle", "never"]
#: Where the first rounds of fitting stop shrinking a column: what reads as a word or a name.
_COMFORT = 16
#: The narrowest a name cut in its middle gets unless its column says otherwise: its first
#: and last five or six characters (``openshift-operators`` -> ``opensh…ators``).
_NAME_FLOOR = 12


@frozen
class Column:
    key: str
    label: str
    width: int | None = None  # None: sized from the header and a sample of the rows
    #: When the row does not fit, a sized-from-content column shrinks down to this.
    min_width: int | None = None
    #: How ``s`` orders the column's cells (``olmtui.ui.sort_keys``).
    sort: SortOrder = "text"
    #: How a cell too wide is shortened: its end, its middle (names), or never (versions,
    #: finding codes: the column gets its full width before any other shrinks).
    cut: Cut = "end"
    #: The widest a sized-from-content column grows; ``None``: its widest cell, so that a
    #: name is cut only when the row does not fit the screen (the Timeline's OBJECT).
    max_width: int | None = _MAX_AUTO_WIDTH


@frozen
class Scope:
    """Which rows a scope (``:ns``) keeps: those whose cell in ``column`` reads ``value``
    (the fast path: rows are grouped by that cell once), else those ``test`` accepts.
    ``value`` names the scope: two scopes with the same value and column are the same."""

    value: str
    column: int | None = None
    test: Callable[[Row], bool] | None = field(default=None, compare=False)


class Row(NamedTuple):
    """One row: a tuple, as a hundred thousand of them are built when copies are shown."""

    key: Hashable
    cells: tuple[Cell, ...]
    #: The row's own style: a style name of the app's theme (``ui/palette``) or Rich's grammar.
    style: str = ""
    search: str = ""

    def haystack(self) -> str:
        """What `/` filters match against (lower case): the cells unless ``search`` is given."""
        if self.search:
            return self.search
        return " ".join(c.plain if isinstance(c, Text) else c for c in self.cells).lower()


class RowSet:
    """One set of rows and what the table derives from it (the filter's haystacks, the sort
    keys and orders, the scope's groups, each row's place, the cells' widths), built when
    first needed. A view that switches between two sets (the CSVs with and without their
    hundred thousand copies) hands the same ``RowSet`` back, and finds all of it still made."""

    __slots__ = (
        "cell_widths",
        "cuts",
        "filter",
        "groups",
        "order",
        "positions",
        "rows",
        "sort_keys",
    )

    def __init__(self, rows: Iterable[Row]) -> None:
        self.rows: list[Row] = list(rows)
        self.filter: RowFilter | None = None
        #: ``(column index, keys)``: the sort keys of one column for every row.
        self.sort_keys: tuple[int, list[SortKey]] | None = None
        #: ``((column index, descending), rows)``: every row in that sort's order (shared
        #: with the table's shown rows, never changed in place).
        self.order: tuple[tuple[int, bool], list[Row]] | None = None
        #: Row indices by the plain text of a column (the scope's), built on the first scoped
        #: selection: a scope switch then reads one list.
        self.groups: tuple[int, dict[str, list[int]]] | None = None
        #: Each row's place by key: the cursor finds its row at once when every row is
        #: shown again (``:ns`` cleared).
        self.positions: dict[Hashable, int] | None = None
        #: The widest cell of each column, in a sample (or every row for ``cut="never"``).
        self.cell_widths: list[int] | None = None
        #: Per name column (``cut="middle"``), floor and natural width: the narrowest width
        #: that keeps its names apart, and where the cut goes at that width.
        self.cuts: dict[tuple[int, int, int], tuple[int, int]] = {}

    def cut(self, index: int, floor: int, natural: int) -> tuple[int, int]:
        """``(width, head)`` of column ``index``'s names (a sample): see :func:`distinct_cut`."""
        key = (index, floor, natural)
        found = self.cuts.get(key)
        if found is None:
            names = {_plain(row.cells[index]) for row in self.rows[:_WIDTH_SAMPLE]}
            found = self.cuts[key] = distinct_cut(names, floor, natural)
        return found

    def widths(self, columns: Sequence[Column]) -> list[int]:
        """The widest cell of each sized-from-content column of ``columns`` (the table's),
        once per set of rows: of every row where the column is never cut (a version past
        the sample is not cut), else of a sample. A view may ask ahead, while idle."""
        if self.cell_widths is None:
            cells = list(map(attrgetter("cells"), self.rows))
            widths = []
            for index, column in enumerate(columns):
                if column.width is not None:
                    widths.append(0)
                    continue
                measured = cells if column.cut == "never" else cells[:_WIDTH_SAMPLE]
                of_column = list(map(itemgetter(index), measured))
                # rows share cells (a copy's version is its parent's): each measured once
                distinct = dict(zip(map(id, of_column), of_column, strict=True)).values()
                widths.append(max(map(_cell_len, distinct), default=0))
            self.cell_widths = widths
        return self.cell_widths


class VirtualTable(ScrollView, can_focus=True):
    """A scrolling, filterable table over a plain list of :class:`Row`."""

    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
        Binding("s", "sort_next", "Sort"),
        Binding("S", "sort_reverse", "Reverse sort", show=False),
    ]

    COMPONENT_CLASSES = {
        "virtual-table--header",
        "virtual-table--cursor",
        "virtual-table--empty",
    }

    DEFAULT_CSS = """
    VirtualTable {
        height: 1fr;
        background: $surface;
    }
    VirtualTable > .virtual-table--header {
        text-style: bold;
        background: $panel;
        color: $text;
    }
    VirtualTable > .virtual-table--cursor {
        background: $accent 40%;
    }
    VirtualTable:focus > .virtual-table--cursor {
        background: $accent;
        color: $text;
    }
    VirtualTable > .virtual-table--empty {
        color: $text-muted;
        text-style: italic;
    }
    """

    cursor = reactive(0, repaint=True)

    class _RowMessage(Message):
        def __init__(self, table: VirtualTable, key: Hashable | None) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> VirtualTable:
            return self.table

    class RowHighlighted(_RowMessage):
        """The cursor moved to the row with ``key`` (``None``: no rows)."""

    class RowSelected(_RowMessage):
        """Enter (or a double click) on the row with ``key``."""

    def __init__(
        self,
        columns: Sequence[Column],
        *,
        empty_text: str = "nothing to show",
        sortable: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns: tuple[Column, ...] = tuple(columns)
        self.empty_text = empty_text
        #: ``s``/``S`` sort only the views' tables: elsewhere (a detail's related objects)
        #: the keys stay the screen's.
        self.sortable = sortable
        self._set = RowSet(())
        self._shown: list[Row] = []
        self._query = ""
        self._natural: list[int] = [len(c.label) for c in self.columns]
        self._widths: list[int] = list(self._natural)
        self._fitted_to = -1
        #: Per column cut in its middle: how many characters of a name's start it keeps.
        self._heads: list[int | None] = [None] * len(self.columns)
        self._lines: LRUCache[tuple[Hashable, ...], Strip] = LRUCache(_LINES_KEPT)
        #: ``(column index, descending)`` or ``None`` (the order the view built).
        self._sort: tuple[int, bool] | None = None
        self._scope: Scope | None = None
        #: The rows a ``test`` scope keeps, found once per set of rows and scope: a filter
        #: typed under ``:ns`` then does not call the test on every row per key.
        self._tested: tuple[Scope, list[int]] | None = None
        #: How many rows the table's height was last laid out for (see get_content_height).
        self._laid_out = 0
        #: Rows the height counts beyond those the table holds: a view that shows more rows
        #: on a key (the CSVs view's copies) keeps the height of all of them.
        self.rows_for_height = 0
        #: Where the shown rows sit among all rows, when they are a subset in that order
        #: (a scope or a filter, no sort): clearing it finds the cursor's row without a
        #: pass over 100,000 rows.
        self._shown_indices: list[int] | None = None

    # -- data ----------------------------------------------------------------------------
    @property
    def _all(self) -> list[Row]:
        """Every row of the set shown, before any scope, filter or sort."""
        return self._set.rows

    @property
    def _positions(self) -> dict[Hashable, int] | None:
        return self._set.positions

    @property
    def row_count(self) -> int:
        return len(self._shown)

    @property
    def total_count(self) -> int:
        return len(self._all)

    @property
    def filter_text(self) -> str:
        """The ``/`` filter in force (``query`` is Textual's DOM query: never shadow it)."""
        return self._query

    @property
    def selected_key(self) -> Hashable | None:
        if 0 <= self.cursor < len(self._shown):
            return self._shown[self.cursor].key
        return None

    @property
    def shown_rows(self) -> list[Row]:
        return self._shown

    def set_rows(self, rows: Sequence[Row] | RowSet) -> None:
        """Replace the rows, keeping the cursor on the same key (live updates). A
        :class:`RowSet` shown before comes back with what was derived from it."""
        self._set = rows if isinstance(rows, RowSet) else RowSet(rows)
        self._tested = None
        self._size_columns()
        self._apply(keep=self.selected_key)

    def set_filter(self, query: str) -> None:
        self._query = query
        self._apply(keep=self.selected_key)

    @property
    def sort_state(self) -> tuple[str, bool] | None:
        """``(column key, descending)`` of the sort in force, ``None`` for the view's order."""
        if self._sort is None:
            return None
        return self.columns[self._sort[0]].key, self._sort[1]

    def set_sort(self, column: str | None, descending: bool = False) -> None:
        """Sort by the column with key ``column`` (``None``: the view's own order)."""
        index = None if column is None else [c.key for c in self.columns].index(column)
        self._sort = None if index is None else (index, descending)
        self._size_columns()  # the header's mark may widen the column
        self._apply(keep=self.selected_key)

    def set_scope(self, scope: Scope | None, apply: bool = True) -> None:
        """Show only the rows in ``scope`` (``None``: every row); setting the same scope
        again costs nothing. ``apply=False`` only records it for the next ``set_rows``."""
        if scope != self._scope:
            self._scope = scope
            if apply:
                self._apply(keep=self.selected_key)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("sort_next", "sort_reverse"):
            return self.sortable
        return True

    def action_sort_next(self) -> None:
        """``s``: the next column (after the last one, the view's own order again)."""
        current = -1 if self._sort is None else self._sort[0]
        following = current + 1
        self.set_sort(self.columns[following].key if following < len(self.columns) else None)

    def action_sort_reverse(self) -> None:
        """``S``: the other direction (on the view's order: the first column, descending)."""
        index, descending = self._sort or (0, False)
        self.set_sort(self.columns[index].key, not descending)

    def select_key(self, key: Hashable) -> bool:
        for index, row in enumerate(self._shown):
            if row.key == key:
                self.cursor = index
                self._scroll_to_cursor()
                return True
        return False

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The header and every row, shown or not: a scope or a filter never changes the
        table's height, so nothing around it is laid out again (a ``:ns`` switch at 100,000
        rows) and the detail pane below does not jump."""
        return max(len(self._all), self.rows_for_height) + 1

    def _apply(self, keep: Hashable | None) -> None:
        rows = max(len(self._all), self.rows_for_height)
        relayout = rows != self._laid_out
        self._laid_out = rows
        was = (self._shown_indices, self.cursor)
        self._shown_indices = None
        self._shown = self._select()
        index = self._index_of(keep, was)
        self.set_reactive(VirtualTable.cursor, index)
        if not relayout and self.size:
            self._show_vertical_scrollbar(len(self._shown) + 1 > self.container_size.height)
        self._fit(self.scrollable_content_region.width)
        width = self._row_width()
        self._set_virtual_size(Size(width, len(self._shown) + 1), relayout)
        self._scroll_to_cursor()
        self.refresh(layout=relayout)
        self.post_message(self.RowHighlighted(self, self.selected_key))

    def _set_virtual_size(self, size: Size, relayout: bool) -> None:
        """The scrollable size of the rows shown. Textual lays the whole screen out again on
        every change of it, yet a scope or a filter leaves the table's own height as it was
        (``get_content_height``): then only the scrollbars are updated, and they still ask
        for a layout themselves when one appears or goes (a filter that keeps no row)."""
        if relayout or not self.size or size == self.virtual_size:
            self.virtual_size = size
            return
        self.set_reactive(VirtualTable.virtual_size, size)
        self._scroll_update(size)

    def _show_vertical_scrollbar(self, shown: bool) -> None:
        """The vertical scrollbar as the new rows want it at the table's height (which they
        leave as it is), set before they are fitted to the width it leaves: when the layout
        finds it instead, the rows fitted to the old width show a horizontal scrollbar and
        are fitted again after one more layout (the copies shown: 20 rows to 100,000)."""
        if self.styles.overflow_y != "auto" or self.show_vertical_scrollbar == shown:
            return
        self.show_vertical_scrollbar = shown
        if self._vertical_scrollbar is not None or shown:
            self.vertical_scrollbar.display = shown

    def _select(self) -> list[Row]:
        """The rows to show: in scope, matching the filter, in the sort's order."""
        everything = self._all
        matches: list[int] | None = None
        if parse_query(self._query) is not None:
            row_set = self._set
            if row_set.filter is None:  # haystacks once per set of rows, not per key typed
                row_set.filter = RowFilter([r.haystack() for r in everything])
            matches = row_set.filter.matches(self._query)
        if self._scope is not None:
            scoped = self._in_scope(self._scope)
            if matches is None:
                matches = scoped
            else:
                wanted = set(scoped)
                matches = [i for i in matches if i in wanted]
        if self._sort is not None:
            keys = self._keys_of(self._sort[0])
            if matches is None:
                row_set = self._set
                if row_set.order is None or row_set.order[0] != self._sort:
                    order = sorted(
                        range(len(everything)), key=keys.__getitem__, reverse=self._sort[1]
                    )
                    row_set.order = (self._sort, [everything[i] for i in order])
                return row_set.order[1]
            else:
                matches = sorted(matches, key=keys.__getitem__, reverse=self._sort[1])
        if matches is None:
            return list(everything)
        self._shown_indices = matches
        return [everything[i] for i in matches]

    def _keys_of(self, column: int) -> list[SortKey]:
        """The sort keys of ``column`` for every row, built once per set of rows and column
        (they serve both directions)."""
        row_set = self._set
        if row_set.sort_keys is None or row_set.sort_keys[0] != column:
            cells = [r.cells[column] for r in row_set.rows]
            row_set.sort_keys = (column, column_keys(cells, self.columns[column].sort))
        return row_set.sort_keys[1]

    def _in_scope(self, scope: Scope) -> list[int]:
        """Indices of the rows in ``scope``, ascending."""
        if scope.column is None:
            if self._tested is None or self._tested[0] != scope:
                test = scope.test
                kept = [i for i, row in enumerate(self._all) if test is None or test(row)]
                self._tested = (scope, kept)
            return self._tested[1]
        row_set = self._set
        if row_set.groups is None or row_set.groups[0] != scope.column:
            groups: dict[str, list[int]] = {}
            column = scope.column
            for i, row in enumerate(row_set.rows):
                cell = row.cells[column]
                groups.setdefault(cell.plain if isinstance(cell, Text) else cell, []).append(i)
            row_set.groups = (column, groups)
        return row_set.groups[1].get(scope.value, [])

    def _index_of(self, key: Hashable | None, was: tuple[list[int] | None, int] = (None, 0)) -> int:
        """Where the cursor goes for ``key``: its row, else the same place (clamped).
        A live update rarely moves the selected row, so its old place is looked at first;
        ``was`` is where the rows shown before sat among all rows, and the old cursor."""
        if key is None:
            return 0
        shown = self._shown
        clamped = min(self.cursor, max(len(shown) - 1, 0))
        if shown and shown[clamped].key == key:
            return clamped
        # every row shown, in the given order: the row's place among all rows is its place
        if self._scope is None and self._sort is None and parse_query(self._query) is None:
            indices, cursor = was
            if (
                indices is not None
                and 0 <= cursor < len(indices)
                and self._all[indices[cursor]].key == key
            ):
                return indices[cursor]
            row_set = self._set
            if row_set.positions is None:
                row_set.positions = {r.key: i for i, r in enumerate(row_set.rows)}
            return row_set.positions.get(key, clamped)
        return next((i for i, r in enumerate(shown) if r.key == key), clamped)

    def _size_columns(self) -> None:
        self._lines.clear()  # new rows, or the sort mark's column: every line paints anew
        cells = self._set.widths(self.columns)
        widths = []
        for index, column in enumerate(self.columns):
            label = len(self._label(index))
            if column.width is not None:
                widths.append(max(column.width, label))
            elif column.cut == "never":
                widths.append(max(label, cells[index]))
            else:
                widest = max(label, cells[index])
                widths.append(widest if column.max_width is None else min(widest, column.max_width))
        self._natural = widths
        self._fitted_to = -1

    def _row_width(self) -> int:
        return sum(self._widths) + 2 * (len(self._widths) - 1)

    def _fit(self, available: int) -> None:
        """Shrink the widest sized-from-content columns until the row fits ``available``
        (water filling: one cap for a set of columns), so that narrow terminals still show
        every column; the last column takes what is left. Text cut at its end (reasons,
        messages) gives way first down to ``_COMFORT`` cells, names (cut in the middle)
        next, then all of them down to their floor together (a name's is ``_NAME_FLOOR``);
        versions and codes never shrink."""
        if available == self._fitted_to:
            return
        self._fitted_to = available
        natural = self._natural
        room = available - 2 * (len(natural) - 1)
        widths = list(natural)
        floor = [
            min(w, c.min_width or max(6, min(len(c.label), 10)))
            for w, c in zip(natural, self.columns, strict=True)
        ]
        # a name cut in its middle stays long enough to tell two apart by both ends, and
        # never so short that two names of the column read the same
        cuts: dict[int, tuple[int, int]] = {}
        for i, (w, c) in enumerate(zip(natural, self.columns, strict=True)):
            if c.cut == "middle" and c.width is None:
                cuts[i] = self._set.cut(i, max(floor[i], min(w, _NAME_FLOOR)), w)
                floor[i] = max(floor[i], cuts[i][0])
        comfort = [max(f, min(w, _COMFORT)) for w, f in zip(natural, floor, strict=True)]
        flexible = [i for i, c in enumerate(self.columns) if c.width is None and c.cut != "never"]
        for group, lowest in (
            ([i for i in flexible if self.columns[i].cut == "end"], comfort),
            ([i for i in flexible if self.columns[i].cut == "middle"], comfort),
            (flexible, floor),
        ):
            if available <= 0 or sum(widths) <= room:
                break
            widths = _water_fill(widths if lowest is comfort else natural, lowest, group, room)
        self._widths = widths
        # where each name column's cut goes at its width: past its narrowest, the extra
        # characters split between both ends (more of each end never joins two names)
        self._heads = [
            cuts[i][1] + (widths[i] - cuts[i][0]) // 2 if i in cuts else None
            for i in range(len(widths))
        ]

    def on_resize(self) -> None:
        self._fit(self.scrollable_content_region.width)
        width = self._row_width()
        self.virtual_size = Size(width, len(self._shown) + 1)
        self.call_after_refresh(self._scroll_to_cursor)
        self.refresh()

    # -- cursor --------------------------------------------------------------------------
    def watch_cursor(self, old: int, new: int) -> None:
        if old != new:
            self.post_message(self.RowHighlighted(self, self.selected_key))

    def _page_height(self) -> int:
        return max(self.scrollable_content_region.height - 1, 1)

    def _move_to(self, index: int) -> None:
        if not self._shown:
            return
        self.cursor = max(0, min(index, len(self._shown) - 1))
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        top = round(self.scroll_y)
        height = self._page_height()
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def action_cursor(self, delta: int) -> None:
        self._move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self._move_to(self.cursor + direction * self._page_height())

    def action_jump(self, where: int) -> None:
        self._move_to(len(self._shown) - 1 if where < 0 else where)

    def action_select(self) -> None:
        key = self.selected_key
        if key is not None:
            self.post_message(self.RowSelected(self, key))

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return
        index = round(self.scroll_y) + event.y - 1
        if 0 <= index < len(self._shown):
            self.cursor = index
            if event.chain >= 2:
                self.action_select()

    # -- painting ------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()  # a theme or CSS change repaints every line

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        self._fit(width)
        scroll_x = round(self.scroll_x)
        index = round(self.scroll_y) + y - 1 if y else -1  # -1: the header
        key = (self._line_id(index), index == self.cursor, self.has_focus, width, scroll_x)
        line = self._lines.get(key)
        if line is None:
            line = self._lines[key] = self._paint(index, width, scroll_x)
        return line

    def _line_id(self, index: int) -> Hashable:
        """What line ``index`` shows, for the painted lines kept: the row itself (by identity:
        the rows live until ``set_rows``, which forgets the lines), so a filter, a scope or a
        cleared filter finds the lines of the rows it shows again already painted."""
        if 0 <= index < len(self._shown):
            return id(self._shown[index])
        if index < 0:
            return "header"
        return ("empty", self.empty_text) if index == 0 else "blank"

    def _paint(self, index: int, width: int, scroll_x: int) -> Strip:
        """Line ``index`` of the shown rows (-1: the header), cut to the view."""
        if index < 0:
            labels = tuple(Text(self._label(i)) for i in range(len(self.columns)))
            style = self.get_component_rich_style("virtual-table--header")
            return self._strip(labels, style, scroll_x, width)
        if index >= len(self._shown):
            if index == 0:
                style = self.get_component_rich_style("virtual-table--empty")
                empty = visible(self.empty_text)  # may quote the API server's refusal
                return Strip([Segment(empty.ljust(width)[:width], style)])
            return Strip.blank(width, self.rich_style)
        row = self._shown[index]
        if index == self.cursor:
            style = self.rich_style + self.get_component_rich_style("virtual-table--cursor")
            return self._strip(row.cells, style, scroll_x, width, cursor=True)
        return self._strip(row.cells, self.rich_style + self._row_style(row), scroll_x, width)

    def _row_style(self, row: Row) -> Style:
        """A row's own style: a name of the app's theme (``olm.muted``, ``ui/palette``) is
        looked up on the console as Rich does for a Text's spans, never parsed as a colour;
        a name the theme lacks paints plain rather than failing."""
        if not row.style:
            return Style()
        return self.app.console.get_style(row.style, default=Style.null())

    def _label(self, index: int) -> str:
        """A column's header, with the sort mark on the sort column."""
        label = self.columns[index].label
        if self._sort is not None and self._sort[0] == index:
            return label + SORT_MARKS[self._sort[1]]
        return label

    def _strip(
        self, cells: Sequence[Cell], style: Style, scroll_x: int, width: int, cursor: bool = False
    ) -> Strip:
        """One painted line. On the cursor row the cursor colours win over the cells' own
        (a yellow cell on an accent bar would vanish); the last column is cut with an
        ellipsis when the row was fitted to the view."""
        last = len(self._widths) - 1
        room = width - (sum(self._widths[:last]) + 2 * last)
        fitted = self._row_width() <= width and room > 0
        console = self.app.console
        segments: list[Segment] = []
        for index, cell in enumerate(cells):
            size = self._widths[index] if index < last else (room if fitted else None)
            middle = self.columns[index].cut == "middle"
            head = self._heads[index] if index < len(self._heads) else None
            if isinstance(cell, Text):
                text = inert_text(cell).copy()
                text.no_wrap = True
                if text.style:  # Text.render paints spans only: make the base style one
                    text.stylize_before(text.style)
                    text.style = ""
                if size is not None:
                    if middle:
                        text = _middle_text(text, size, head)
                    text.truncate(size, overflow="ellipsis", pad=index < last)
                segments.extend(text.render(console, end=""))
            else:
                segments.append(
                    Segment(
                        _fit_text(visible(cell), size, pad=index < last, middle=middle, head=head)
                    )
                )
            if index < last:
                segments.append(Segment("  "))
        if cursor:
            strip = Strip([Segment(t, (s or Style()) + style, c) for t, s, c in segments])
        else:
            strip = Strip(segments).apply_style(style)
        return strip.crop_extend(scroll_x, scroll_x + width, style)


def _water_fill(widths: list[int], floor: list[int], group: list[int], room: int) -> list[int]:
    """``widths`` with the columns of ``group`` capped at the widest cap (never below their
    ``floor``) that makes the row fit ``room``."""

    def capped(cap: int) -> list[int]:
        out = list(widths)
        for i in group:
            out[i] = max(min(widths[i], cap), floor[i])
        return out

    low, high = 0, max(widths, default=0)
    while low < high:
        mid = (low + high + 1) // 2
        if sum(capped(mid)) <= room:
            low = mid
        else:
            high = mid - 1
    return capped(low)


def _fit_text(
    text: str, size: int | None, pad: bool, middle: bool = False, head: int | None = None
) -> str:
    """A plain cell cut to ``size`` cells with an ellipsis at its end (in its middle when
    ``middle``, keeping ``head`` characters of its start: half by default), and padded when
    ``pad``."""
    text = text.replace("\n", " ")
    if size is None:
        return text
    length = cell_len(text)
    if length > size:
        if size <= 0:
            return ""
        if middle and size >= 5 and length == len(text):  # one cell a character
            head = _head(size, head)
            return text[:head] + "…" + text[length - (size - 1 - head) :]
        return set_cell_size(text, size - 1) + "…"
    return text + " " * (size - length) if pad else text


def _middle_text(text: Text, size: int, head: int | None = None) -> Text:
    """``text`` shortened in its middle to ``size`` cells (``head`` of them from its start),
    its styles kept."""
    length = len(text.plain)
    if text.cell_len <= size or size < 5 or text.cell_len != length:
        return text
    head = _head(size, head)
    out = text[:head]
    out.append("…")
    out.append_text(text[length - (size - 1 - head) :])
    return out


def _head(size: int, head: int | None) -> int:
    """How much of a name's start a middle cut to ``size`` keeps: ``head`` when the column
    chose it, else half; always something of both ends."""
    return size // 2 if head is None else max(1, min(head, size - 2))


def _plain(cell: Cell) -> str:
    return visible(cell.plain if isinstance(cell, Text) else cell)


def distinct_cut(names: Iterable[str], floor: int, natural: int) -> tuple[int, int]:
    """``(width, head)``: the narrowest width from ``floor`` at which cutting each of
    ``names`` in its middle (its first ``head`` characters, ``…``, its end) still tells every
    two apart, and the ``head`` that does it, as even a split as will do. Names that share a
    long start (``openshift-operators``, ``openshift-operator-lifecycle-manager``) keep more
    of their end, names that share their end (``image-caching-operator-v0-0-1-sub``,
    ``projectrequestlimits-v0-0-1-sub``) more of their start. A name shown whole is never
    taken for a cut one (the ``…``); names wider than a character a cell are cut at their
    end by the table and are left out."""
    cuttable = [n for n in names if len(n) > floor and cell_len(n) == len(n)]
    for width in range(max(floor, 5), natural + 1):
        cut = [n for n in cuttable if len(n) > width]
        if len(cut) < 2:
            return width, width // 2
        for head in _heads_from_the_middle(width):
            tail = width - 1 - head
            seen: set[tuple[str, str]] = set()
            for name in cut:
                ends = (name[:head], name[len(name) - tail :])
                if ends in seen:
                    break
                seen.add(ends)
            else:
                return width, head
    return natural, natural // 2


#: The least a name cut in its middle keeps of each end, where the width allows: a name
#: reads from ``ope…d-operators`` better than from ``o…d-operators``.
_END_KEPT = 3


def _heads_from_the_middle(width: int) -> Iterable[int]:
    """Every head a cut to ``width`` may keep, the even split first: at least
    ``_END_KEPT`` characters of each end, or one when the width is too small for that."""
    kept = _END_KEPT if width >= 2 * _END_KEPT + 1 else 1
    middle = width // 2
    yield middle
    for step in range(1, width):
        for head in (middle - step, middle + step):
            if kept <= head <= width - 1 - kept:
                yield head


def _cell_len(cell: Cell) -> int:
    """The cells a cell takes as painted: its control characters as escapes (``ui/inert``)."""
    if isinstance(cell, Text):
        return inert_text(cell).cell_len
    return len(cell) if cell.isprintable() else len(visible(cell))  # a hundred thousand: inline
