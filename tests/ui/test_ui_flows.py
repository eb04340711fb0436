"""The main flows through the dashboard, driven with Textual's Pilot on the packaged sample
cluster (a real InterOperatorGroupOwnerConflict, two groups in one namespace, a Manual
Subscription) plus the published keycloak-operator alpha channel."""

from __future__ import annotations

import copy
import io
import os
import signal
from importlib.resources import files

import pytest
from conftest import wait_for
from data_paths import TESTS
from rich.console import Console

from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.csvs import CSVsScreen
from olmtui.ui.screens.graph import GraphScreen
from olmtui.ui.screens.object_detail import ObjectScreen, summary
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.widgets.source_header import SourceHeader
from olmtui.ui.widgets.virtual_table import VirtualTable
from olmtui.ui.widgets.yaml_view import YamlView

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
SIZE = (120, 36)


async def _filter(pilot, text: str) -> None:
    await pilot.press("slash")
    await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()


def _table(app: OlmApp) -> VirtualTable:
    return app.screen.query_one("#table", VirtualTable)


async def test_overview_to_conflicting_csv_to_the_other_operatorgroup_and_back(app):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)
        await _filter(pilot, "InterOperatorGroupOwnerConflict")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef(
            "ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4"
        )
        related = app.screen.query_one("#related", VirtualTable)
        conflict_row = next(
            i
            for i, row in enumerate(related.shown_rows)
            if str(row.cells[0]).startswith("conflicts")
        )
        for _ in range(conflict_row):
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.target == ObjectRef(
            "OperatorGroup", "openshift-operators", "global-operators"
        )
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.target.kind == "ClusterServiceVersion"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)
        assert _table(app).filter_text == "InterOperatorGroupOwnerConflict"


async def test_subscription_opens_its_upgrade_graph_on_the_installed_version(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("sub")
        await pilot.pause()
        await _filter(pilot, "keycloak")
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GraphScreen)
        table = _table(app)
        assert table.selected_key == "keycloak-operator.v15.0.2"
        marks = {row.key: row.cells[3].plain for row in table.shown_rows}
        assert "[installed]" in marks["keycloak-operator.v15.0.2"]
        assert "[next]" in marks["keycloak-operator.v15.1.0"]
        assert "[head]" in marks["keycloak-operator.v19.0.3"]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.VIEW_TITLE == "Subscriptions"


async def test_filter_and_inverted_filter_split_the_rows(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("csv")
        await pilot.pause()
        table = _table(app)
        total = table.row_count
        await _filter(pilot, "team-")
        matching = table.row_count
        assert all("team-" in r.haystack() for r in table.shown_rows)
        await _filter(pilot, "!team-")
        assert all("team-" not in r.haystack() for r in table.shown_rows)
        assert 0 < matching < total
        assert matching + table.row_count == total


async def test_copied_csvs_hidden_until_toggled(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("csv")
        await pilot.pause()
        table = _table(app)
        hidden = table.row_count
        await pilot.press("c")
        await pilot.pause()
        copies = app.session.model.copied_csvs().present
        assert copies > 0
        assert table.row_count == hidden + copies
        # the header says so, for as long as they are shown (no toast that goes)
        header = app.screen.query_one(SourceHeader)
        assert header.view_title.startswith("Operators (CSVs) + copies [")
        await pilot.press("c")
        await pilot.pause()
        assert table.row_count == hidden
        assert "copies" not in header.view_title


async def test_live_changes_log_receives_a_phase_transition(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("changes")
        await pilot.pause()
        assert _table(app).row_count == 0
        store = app.session.store
        obj = copy.deepcopy(store.get("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4"))
        obj["status"] = {"phase": "Pending", "reason": "RequirementsUnknown"}
        store.apply("MODIFIED", obj)
        # oldest first, as a log reads: both entries of the batch, nothing older
        await wait_for(
            lambda: (
                [r.cells[1].plain for r in _table(app).shown_rows] == ["phase", "conflict resolved"]
            ),
            "the batch's two entries",
            pilot=pilot,
        )
        rows = _table(app).shown_rows
        assert rows[0].cells[3].startswith("Failed -> Pending")
        assert rows[1].cells[2] == "ClusterServiceVersion team-a/etcdoperator.v0.9.4"


async def test_cursor_keeps_its_row_across_a_live_update(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("csv")
        await pilot.pause()
        assert isinstance(app.screen, CSVsScreen)
        table = _table(app)
        await pilot.press("down", "down")
        kept = table.selected_key
        cursor = table.cursor
        store = app.session.store
        new = copy.deepcopy(store.get("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4"))
        new["metadata"]["namespace"] = "aaa-first"
        new["metadata"]["name"] = "zz.v1"
        new["metadata"]["annotations"] = {}  # not a copy (R-COPY-1)
        store.apply("ADDED", new)
        await wait_for(
            lambda: (
                (("csv", "aaa-first", "zz.v1") in {r.key for r in table.shown_rows})
                and (table.selected_key == kept)
                and (table.cursor == cursor + 1)
            ),
            "('csv', 'aaa-first', 'zz.v1') in {r.key for r i...",
            pilot=pilot,
        )
        assert ("csv", "aaa-first", "zz.v1") in {r.key for r in table.shown_rows}
        assert table.selected_key == kept
        assert table.cursor == cursor + 1


async def test_colon_jumps_to_a_view_by_alias_and_escape_goes_back(app):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"og", "enter")
        await pilot.pause()
        assert app.screen.VIEW_TITLE == "OperatorGroups"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)


async def test_cluster_names_are_never_parsed_as_markup(app):
    async with app.run_test(size=SIZE) as pilot:
        store = app.session.store
        obj = copy.deepcopy(store.get("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4"))
        obj["metadata"]["name"] = "[bold]x[/bold]"
        obj["status"]["message"] = "[red]not markup[/]"
        store.apply("ADDED", obj)
        app.show_view("csv")
        await wait_for(
            lambda: any(r.cells[1] == "[bold]x[/bold]" for r in _table(app).shown_rows),
            "the added CSV's row",
            pilot=pilot,
        )
        await _filter(pilot, "[bold]")
        table = _table(app)
        assert table.row_count == 1
        assert table.shown_rows[0].cells[1] == "[bold]x[/bold]"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target.name == "[bold]x[/bold]"


async def test_object_detail_names_the_api_behind_each_olm_api_label(app):
    async with app.run_test(size=SIZE) as pilot:
        target = ObjectRef("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")
        app.open_object(target)
        await pilot.pause()
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(
            summary(app.session.store.get(target.kind, target.namespace, target.name), target)
        )
        rendered = console.export_text()
        assert "olm.api.2c1e6f7e17c07035" in rendered
        assert "EtcdBackup.v1beta2.etcd.database.coreos.com: label" in rendered
        assert app.screen.query_one(YamlView).text == ""  # nothing highlighted yet
        await pilot.press("y")
        await pilot.pause()
        assert "name: etcdoperator.v0.9.4" in app.screen.query_one(YamlView).text


async def test_command_palette_offers_every_view_and_the_screens_own_actions(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("csv")
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Copies" in titles and "Filter" in titles
        assert {f"Show {t}" for t in ("Overview", "OperatorGroups", "Findings")} <= set(titles)
        copies = next(c for c in app.get_system_commands(app.screen) if c.title == "Copies")
        before = _table(app).row_count
        copies.callback()
        await pilot.pause()
        assert _table(app).row_count > before


async def test_a_finding_offers_the_objects_it_names_to_jump_to(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("findings")
        await pilot.pause()
        await _filter(pilot, "InstallPlanFailed")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.target == ObjectRef(
            "Subscription", "cfe-test-namespace", "image-caching-operator-v0-0-1-sub"
        )
        related = app.screen.query_one("#related", VirtualTable)
        objects = [row.cells[1] for row in related.shown_rows]
        assert "InstallPlan cfe-test-namespace/install-bfnbn" in objects
        assert len(objects) == len(set(objects))  # a finding's object is listed once


async def test_extra_objects_come_first_in_the_detail(app):
    async with app.run_test(size=SIZE) as pilot:
        team_b = ObjectRef("Namespace", "", "team-b")
        app.open_object(
            ObjectRef("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4"),
            extra=[("MultipleOperatorGroupsFound", team_b)],
        )
        await pilot.pause()
        first = app.screen.query_one("#related", VirtualTable).shown_rows[0]
        assert first.cells == ("MultipleOperatorGroupsFound", "Namespace team-b")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.target == team_b


async def test_mouse_click_selects_a_row_and_double_click_opens_it(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("og")
        await pilot.pause()
        table = _table(app)
        await pilot.click("#table", offset=(2, 3))  # header line, then rows 0, 1, 2
        await pilot.pause()
        assert table.cursor == 2
        await pilot.click("#table", offset=(2, 3), times=2)
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef("OperatorGroup", *table.shown_rows[2].key)


async def test_graph_cycles_through_the_package_channels(app):
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("graph")
        await pilot.pause()
        await _filter(pilot, "etcd")
        assert _table(app).row_count == 0  # no etcd content was loaded, only keycloak
        await _filter(pilot, "keycloak")
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GraphScreen)
        assert screen.channel == "alpha"
        await pilot.press("c")  # the only channel: stays, and draws again
        await pilot.pause()
        assert screen.channel == "alpha"
        assert _table(app).row_count == 28


async def test_graph_from_packagemanifests_says_what_is_not_known():
    manifests = str(TESTS / "data" / "apiserver" / "mocks.packagemanifests.yaml")
    app = OlmApp(snapshot_session([SAMPLE, manifests], label="sample + PackageManifests"))
    async with app.run_test(size=SIZE) as pilot:
        app.show_view("graph")
        await pilot.pause()
        kinds = {row.cells[3] for row in _table(app).shown_rows}
        assert kinds == {"PackageManifest"}
        await _filter(pilot, "etcd alpha")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GraphScreen)
        info = app.screen.query_one("#graph-info")
        console = Console(width=300, record=True, file=io.StringIO())
        console.print(info.content)
        assert "only the head and its skipRange are known" in console.export_text()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
async def test_closing_the_terminal_or_kill_ends_the_app_like_q(app: OlmApp, signum: int) -> None:
    """SIGHUP (the terminal closed) and SIGTERM take the way out ``q`` takes, so commands
    release what they hold (the demo's server and temporary kubeconfig)."""
    async with app.run_test(size=SIZE) as pilot:
        # Sent only once the app has taken the signal over: otherwise it would end pytest.
        assert signal.getsignal(signum) not in (signal.SIG_DFL, None)
        os.kill(os.getpid(), signum)
        await wait_for(lambda: app.return_code == 0, "app.return_code == 0", pilot=pilot)
        assert app.return_code == 0
    assert signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler)
