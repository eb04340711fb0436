"""Every row of every screen, painted: the dashboard on the demo's cluster and on a
real must-gather, at 80x24, 120x40 and 200x60.

A ``[skipped]`` row of an upgrade graph drawn off the cursor ended the app (rc 3): its row
style, a name of the app's theme, was parsed as a colour. Nothing here asserts what a view
shows; the walk paints every line a user can scroll to (every view's rows and each row's
detail pane, the first object's detail and YAML, every channel's graph and each
Subscription's, the Resolution view of each Subscription, the X-ray fully opened, the help
and the palette) and fails on any exception, and on any style name the theme does not define
(Rich paints those plain without a word: the same mistake, silent). Every screen is opened at
120x40; the views' rows, their detail panes, every channel's graph, the X-ray and the help
are painted again with the terminal resized to 80x24 and 200x60 (a Subscription's graph and
an object's related rows repeat rows painted at every size already).

The demo is its scenario's objects as a snapshot, with its catalog as ``olmtui demo`` loads
it. The must-gather is paired with a small catalog (``tests/data/ui/paint-catalog``) whose
graph has a skipped, a deprecated and a not-in-channel row for its Subscription.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import press, settle, wait_for
from data_paths import TESTS
from rich import errors
from rich.console import Console, RenderableType
from rich.style import Style
from textual import events
from textual.containers import VerticalScroll
from textual.drivers.headless_driver import HeadlessDriver
from textual.geometry import Size
from textual.pilot import Pilot
from textual.scroll_view import ScrollView
from textual.widget import Widget
from textual.widgets import OptionList, Tree
from timeline_support import CATALOG_SPEC, demo_timeline

from olmtui.demo import scenario
from olmtui.pipeline.build import rewind_session, snapshot_session
from olmtui.pipeline.session import Session
from olmtui.ui.app import OlmApp
from olmtui.ui.inert import inert
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.graph import ChannelsScreen, GraphScreen
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.resolution import ResolutionScreen
from olmtui.ui.views import VIEWS
from olmtui.ui.widgets.virtual_table import VirtualTable

DATA = TESTS / "data"
MUST_GATHER = DATA / "must-gather" / "must-gather-clean" / "must-gather-azure"
PAINT_CATALOG = f"cfe-test-namespace/image-caching-operator-catalog={DATA / 'ui' / 'paint-catalog'}"
#: The size the walk opens every screen at, then the sizes its rows are painted at again,
#: the terminal resized (opening every screen again at each size tripled the walk's time for
#: what the rows and the layout alone show).
SIZES = ((120, 40), (80, 24), (200, 60))
#: The walk in parts xdist spreads over its workers (a whole walk was one test of a minute
#: and more: the run ended on the worker that drew the last one). ``extras``: the help and
#: the palette, painted once a walk.
PARTS: dict[str, tuple[str, ...]] = {
    "lists": ("overview", "namespaces", "operatorgroups", "csvs"),
    "subscriptions": ("subscriptions", "migration"),
    "plans-xray": ("installplans", "xray"),
    "graphs": ("graphs",),
    "extras": (
        "findings",
        "catalogs",
        "clusterextensions",
        "clustercatalogs",
        "changes",
        "upgrade",
    ),
}


@pytest.fixture(scope="session")
def demo_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's objects as a file, written once a worker: a module-scoped one was written
    again each time xdist's worksteal brought a worker back to this module (16-22 s each
    under load), and nothing writes to it."""
    path = tmp_path_factory.mktemp("demo") / "demo.yaml"
    path.write_text(yaml.dump_all(scenario.build_scenario().objects, Dumper=yaml.CSafeDumper))
    return path


def demo_session(snapshot: Path) -> Session:
    return snapshot_session(
        [str(snapshot)], [f"{scenario.CATALOG_REF}={scenario.CATALOG_PATH}"], label="demo"
    )


def must_gather_session() -> Session:
    return snapshot_session([str(MUST_GATHER)], [PAINT_CATALOG], label="must-gather azure")


def session_for(which: str, request: pytest.FixtureRequest) -> Session:
    """The demo's or the must-gather's session; only the demo's asks for the demo file."""
    if which == "demo":
        return demo_session(request.getfixturevalue("demo_snapshot"))
    return must_gather_session()


class StyleAudit:
    """Every style name looked up on the app's console that neither its theme nor Rich's
    grammar knows (Rich's Text paints those plain, silently)."""

    def __init__(self, console: Console) -> None:
        self.missing: set[str] = set()
        original = console.get_style

        def get_style(name: str | Style, *, default: Style | str | None = None) -> Style:
            if isinstance(name, str):
                try:
                    original(name)
                except errors.MissingStyle:
                    self.missing.add(name)
            return original(name, default=default)

        console.get_style = get_style  # type: ignore[method-assign]


class Walker:
    """Drives one app through every screen, painting what each shows."""

    def __init__(
        self, app: OlmApp, pilot: Pilot[Any], sizes: tuple[tuple[int, int], ...] = ()
    ) -> None:
        self.app = app
        self.pilot = pilot
        self.painted = 0
        self.audit = StyleAudit(app.console)
        #: The other terminal sizes every row is painted at, the screen resized to each.
        self.sizes = sizes

    async def resize(self, size: tuple[int, int]) -> None:
        """The terminal resized as ``Pilot.resize_terminal`` does it, without its idle wait."""
        driver = self.app._driver
        assert isinstance(driver, HeadlessDriver)
        driver._size = Size(*size)
        self.app.post_message(events.Resize(Size(*size), Size(*size)))
        await settle(self.pilot)

    async def at_every_size(self, walk: Callable[[], Awaitable[None]]) -> None:
        """``walk`` at the app's own size, then again at each of :attr:`sizes` (the screen
        laid out anew for it), then back."""
        await walk()
        if not self.sizes:
            return
        own = (self.app.size.width, self.app.size.height)
        for size in self.sizes:
            await self.resize(size)
            await walk()
        await self.resize(own)

    async def paint(self) -> None:
        """Let the app settle, then paint every line of the screen."""
        await settle(self.pilot)
        self.painted += len(self.app.screen._compositor.render_strips())

    def render(self, renderable: RenderableType) -> None:
        """A detail pane as the screen would paint it, at the screen's width."""
        console = self.app.console
        options = console.options.update_width(self.app.size.width)
        console.render_lines(inert(renderable), options, pad=False)

    def paint_lines(self, table: VirtualTable) -> None:
        """The table's lines as they are now, painted as the compositor asks for them."""
        for y in range(table.size.height):
            table.render_line(y)

    async def page_table(
        self, table: VirtualTable, describe: Callable[[Hashable], Any], every_size: bool = True
    ) -> None:
        """Every row on screen once, page by page (the table's own keys' actions, called
        directly: a key press costs the Pilot tens of milliseconds of idle waiting), the
        last row off the cursor, every row's detail rendered, and the screen painted: at
        every size, or at the app's own size only where the rows are another screen's rows
        again (a Subscription's graph is its channel's, an object's related rows are rows of
        the views)."""
        if every_size:
            await self.at_every_size(lambda: self._page_table(table, describe))
        else:
            await self._page_table(table, describe)

    async def _page_table(self, table: VirtualTable, describe: Callable[[Hashable], Any]) -> None:
        table.action_jump(0)
        while True:
            self.paint_lines(table)
            before = table.cursor
            table.action_page(1)
            if table.cursor == before:
                break
        table.action_cursor(-1)
        self.paint_lines(table)
        for row in table.shown_rows:
            self.render(describe(row.key))
        await self.paint()

    async def page_focused(self, widget: Widget | None = None, every_size: bool = True) -> None:
        """The focused widget (a tree, a list, the YAML), or ``widget``, scrolled through to
        its end a page at a time, each page painted: at every size, or at the app's own
        (as :meth:`page_table`)."""
        scrolled = widget or self.app.screen.focused
        walk = self.paint if scrolled is None else lambda: self._page_focused(scrolled)
        await (self.at_every_size(walk) if every_size else walk())

    async def _page_focused(self, widget: Widget, pages: int = 500) -> None:
        widget.scroll_home(animate=False, immediate=True)
        await self.paint()
        for _ in range(pages):
            before = widget.scroll_offset
            widget.scroll_page_down(animate=False)
            if widget.scroll_offset == before:
                break
            if isinstance(widget, ScrollView):  # lines painted by the widget: no layout needed
                for y in range(widget.size.height):
                    widget.render_line(y)
            else:
                await self.paint()
        await self.paint()

    async def back_to(self, screen: object) -> None:
        while self.app.screen is not screen:
            await press(self.pilot, "escape")

    async def table_view(self, screen: TableScreen) -> None:
        await self.page_table(screen.table, screen.describe)
        if isinstance(screen, ChannelsScreen):
            return await self.every_graph(screen)
        if screen.table.row_count:
            await press(self.pilot, "home", "enter")
            await self.paint()
            if isinstance(self.app.screen, ObjectScreen):
                await self.object_screen(self.app.screen)
            await self.back_to(screen)

    async def object_screen(self, screen: ObjectScreen) -> None:
        related = screen.query_one("#related", VirtualTable)
        await self.page_table(related, lambda key: "", every_size=False)
        await press(self.pilot, "y")
        await self.page_focused(every_size=False)
        await press(self.pilot, "s")
        await self.paint()

    async def every_graph(self, screen: ChannelsScreen) -> None:
        for row in list(screen.table.shown_rows):
            screen.open(row.key)
            await self.paint()
            graph = self.app.screen
            assert isinstance(graph, GraphScreen)
            await self.page_table(graph.table, graph.describe)
            await self.back_to(screen)

    async def every_subscription(self, screen: TableScreen) -> None:
        """Each Subscription's graph (the installed version, the path, the next hop), and
        the Resolution view of one Subscription per namespace."""
        table = screen.table
        resolved: set[str] = set()
        for index, row in enumerate(list(table.shown_rows)):
            table.cursor = index
            await press(self.pilot, "g")
            await self.paint()
            if isinstance(self.app.screen, GraphScreen):
                graph = self.app.screen
                await self.page_table(graph.table, graph.describe, every_size=False)
            await self.back_to(screen)
            namespace = str(row.key[0])  # type: ignore[index]  # (namespace, name)
            if namespace in resolved:
                continue
            resolved.add(namespace)
            table.cursor = index
            await press(self.pilot, "r")
            await self.paint()
            resolution = self.app.screen
            assert isinstance(resolution, ResolutionScreen)
            await wait_for(
                lambda screen=resolution: screen.result is not None and not screen._busy,
                "the resolution",
                pilot=self.pilot,
            )
            resolution.set_focus(resolution.query_one(OptionList))
            await self.page_focused(every_size=False)
            await self.back_to(screen)

    async def walk(self, names: tuple[str, ...], extras: bool) -> None:
        for view in (v for v in VIEWS if v.name in names):
            assert self.app.show_view(view.name)
            await self.paint()
            screen = self.app.screen
            if isinstance(screen, TableScreen):
                await self.table_view(screen)
                if view.name == "subscriptions":
                    await self.every_subscription(screen)
            else:
                for tree in screen.query(Tree):
                    tree.root.expand_all()
                await self.page_focused()
        if not extras:
            return
        await self.pilot.press("question_mark")
        await self.paint()
        await self.page_focused(self.app.screen.query_one(VerticalScroll))
        await self.pilot.press("escape")
        await self.pilot.press("ctrl+p")
        await self.paint()
        await self.pilot.press("escape")
        await self.paint()


def test_the_parts_walk_every_view_once() -> None:
    walked = [name for names in PARTS.values() for name in names]
    assert sorted(walked) == sorted(view.name for view in VIEWS)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("which", ["demo", "must-gather"])
async def test_every_row_of_every_screen_paints(
    which: str, part: str, request: pytest.FixtureRequest
) -> None:
    session = session_for(which, request)
    app = OlmApp(session)
    async with app.run_test(size=SIZES[0]) as pilot:
        walker = Walker(app, pilot, SIZES[1:])
        await walker.walk(PARTS[part], extras=part == "extras")
        assert walker.audit.missing == set()
        assert walker.painted > 10
    assert app.return_code in (None, 0)


async def test_every_row_of_a_recordings_screens_paints() -> None:
    """A recording replayed: its Findings (with the times each finding appeared) and its
    Changes view (the whole recording's timeline, the cursor's change marked)."""
    timeline = demo_timeline()
    session = rewind_session(timeline, [CATALOG_SPEC])
    app = OlmApp(session)
    async with app.run_test(size=SIZES[0]) as pilot:
        time = session.time
        assert time is not None
        await wait_for(lambda: len(time.entries()) == len(timeline), "the changes", pilot=pilot)
        walker = Walker(app, pilot, SIZES[1:])
        await walker.walk(("findings", "changes"), extras=False)
        assert walker.audit.missing == set()
        assert walker.painted > 10
    assert app.return_code in (None, 0)


async def test_a_skipped_row_off_the_cursor_keeps_the_app_up(demo_snapshot: Path) -> None:
    """As the user met it: demo, ``:csv``, ``/v26.7.1``, ``g``, End, Up."""
    app = OlmApp(demo_session(demo_snapshot), initial_view="csvs")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"v26.7.1", "enter")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, GraphScreen)
        await pilot.press("end", "up")
        await pilot.pause()
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        assert any("[skipped]" in line for line in lines)
    assert app.return_code in (None, 0)


# -- narrow terminals: what tells rows apart is never cut away -------------------------------


def rendered_rows(table: VirtualTable) -> dict[int, str]:
    """Each shown row as painted at the table's width (off the cursor but the one it is on),
    by its place among the shown rows."""
    out: dict[int, str] = {}
    height = table.size.height
    table.action_jump(0)
    while True:
        top = round(table.scroll_y)
        for y in range(1, height):
            index = top + y - 1
            if index < table.row_count:
                out[index] = table.render_line(y).text.rstrip()
        before = table.cursor
        table.action_page(1)
        if table.cursor == before:
            return out


def confused(table: VirtualTable) -> list[tuple[str, str, str]]:
    """Pairs of rows whose cells differ but which read the same as painted."""
    seen: dict[str, str] = {}
    pairs = []
    for index, text in rendered_rows(table).items():
        cells = " | ".join(_plain(c) for c in table.shown_rows[index].cells)
        other = seen.setdefault(text, cells)
        if other != cells:
            pairs.append((text, other, cells))
    return pairs


def _plain(cell: object) -> str:
    return getattr(cell, "plain", None) or str(cell)


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("which", ["demo", "must-gather"])
async def test_rows_stay_apart_at_80_and_120_columns(
    which: str, width: int, request: pytest.FixtureRequest
) -> None:
    """Names cut in their middle keep the part that tells them apart (``image-…-1-sub`` and
    ``projec…-1-sub`` were all that was left), no column repeats another, kinds are short
    (``Clust…`` stood for three), and the channels of the graphs list read apart."""
    session = session_for(which, request)
    app = OlmApp(session)
    async with app.run_test(size=(width, 40)) as pilot:
        found: dict[str, list[tuple[str, str, str]]] = {}
        for view in VIEWS:
            assert app.show_view(view.name)
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, TableScreen) and screen.table.row_count:
                found[view.name] = confused(screen.table)
        assert {name: pairs for name, pairs in found.items() if pairs} == {}
        assert {"overview", "csvs", "subscriptions", "graphs"} <= set(found)
