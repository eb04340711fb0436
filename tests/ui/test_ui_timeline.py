"""R-EVD-11 on the dashboard: ``t`` on a namespace row (Namespaces) and on an incident
(Overview, Findings) opens its Timeline, every row of which paints at 80x24 and 200x60; the
key is in the footer and the help; cluster text is never read as markup; and on a live
cluster a condition that changes appears in the open timeline."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import settle, wait_for
from model_builders import cluster_event, subscription

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.demo import scenario
from olmtui.pipeline.build import live_session, snapshot_session
from olmtui.pipeline.session import Session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.findings import FindingsScreen
from olmtui.ui.screens.help import KEYS
from olmtui.ui.screens.namespaces import NamespacesScreen
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.screens.timeline import TimelineScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZES = [(80, 24), (200, 60)]
BROKEN = "CatalogSource openshift-marketplace/certified-operators"


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's objects as a snapshot (every object created when it was built)."""
    path = tmp_path_factory.mktemp("demo") / "demo.yaml"
    path.write_text(yaml.safe_dump_all(scenario.build_scenario().objects))
    return path


def _session(path: Path) -> Session:
    return snapshot_session([str(path)], label="demo")


def _table(app: OlmApp) -> VirtualTable:
    return app.screen.query_one("#table", VirtualTable)


def _painted(app: OlmApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def _select(app: OlmApp, pilot: Any, test: Any) -> None:
    """Put the cursor on the first row ``test`` accepts."""
    table = _table(app)
    await wait_for(lambda: any(test(r) for r in _table(app).shown_rows), "the row", pilot=pilot)
    table.cursor = next(i for i, r in enumerate(table.shown_rows) if test(r))
    await settle(pilot)


async def _paint_every_row(app: OlmApp, pilot: Any) -> int:
    """Every row of the timeline on screen once, page by page, each row's detail made."""
    screen = app.screen
    assert isinstance(screen, TimelineScreen)
    table = screen.table
    table.action_jump(0)
    painted = 0
    while True:
        for y in range(table.size.height):
            table.render_line(y)
            painted += 1
        before = table.cursor
        table.action_page(1)
        if table.cursor == before:
            break
    for row in table.shown_rows:
        app.console.render_lines(screen.describe(row.key), app.console.options, pad=False)
    await settle(pilot)
    assert _painted(app)
    return painted


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_t_on_a_namespace_opens_its_timeline(demo_file: Path, size: tuple[int, int]) -> None:
    app = OlmApp(_session(demo_file), initial_view="namespaces")
    async with app.run_test(size=size) as pilot:
        await wait_for(lambda: isinstance(app.screen, NamespacesScreen), pilot=pilot)
        await _select(app, pilot, lambda r: r.key == "openshift-operators")
        if size[0] >= 200:  # the footer says the key (at 80 columns it is cut short)
            assert "t Timeline" in _painted(app)[-1]
        await pilot.press("t")
        await wait_for(lambda: isinstance(app.screen, TimelineScreen), pilot=pilot)
        screen = app.screen
        assert isinstance(screen, TimelineScreen) and screen.namespace == "openshift-operators"
        entries = screen.timeline.entries
        assert len(entries) > 20 and _table(app).row_count == len(entries)
        assert {e.ref.namespace for e in entries} <= {"openshift-operators", ""}
        assert _table(app).cursor == len(entries) - 1  # on the newest
        assert await _paint_every_row(app, pilot) >= len(entries)
        shown = "\n".join(_painted(app))
        assert "Timeline of namespace openshift-operators" in shown
        assert "times in UTC" in shown  # the snapshot has no gather time: nothing relative
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, NamespacesScreen), pilot=pilot)
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_t_on_an_incident_opens_the_timeline_of_its_objects(
    demo_file: Path, size: tuple[int, int]
) -> None:
    app = OlmApp(_session(demo_file))
    async with app.run_test(size=size) as pilot:
        await wait_for(lambda: isinstance(app.screen, OverviewScreen), pilot=pilot)
        # the broken catalog's incident, rooted at its crash-looping pod (R-DIAG-20)
        await _select(app, pilot, lambda r: "CatalogPodCrashLoopBackOff" in str(r.cells[1]))
        await pilot.press("t")
        await wait_for(lambda: isinstance(app.screen, TimelineScreen), pilot=pilot)
        screen = app.screen
        assert isinstance(screen, TimelineScreen)
        refs = {str(e.ref) for e in screen.timeline.entries}
        assert BROKEN in refs
        # the Subscriptions it blocks are its objects too
        assert any(r.startswith("Subscription ") for r in refs)
        await _paint_every_row(app, pilot)
        assert any("Timeline of incident" in line for line in _painted(app))
    assert app.return_code in (None, 0)


async def test_t_on_a_finding_opens_its_incident_timeline(demo_file: Path) -> None:
    app = OlmApp(_session(demo_file), initial_view="findings")
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(lambda: isinstance(app.screen, FindingsScreen), pilot=pilot)
        # a finding that follows from the broken catalog: its incident's timeline
        await _select(app, pilot, lambda r: "└ CatalogSourcesUnhealthy" in str(r.cells[1]))
        await pilot.press("t")
        await wait_for(lambda: isinstance(app.screen, TimelineScreen), pilot=pilot)
        assert BROKEN in {str(e.ref) for e in app.screen.timeline.entries}
    assert app.return_code in (None, 0)


async def test_t_without_a_row_says_what_to_select(demo_file: Path) -> None:
    app = OlmApp(_session(demo_file), initial_view="findings")
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(lambda: _table(app).row_count > 0, pilot=pilot)
        await pilot.press("slash", *"no-such-row", "enter")  # the filter keeps no row
        await settle(pilot)
        assert _table(app).row_count == 0
        await pilot.press("t")
        await settle(pilot)
        assert not isinstance(app.screen, TimelineScreen)
        assert any("select an incident" in str(n.message) for n in app._notifications)
    assert app.return_code in (None, 0)


def test_the_help_lists_the_timeline_key() -> None:
    assert any("t" in key.split() and "timeline" in what for key, what in KEYS)


async def test_cluster_text_is_never_read_as_markup(tmp_path: Path) -> None:
    sub = subscription("team-a", "etcd")
    sub["metadata"]["creationTimestamp"] = "2026-05-01T10:00:00Z"
    event = cluster_event(
        "team-a",
        "e1",
        kind="Subscription",
        obj_name="etcd",
        reason="[bold]Boom[/bold]",
        message="[link=http://x]click[/link] \x1b[31mred",
    )
    path = tmp_path / "hostile.yaml"
    path.write_text(yaml.safe_dump_all([sub, event]))
    app = OlmApp(_session(path), initial_view="namespaces")
    async with app.run_test(size=(200, 30)) as pilot:
        await _select(app, pilot, lambda r: r.key == "team-a")
        await pilot.press("t")
        await wait_for(lambda: isinstance(app.screen, TimelineScreen), pilot=pilot)
        await settle(pilot)
        shown = "\n".join(_painted(app))
        assert "[bold]Boom[/bold]" in shown and "[link=http://x]click[/link]" in shown
        assert "\x1b" not in shown
    assert app.return_code in (None, 0)


@pytest.fixture
def sample_cluster(tmp_path: Path):
    from importlib.resources import files

    objects = [
        o
        for o in yaml.safe_load_all(
            files("olmtui").joinpath("samples", "cluster.yaml").read_bytes()
        )
        if o
    ]
    server = LoopbackAPIServer()
    server.state.load(objects, skip_unknown=True)
    thread = run_in_thread(server)
    yield thread, str(server.write_kubeconfig(tmp_path / "kubeconfig"))
    thread.stop()


async def test_a_condition_change_appears_in_the_open_live_timeline(sample_cluster) -> None:
    thread, kubeconfig = sample_cluster
    session = await asyncio.to_thread(live_session, LiveOptions(kubeconfig=kubeconfig))
    app = OlmApp(session, initial_view="namespaces")
    async with app.run_test(size=(200, 40)) as pilot:
        await wait_for(
            lambda: session.store.get("Subscription", "team-a", "etcd") is not None, pilot=pilot
        )
        await _select(app, pilot, lambda r: r.key == "team-a")
        await pilot.press("t")
        await wait_for(lambda: isinstance(app.screen, TimelineScreen), pilot=pilot)
        screen = app.screen
        assert isinstance(screen, TimelineScreen)
        before = len(screen.timeline.entries)
        changed = copy.deepcopy(session.store.get("Subscription", "team-a", "etcd"))
        changed["metadata"].pop("resourceVersion", None)
        changed.setdefault("status", {})["conditions"] = [
            {
                "type": "ResolutionFailed",
                "status": "True",
                "reason": "ConstraintsNotSatisfiable",
                "message": "no operators found",
                "lastTransitionTime": "2099-01-01T00:00:00Z",
            }
        ]
        thread.apply(changed)  # the cluster changes while the timeline is open
        await wait_for(
            lambda: any("ResolutionFailed=True" in e.what for e in screen.timeline.entries),
            "the new condition in the timeline",
            pilot=pilot,
        )
        assert len(screen.timeline.entries) >= before
        table = _table(app)
        assert table.cursor == table.row_count - 1  # it rode on the newest: still there
        await settle(pilot)
        shown = "\n".join(_painted(app))
        assert "ResolutionFailed=True (ConstraintsNotSatisfiable)" in shown
        assert "relative to now" in shown and " ago" in shown
    assert app.return_code in (None, 0)
