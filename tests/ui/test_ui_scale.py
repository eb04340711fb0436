"""What keeps the dashboard fast at a hundred thousand rows must not change what it shows:
the footer skips only rebuilds that would show the same keys, and the table's kept lines
are the lines a fresh paint gives."""

from __future__ import annotations

from importlib.resources import files

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Footer

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.csvs import CSVsScreen
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.widgets.keys_footer import KeysFooter, shown_keys
from olmtui.ui.widgets.virtual_table import Column, Row, VirtualTable
from olmtui.ui.widgets.yaml_view import YamlView

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
SIZE = (120, 36)


def _count_recomposes(monkeypatch) -> list[Widget]:
    rebuilt: list[Widget] = []
    original = Widget.recompose

    async def counted(self):
        if isinstance(self, Footer):
            rebuilt.append(self)
        return await original(self)

    monkeypatch.setattr(Widget, "recompose", counted)
    return rebuilt


async def test_opening_and_closing_a_detail_leaves_the_view_footer_alone(monkeypatch):
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.screen
        assert isinstance(view, CSVsScreen)
        footer = view.query_one(KeysFooter)
        before = [(k.key, k.description) for k in footer.query("FooterKey")]
        assert ("c", "Copies") in before
        rebuilt = _count_recomposes(monkeypatch)
        for _ in range(3):
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ObjectScreen)
            await pilot.press("escape")
            await pilot.pause()
        assert app.screen is view
        assert rebuilt == []
        assert [(k.key, k.description) for k in footer.query("FooterKey")] == before


async def test_footer_is_rebuilt_when_the_keys_it_shows_change(monkeypatch):
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.screen
        footer = view.query_one(KeysFooter)
        shown = shown_keys(view)
        rebuilt = _count_recomposes(monkeypatch)
        table = view.query_one(VirtualTable)
        # sorting switched off (as on a view that cannot sort): its key turns disabled
        monkeypatch.setattr(table, "check_action", lambda action, parameters: False)
        view.refresh_bindings()
        await pilot.pause()
        assert shown_keys(view) != shown
        assert footer in rebuilt


async def test_the_prompt_leaves_the_footer_as_it_is(monkeypatch):
    """``:`` takes the printable keys while it is open; the footer keeps the view's keys
    rather than being rebuilt twice around every command typed (most of a ``:ns``'s cost)."""
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.screen
        footer = view.query_one(KeysFooter)
        before = [(k.key, k.description) for k in footer.query("FooterKey")]
        rebuilt = _count_recomposes(monkeypatch)
        await pilot.press("colon", *"ns openshift-operators")
        await pilot.pause()
        assert [(k.key, k.description) for k in footer.query("FooterKey")] == before
        await pilot.press("enter")
        await pilot.pause()
        assert rebuilt == []
        assert [(k.key, k.description) for k in footer.query("FooterKey")] == before


ROWS = [
    Row(i, (f"ns-{i:03d}", Text("Succeeded", style="green"), f"row {i}"), "dim" if i % 2 else "")
    for i in range(300)
]


class TableApp(App):
    def compose(self) -> ComposeResult:
        yield VirtualTable(
            (Column("ns", "NAMESPACE"), Column("phase", "PHASE"), Column("text", "TEXT")),
            id="table",
        )

    def on_mount(self) -> None:
        self.query_one(VirtualTable).set_rows(ROWS)


def _assert_lines_are_fresh(table: VirtualTable) -> None:
    width = table.scrollable_content_region.width
    top = round(table.scroll_y)
    for y in range(table.scrollable_content_region.height):
        kept = table.render_line(y)
        fresh = table._paint(top + y - 1 if y else -1, width, round(table.scroll_x))
        assert list(kept) == list(fresh), f"line {y} (cursor at {table.cursor})"


async def test_kept_lines_follow_the_cursor_the_filter_the_focus_and_the_theme():
    app = TableApp()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(VirtualTable)
        table.focus()
        await pilot.pause()
        _assert_lines_are_fresh(table)
        for keys in (("down",), ("down", "down"), ("pagedown",), ("up",), ("home",)):
            await pilot.press(*keys)
            await pilot.pause()
            _assert_lines_are_fresh(table)
        table.set_filter("ns-1")
        await pilot.pause()
        assert table.row_count == 100
        _assert_lines_are_fresh(table)
        table.blur()  # the cursor row is painted differently without the focus
        await pilot.pause()
        _assert_lines_are_fresh(table)
        app.theme = "textual-light"
        await pilot.pause()
        _assert_lines_are_fresh(table)


async def test_yaml_tab_shows_the_object_opened_not_the_previous_one():
    """The detail screen is reused from one object to the next: its YAML tab follows."""
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = []
        for _ in range(3):
            await pilot.press("y")
            await pilot.pause()
            detail = app.screen
            assert isinstance(detail, ObjectScreen)
            yaml_text = detail.query_one(YamlView).text
            assert f"name: {detail.target.name}" in yaml_text
            assert f"namespace: {detail.target.namespace}" in yaml_text
            shown.append(detail.target)
            await pilot.press("escape", "down")
            await pilot.pause()
        assert len(set(shown)) == 3


async def test_yaml_view_paints_only_the_visible_part_of_a_long_line():
    """A CSV's icon is one line of tens of thousands of characters (node-healthcheck)."""
    icon = "iVBORw0KGgo" * 6000
    document = f"spec:\n  icon:\n  - base64data: {icon}\n    mediatype: image/png\n"

    class YamlApp(App):
        def compose(self) -> ComposeResult:
            yield YamlView()

    app = YamlApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(YamlView)
        view.show(document)
        view.focus()
        await pilot.pause()
        assert view.virtual_size.width == len(f"  - base64data: {icon}")
        assert view.text == document.rstrip("\n")
        line = view.render_line(2)
        assert line.cell_length == view.scrollable_content_region.width
        assert line.text.startswith("  - base64data: iVBOR")
        view.scroll_to(x=len("  - base64data: ") + 11, animate=False, immediate=True)
        await pilot.pause()
        assert view.render_line(2).text == ("iVBORw0KGgo" * 6)[: line.cell_length]
        assert view.render_line(0).text.strip() == ""  # "spec:" is left of the view
