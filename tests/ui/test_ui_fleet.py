"""The Fleet dashboard (``olmtui replay --fleet``, ``olmtui --fleet``): a row per target with
its status and its own report's numbers, every row painted; Enter opens a target's dashboard
on the session built for it and Esc comes back, every other session kept (no reload); a
target's name is drawn as text, never markup; live targets (two loopback servers, one
refusing a kind: partial) stay watched, a change on one shows in its row, ``:ctx`` inside one
works as in one cluster's dashboard, and the run sends GET requests only."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import press, settle, wait_for
from fleet_view_support import fleet_folder, small_must_gather
from model_builders import csv, namespace, operator_group, subscription

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread
from olmtui.pipeline.build import catalog_session
from olmtui.pipeline.fleet import FleetSettings
from olmtui.pipeline.fleet_sessions import FleetEntry, FleetSessions, open_fleet
from olmtui.pipeline.fleet_targets import Target, TargetSpec, fleet_targets
from olmtui.ui.fleet_app import FLEET, FleetApp
from olmtui.ui.widgets.source_header import header_text
from olmtui.ui.widgets.virtual_table import VirtualTable

#: A target whose folder name reads as Rich markup.
MARKUP = "[bold red]evil"
SIZE = (160, 40)


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    inputs = fleet_folder(tmp_path_factory.mktemp("fleet-ui"))
    small_must_gather(inputs["folder"] / MARKUP, "1.0.0", "quay.io/x/index:v1")
    return inputs


def _fleet(inputs: dict[str, Path]) -> FleetSessions:
    spec = TargetSpec(paths=(str(inputs["folder"]), str(inputs["broken"])))
    return open_fleet(fleet_targets(spec), FleetSettings(parse_workers=None))


def _app(fleet: FleetSessions) -> FleetApp:
    return FleetApp(fleet, fleet.sessions()[0])


def _painted(table: VirtualTable) -> list[str]:
    """Every line of the table, each row painted (the table is as tall as its rows)."""
    return [table.render_line(y).text.rstrip() for y in range(table.row_count + 1)]


def _table(app: FleetApp) -> VirtualTable:
    return app.screen.query_one("#fleet-table", VirtualTable)


async def _rows_shown(app: FleetApp, pilot: Any) -> None:
    """Wait until the five targets' rows are drawn."""
    await wait_for(lambda: _table(app).row_count == 5, "the fleet's rows", pilot=pilot)


def _line(lines: list[str], name: str) -> list[str]:
    found = [line.split() for line in lines if line.split()[:1] == [name]]
    assert len(found) == 1, (name, lines)
    return found[0]


async def test_rows_statuses_and_numbers_painted_names_as_text(
    snapshots: dict[str, Path],
) -> None:
    fleet = _fleet(snapshots)
    app = _app(fleet)
    async with app.run_test(size=SIZE) as pilot:
        await _rows_shown(app, pilot)
        lines = _painted(_table(app))
        assert lines[0].split()[:3] == ["TARGET", "KIND", "STATUS"]
        # alpha, bravo (its operator Failed), charlie: the numbers of their own reports
        assert _line(lines, "alpha")[:8] == ["alpha", "snapshot", "ok", "0", "1", "0", "0", "0"]
        assert _line(lines, "bravo")[:8] == ["bravo", "snapshot", "ok", "1", "1", "1", "0", "0"]
        broken = _line(lines, "broken")
        assert broken[:3] == ["broken", "snapshot", "bad-input"]
        # its reason whole below the table when its row is highlighted
        assert _table(app).select_key("broken")
        await settle(pilot)
        detail = str(app.screen.query_one("#fleet-detail").render())
        assert "broken.tar.gz: no Kubernetes objects found" in detail
        # the folder's name is shown as it is: no markup parsed (its style would eat it)
        assert _line(lines, "[bold")[:3] == ["[bold", "red]evil", "snapshot"]
        rollup = str(app.screen.query_one("#fleet-rollup").render())
        assert "rule R-CSV-F (error) on 1 cluster: bravo" in rollup
        assert "package pkg at 2 versions" in rollup


async def test_enter_opens_a_target_and_esc_comes_back_keeping_every_session(
    snapshots: dict[str, Path],
) -> None:
    fleet = _fleet(snapshots)
    kept = {e.name: e.session for e in fleet.entries}
    app = _app(fleet)
    async with app.run_test(size=SIZE) as pilot:
        await _rows_shown(app, pilot)
        for name in ("bravo", "charlie", "bravo"):
            assert _table(app).select_key(name)
            await press(pilot, "enter")
            await wait_for(
                lambda n=name: app.session is kept[n] and app.current_mode == "overview",
                f"{name}'s dashboard",
                pilot=pilot,
            )
            assert name in header_text(app.session, "Overview").plain
            await press(pilot, "escape")
            await wait_for(lambda: app.current_mode == FLEET, "the Fleet view", pilot=pilot)
        # no target was read again: every entry holds the session it was built with
        assert {e.name: e.session for e in fleet.entries} == kept
        assert all(e.session is kept[e.name] for e in fleet.entries)
        # a target that could not be read opens nothing; its reason is said
        assert _table(app).select_key("broken")
        await press(pilot, "enter")
        await settle(pilot)
        assert app.current_mode == FLEET and app.session is kept["bravo"]


async def test_inside_a_target_esc_first_goes_back_through_its_views(
    snapshots: dict[str, Path],
) -> None:
    fleet = _fleet(snapshots)
    app = _app(fleet)
    async with app.run_test(size=SIZE) as pilot:
        await _rows_shown(app, pilot)
        assert _table(app).select_key("alpha")
        await press(pilot, "enter")
        await wait_for(lambda: app.current_mode == "overview", "alpha's overview", pilot=pilot)
        app.show_view("csvs")
        await settle(pilot)
        await press(pilot, "escape")
        await wait_for(lambda: app.current_mode == "overview", "back to the overview", pilot=pilot)
        await press(pilot, "escape")
        await wait_for(lambda: app.current_mode == FLEET, "the Fleet view", pilot=pilot)


# -- live -------------------------------------------------------------------------------------
def _objects(version: str) -> list[dict[str, Any]]:
    name = f"pkg.v{version}"
    return [
        namespace("ops"),
        operator_group("ops", "og"),
        csv("ops", name, version=version),
        subscription("ops", "pkg", installed=name, current=name, state="AtLatestKnown"),
    ]


@pytest.fixture(scope="module")
def clusters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("fleet-live")
    healthy, forbidding = LoopbackAPIServer(), LoopbackAPIServer()
    forbidding.forbid("installplans")
    threads: dict[str, ServerThread] = {}
    configs: dict[str, Path] = {}
    servers = {"healthy": healthy, "forbidding": forbidding}
    for name, server in servers.items():
        server.state.load(_objects("1.0.0"), skip_unknown=True)
        threads[name] = run_in_thread(server)
        configs[name] = server.write_kubeconfig(tmp / f"{name}.kubeconfig", context=name)
    try:
        yield {"threads": threads, "configs": configs, "servers": servers}
    finally:
        for thread in threads.values():
            thread.stop()


def _live_fleet(configs: dict[str, Path]) -> FleetSessions:
    targets = [
        Target(name, "live", kubeconfig=str(path), context=name) for name, path in configs.items()
    ]
    return open_fleet(targets, FleetSettings(connect_timeout=10.0, parse_workers=None))


def _row_of(app: FleetApp, name: str) -> list[str]:
    return _line(_painted(_table(app)), name)


async def test_live_targets_stay_watched_a_change_shows_in_its_row_get_only(
    clusters: dict[str, Any],
) -> None:
    # connecting runs an event loop of its own (as the command does, before the app's)
    fleet = await asyncio.to_thread(_live_fleet, clusters["configs"])
    entry = fleet.entry("healthy")
    assert isinstance(entry, FleetEntry) and entry.session is not None
    app = _app(fleet)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            lambda: (
                _row_of(app, "healthy")[2] == "ok" and _row_of(app, "forbidding")[2] == "partial"
            ),
            "both clusters synced",
            pilot=pilot,
        )
        assert "installplans" in " ".join(_row_of(app, "forbidding"))
        before = _row_of(app, "healthy")
        assert before[5] == "0"  # no operator not healthy
        # open the other cluster: the healthy one's watcher keeps running meanwhile
        assert _table(app).select_key("forbidding")
        await press(pilot, "enter")
        await wait_for(lambda: app.current_mode == "overview", "forbidding's view", pilot=pilot)
        failed = csv("ops", "pkg.v1.0.0", phase="Failed", reason="InstallComponentFailed")
        clusters["threads"]["healthy"].apply(failed)
        await wait_for(
            lambda: getattr(entry.counts(), "not_healthy", 0) == 1,
            "the change seen while another cluster is shown",
            pilot=pilot,
        )
        await press(pilot, "escape")
        await wait_for(
            lambda: app.current_mode == FLEET and _row_of(app, "healthy")[5] == "1",
            "the healthy cluster's row: one operator not healthy",
            pilot=pilot,
        )
        assert int(_row_of(app, "healthy")[3]) > int(before[3])  # R-CSV-F: an error more
        # :ctx inside a live target works as in one cluster's dashboard; the fleet's own
        # session of that target stays as it was
        assert _table(app).select_key("healthy")
        await press(pilot, "enter")
        await wait_for(lambda: app.session is entry.session, "healthy's view", pilot=pilot)
        app.run_command_line("ctx healthy")
        await wait_for(
            lambda: (
                app.session is not entry.session
                and app.session.store.count("ClusterServiceVersion") == 1
            ),
            "a new session of the context, read",
            pilot=pilot,
        )
        await press(pilot, "escape")
        await wait_for(lambda: app.current_mode == FLEET, "the Fleet view", pilot=pilot)
        assert fleet.entry("healthy") is entry and entry.session is not app.session
    for name, server in clusters["servers"].items():
        assert {r.method for r in server.requests} == {"GET"}, name


async def test_hundreds_of_targets_are_rows_the_last_one_reached() -> None:
    """Three hundred targets that could not be read (no cluster behind them): every row is
    in the table, End reaches the last and it is painted."""
    targets = [
        Target(f"cluster-{n:03}", "live", problem=f"[red]no kubeconfig {n}") for n in range(300)
    ]
    fleet = await asyncio.to_thread(open_fleet, targets, FleetSettings())
    app = FleetApp(fleet, await asyncio.to_thread(catalog_session, ()))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(lambda: _table(app).row_count == 300, "every row", pilot=pilot)
        await press(pilot, "end")
        assert _table(app).selected_key == "cluster-299"
        table = _table(app)
        shown = [table.render_line(y).text for y in range(table.size.height)]
        assert any("cluster-299" in line and "[red]no kubeconfig 299" in line for line in shown)
