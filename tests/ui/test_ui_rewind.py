"""``olmtui replay`` on a recording: the time cursor driven from the keys and ``:at``, the
header saying which moment, the Changes view as the recording's timeline, the findings'
times, and every view showing the cluster as of the cursor (R-REC-4)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import press, settle, wait_for
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static
from timeline_support import CATALOG_SPEC, TEAM_A, demo_timeline

from olmtui.kinds import SUBSCRIPTION
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import rewind_session
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.findings import FindingsScreen
from olmtui.ui.screens.graph import GraphScreen
from olmtui.ui.screens.recording_changes import MARK, RecordingChangesScreen
from olmtui.ui.widgets.source_header import header_text

SIZE = (200, 40)
#: The header's span, whatever the moment.
SPAN = "recorded 2026-11-28T09:59:55Z to 2026-11-28T10:07:40Z"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(CATALOG_SPEC)


def recording_app(catalog: Catalog, view: str = "overview") -> OlmApp:
    return OlmApp(rewind_session(demo_timeline(), loaded=[catalog]), initial_view=view)


def header(app: OlmApp) -> str:
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return header_text(app.session, screen.VIEW_TITLE, SIZE[0]).plain


def rows(app: OlmApp) -> list[str]:
    """The rows of the table shown, each as its cells' text."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return [" ".join(str(cell) for cell in row.cells) for row in screen.table.shown_rows]


def watching(app: OlmApp, namespace: str) -> int:
    """The Namespaces view's WATCHED BY count of ``namespace``."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    [row] = [r for r in screen.table.shown_rows if str(r.cells[0]) == namespace]
    return int(str(row.cells[3]))


async def typed(pilot: Pilot[Any], line: str) -> None:
    await press(pilot, ":", *line, "enter")
    await settle(pilot)


async def test_keys_step_by_change_and_minute_and_the_header_says_where(catalog: Catalog) -> None:
    app = recording_app(catalog, "findings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "at 2026-11-28T10:07:40Z · change 206 of 206 · end" in header(app)
        assert SPAN in header(app)
        await press(pilot, "left_square_bracket")
        assert "at 2026-11-28T10:05:30Z · change 205 of 206 · recorded" in header(app)
        await press(pilot, "left_curly_bracket", "left_curly_bracket")
        assert "at 2026-11-28T10:03:30Z · change 202 of 206 · recorded" in header(app)
        await press(pilot, "right_square_bracket")
        assert "at 2026-11-28T10:04:00Z · change 203 of 206" in header(app)
        await press(pilot, "right_curly_bracket", "right_curly_bracket", "right_curly_bracket")
        await press(pilot, "right_curly_bracket", "right_square_bracket")
        assert "at 2026-11-28T10:07:40Z · change 206 of 206 · end" in header(app)
    assert app.return_code in (None, 0)


async def test_at_takes_every_form_and_a_bad_one_is_one_line(catalog: Catalog) -> None:
    app = recording_app(catalog)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed(pilot, "at 10:03")
        assert "at 2026-11-28T10:03:00Z · change 201 of 206" in header(app)
        await typed(pilot, "at -5m")
        assert "at 2026-11-28T10:02:40Z" in header(app)
        await typed(pilot, "at 2026-11-28T10:01:00Z")
        assert "at 2026-11-28T10:01:00Z · change 194 of 206" in header(app)
        await typed(pilot, "at 11:30")
        problems = [n for n in app._notifications if n.title == ":at"]
        assert [str(n.message) for n in problems] == [
            "11:30 (2026-11-27T11:30:00Z) is outside the recording, which runs from "
            "2026-11-28T09:59:55Z to 2026-11-28T10:07:40Z"
        ]
        assert "at 2026-11-28T10:01:00Z · change 194 of 206" in header(app)  # nothing moved
        await typed(pilot, "at end")
        assert "change 206 of 206 · end" in header(app)
    assert app.return_code in (None, 0)


async def test_every_view_shows_the_cluster_as_of_the_cursor(catalog: Catalog) -> None:
    app = recording_app(catalog)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # the Overview's incident roots: the catalog is broken from 10:03:12 to 10:07:40
        broken = "community-operators"
        await typed(pilot, "at 10:05")
        assert any("CatalogSourceNotReady" in r and broken in r for r in rows(app))
        await typed(pilot, "at 10:03")
        assert not any("CatalogSourceNotReady" in r and broken in r for r in rows(app))
        # the Findings list: the CSV failed from 10:01:00 to 10:01:30
        app.show_view("findings")
        await settle(pilot)
        assert not any("CSVFailed" in r for r in rows(app))
        await typed(pilot, "at 10:01:10")
        assert any("CSVFailed" in r for r in rows(app))
        # a namespace's groups: team-b's OperatorGroup targets team-a too from 10:04
        app.show_view("namespaces")
        await settle(pilot)
        assert watching(app, "team-a") == 5
        await typed(pilot, "at 10:04")
        assert watching(app, "team-a") == 7  # keycloak and etcd of team-b now too
        # the :ip view: keycloak's plan waits for approval until 10:02, then is Complete
        app.show_view("ip")
        await settle(pilot)
        plan = [r for r in rows(app) if "install-kc263" in r]
        assert "Complete" in plan[0]
        await press(pilot, "left_curly_bracket", "left_curly_bracket", "left_curly_bracket")
        plan = [r for r in rows(app) if "install-kc263" in r]
        assert "RequiresApproval" in plan[0]
        # an upgrade graph: the installed mark moves with the Subscription's upgrade
        app.show_graph(ObjectRef(SUBSCRIPTION, TEAM_A, "keycloak-operator"))
        await settle(pilot)
        assert isinstance(app.screen, GraphScreen)
        installed = [r for r in rows(app) if "installed" in r]
        assert installed and "keycloak-operator.v26.6.2" in installed[0]
        await typed(pilot, "at 10:03")
        installed = [r for r in rows(app) if "installed" in r]
        assert installed and "keycloak-operator.v26.6.3" in installed[0]
    assert app.return_code in (None, 0)


async def test_the_changes_view_is_the_recordings_timeline_and_enter_jumps(
    catalog: Catalog,
) -> None:
    app = recording_app(catalog, "changes")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RecordingChangesScreen)
        table = screen.table
        # told in a worker: until then the view says it is reading, not that none exist
        await wait_for(lambda: table.row_count == 206, "the recording's changes", pilot=pilot)
        await settle(pilot)
        assert table.selected_key == 206 and rows(app)[-1].startswith(MARK)
        failed = next(i for i, r in enumerate(rows(app)) if "Succeeded -> Failed" in r)
        table.cursor = failed
        await press(pilot, "enter")
        await settle(pilot)
        assert "at 2026-11-28T10:01:00Z · change 194 of 206" in header(app)
        marked = [r for r in rows(app) if r.startswith(MARK)]
        assert len(marked) == 1 and "Succeeded -> Failed" in marked[0]
        await press(pilot, "right_square_bracket")  # the table follows the cursor
        assert table.selected_key == 195 and rows(app)[194].startswith(MARK)
    assert app.return_code in (None, 0)


async def test_a_finding_says_since_when_once_worked_out(catalog: Catalog) -> None:
    app = recording_app(catalog, "findings")
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, "at 10:06")
        screen = app.screen
        assert isinstance(screen, FindingsScreen)
        index = next(
            i
            for i, r in enumerate(rows(app))
            if "CatalogSourceNotReady" in r and ("community-operators" in r)
        )
        screen.table.cursor = index
        await settle(pilot)

        def detail() -> str:
            console = Console(width=200, record=True, color_system=None)
            console.print(screen.query_one("#detail", Static).content)
            return console.export_text()

        await wait_for(lambda: "since 10:03:12Z" in detail(), "the finding's times", pilot=pilot)
        assert "since …" not in detail()
    assert app.return_code in (None, 0)


def test_on_80_columns_the_header_keeps_the_moment_and_the_position(catalog: Catalog) -> None:
    timeline = demo_timeline()
    session = rewind_session(timeline, loaded=[catalog], grow=lambda: True)
    text = header_text(session, "Findings", 80)
    text.truncate(80)
    assert "│ 2026-11-28T10:07:40Z · 206/206 · " in text.plain  # then "growing", if room
    assert session.time is not None
    session.time.step(-3)
    text = header_text(session, "Findings", 80)
    text.truncate(80)
    assert "│ 2026-11-28T10:04:00Z · 203/206" in text.plain
    wide = header_text(session, "Findings", 200).plain
    assert "at 2026-11-28T10:04:00Z · change 203 of 206 · recorded" in wide
    session.time.go_to("end")
    wide = header_text(session, "Findings", 200).plain
    assert "at 2026-11-28T10:07:40Z · change 206 of 206 · end, still recording" in wide


async def test_the_palette_moves_the_time_cursor_too(catalog: Catalog) -> None:
    app = recording_app(catalog)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        commands = {c.title: c.callback for c in app.get_system_commands(app.screen)}
        commands["Time: a minute back"]()
        commands["Time: one change on"]()
        await settle(pilot)
        assert "at 2026-11-28T10:07:40Z · change 206 of 206 · end" in header(app)
        commands["Time: one change back"]()
        assert "at 2026-11-28T10:05:30Z · change 205 of 206" in header(app)
    assert app.return_code in (None, 0)
