"""The keys that bring a hundred thousand rows back (``c`` on the CSVs, clearing a
``/`` filter) keep the cursor on its row, reuse what was built for the same model, and do
not make the detail pane again for the row it already describes (bench/bench_ui.py)."""

from __future__ import annotations

import copy
import io
from importlib.resources import files

from conftest import redrawn, wait_for
from rich.console import Console
from textual.widgets import Static

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens import csvs
from olmtui.ui.screens.base import NO_MATCH
from olmtui.ui.screens.csvs import CSVsScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
SIZE = (120, 36)


def _table(app: OlmApp) -> VirtualTable:
    return app.screen.query_one("#table", VirtualTable)


def _count_describes(screen: CSVsScreen) -> list[object]:
    """Every key the screen's detail pane is made for from now on."""
    made: list[object] = []
    describe = screen.describe

    def counting(key):  # type: ignore[no-untyped-def]
        made.append(key)
        return describe(key)

    screen.describe = counting  # type: ignore[method-assign]
    return made


async def test_toggling_copies_keeps_the_cursor_and_reuses_the_rows_of_the_same_model():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = _table(app)
        hidden = table.row_count
        await pilot.press("down", "down")
        selected = table.selected_key
        assert selected is not None and selected[0] == "csv"
        await pilot.press("c")
        await pilot.pause()
        copies = app.session.model.copied_csvs().present
        assert table.row_count == hidden + copies and table.selected_key == selected
        shown = table._set
        await pilot.press("c")
        await pilot.pause()
        assert table.row_count == hidden and table.selected_key == selected
        await pilot.press("c")
        await pilot.pause()
        assert table._set is shown  # the same rows, not built again
        assert table.selected_key == selected


async def test_rows_kept_for_the_toggle_follow_a_change_of_the_model():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = _table(app)
        await pilot.press("c")
        await pilot.pause()
        copy_key, phase = next((r.key, r.cells[3]) for r in table.shown_rows if r.key[0] == "copy")
        assert "Failed" not in str(phase)
        await pilot.press("c")  # copies hidden: their rows are kept for the next ``c``
        await pilot.pause()
        store = app.session.store
        changed = copy.deepcopy(store.get("ClusterServiceVersion", copy_key[1], copy_key[2]))
        changed["status"] = {**changed["status"], "phase": "Failed", "reason": "Copied"}
        store.apply("MODIFIED", changed)
        await redrawn(pilot)
        await pilot.press("c")
        await pilot.pause()
        row = next(r for r in table.shown_rows if r.key == copy_key)
        assert str(row.cells[3]).endswith("Failed")


async def test_clearing_a_filter_keeps_the_cursor_row_and_its_detail_pane():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CSVsScreen)
        table = _table(app)
        await pilot.press("c")
        await pilot.pause()
        everything = table.row_count
        await pilot.press("slash", *"team-b", "enter")
        await pilot.pause()
        await pilot.press("down")
        await pilot.pause()
        selected = table.selected_key
        assert selected is not None and table.row_count < everything
        made = _count_describes(screen)
        await pilot.press("escape")  # on the view: clears the filter
        await pilot.pause()
        assert table.filter_text == "" and table.row_count == everything
        assert table.selected_key == selected
        assert made == []  # the pane already described this row
        await pilot.press("slash", *"team-b")
        await pilot.press(*["backspace"] * len("team-b"))  # the prompt emptied: cleared too
        await pilot.pause()
        assert table.row_count == everything and table.selected_key == selected
        await pilot.press("escape", "down")
        await pilot.pause()
        assert made == [table.selected_key]  # another row: its pane is made


async def test_the_copies_rows_are_made_ahead_while_idle_and_shown_by_the_first_c(monkeypatch):
    monkeypatch.setattr(csvs, "AHEAD_FROM", 1)  # the sample's few copies count as many
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CSVsScreen)
        await wait_for(lambda: screen._ahead is None, "the copies' rows made ahead", pilot=pilot)
        made = screen._row_sets[True][1]
        await pilot.press("c")
        await pilot.pause()
        table = _table(app)
        assert table._set is made
        assert [r.key for r in table.shown_rows] == [r.key for r in screen._rows(True)]


def _text(pane: Static) -> str:
    """What the detail pane says, as plain text."""
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(pane.content)
    return console.export_text().strip()


async def test_a_filter_that_keeps_no_row_says_so_and_clearing_it_brings_the_row_back():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CSVsScreen)
        table = _table(app)
        detail = screen.query_one("#detail", Static)
        selected, described = table.selected_key, _text(detail)
        height = detail.size.height
        await pilot.press("slash", *"zzqq")
        await pilot.pause()
        assert table.row_count == 0 and table.selected_key is None
        assert _text(detail) == NO_MATCH
        assert detail.size.height == height  # held: clearing lays nothing new out
        await pilot.press(*["backspace"] * 4)
        await pilot.pause()
        assert table.selected_key == selected and _text(detail) == described
        assert detail.styles.min_height is None
        await pilot.press("slash", "q", "escape")  # Esc in the prompt clears it too
        await pilot.pause()
        assert table.row_count > 0 and _text(detail) == described


def _count_layouts(app: OlmApp) -> list[int]:
    """One entry per layout of the screen from now on."""
    laid: list[int] = []
    screen = app.screen
    layout = screen._refresh_layout

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        laid.append(1)
        return layout(*args, **kwargs)

    screen._refresh_layout = counting  # type: ignore[method-assign]
    return laid


async def test_with_many_copies_c_lays_out_the_table_alone_at_the_height_it_keeps(monkeypatch):
    """The table keeps the height of the rows with the copies, shown or not, so ``c`` moves
    no other widget: one layout to hide them; to show them one, and one more for the
    vertical scrollbar Textual adds, set before the rows are fitted (no horizontal one).
    The detail pane had shrunk or grown with the table: three layouts a key, ~40-60 ms of
    waiting between them (bench/README.md)."""
    monkeypatch.setattr(csvs, "AHEAD_FROM", 1)  # the sample's few copies count as many
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 26)) as pilot:  # the CSVs fit, not with the copies
        await redrawn(pilot)
        table = _table(app)
        pane = app.screen.query_one(".detail-pane")
        regions = (table.region, pane.region)
        assert table.row_count < table.region.height - 1 < table.rows_for_height
        for shown in (True, False, True):
            laid = _count_layouts(app)
            await pilot.press("c")
            await pilot.pause(0.2)
            assert (table.region, pane.region) == regions
            assert table.show_vertical_scrollbar is shown
            assert not table.show_horizontal_scrollbar
            assert len(laid) <= (2 if shown else 1)


async def test_with_few_copies_the_table_is_as_tall_as_its_rows():
    """Few copies: the detail pane keeps the room the CSVs' rows leave."""
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = _table(app)
        assert table.region.height == table.row_count + 1
