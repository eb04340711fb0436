"""Pushed screens follow the cache: the object detail and its
YAML show the object's current state where the reader is, say when it was deleted, search
the YAML with ``/`` and ``n``/``N``, and ``g`` draws the graph of the object shown."""

from __future__ import annotations

import copy
import io

from conftest import redrawn, wait_for
from rich.console import Console

from olmtui.model.records.types import ObjectRef
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.graph import GraphScreen
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.widgets.yaml_pane import YamlPane
from olmtui.ui.widgets.yaml_view import YamlView, find_matches

SIZE = (120, 36)
SUB = ObjectRef("Subscription", "team-b", "keycloak-operator")
CSV = ObjectRef("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")


def _plain(renderable: object) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _summary(app: OlmApp) -> str:
    return _plain(app.screen.query_one("#object-summary").content)


def _yaml(app: OlmApp) -> YamlView:
    return app.screen.query_one(YamlView)


def _modified_sub(app: OlmApp, state: str) -> dict:
    obj = copy.deepcopy(app.session.store.get(SUB.kind, SUB.namespace, SUB.name))
    obj["status"]["state"] = state
    return obj


async def _open(app: OlmApp, pilot, ref: ObjectRef, tab: str = "summary") -> ObjectScreen:
    app.open_object(ref, tab)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ObjectScreen)
    return screen


async def test_yaml_follows_a_modified_subscription_and_keeps_the_scroll(app):
    async with app.run_test(size=SIZE) as pilot:
        await _open(app, pilot, SUB, "yaml")
        view = _yaml(app)
        assert "state: AtLatestKnown" in view.text
        view.scroll_to(y=3, animate=False, immediate=True)
        app.session.store.apply("MODIFIED", _modified_sub(app, "UpgradePending"))
        await wait_for(
            lambda: (
                ("state: UpgradePending" in view.text)
                and ("state: AtLatestKnown" not in view.text)
                and (view.scroll_y == 3)
            ),
            "'state: UpgradePending' in view.text",
            pilot=pilot,
        )
        assert "state: UpgradePending" in view.text
        assert "state: AtLatestKnown" not in view.text
        assert view.scroll_y == 3


async def test_summary_follows_a_modified_subscription(app):
    async with app.run_test(size=SIZE) as pilot:
        await _open(app, pilot, SUB)
        assert "AtLatestKnown" in _summary(app)
        app.session.store.apply("MODIFIED", _modified_sub(app, "UpgradePending"))
        await wait_for(
            lambda: ("UpgradePending" in _summary(app)) and ("AtLatestKnown" not in _summary(app)),
            "'UpgradePending' in _summary(app)",
            pilot=pilot,
        )
        assert "UpgradePending" in _summary(app)
        assert "AtLatestKnown" not in _summary(app)


async def test_a_deleted_object_keeps_its_last_state_under_a_plain_notice(app):
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, SUB, "yaml")
        notice = screen.query_one("#object-notice")
        assert not notice.has_class("-shown")
        gone = app.session.store.get(SUB.kind, SUB.namespace, SUB.name)
        app.session.store.apply("DELETED", gone)
        await wait_for(
            lambda: notice.has_class("-shown") and notice.display,
            "notice.has_class('-shown') and notice.display",
            pilot=pilot,
        )
        assert notice.has_class("-shown") and notice.display
        text = _plain(notice.content)
        assert "deleted at " in text and "showing its last state" in text
        assert "name: keycloak-operator" in _yaml(app).text  # the last state, not a blank
        assert "keycloak-operator" in _summary(app)
        app.session.store.apply("ADDED", gone)  # created again: the notice goes
        await wait_for(
            lambda: not notice.has_class("-shown"), "not notice.has_class('-shown')", pilot=pilot
        )
        assert not notice.has_class("-shown")


async def test_a_detail_catches_up_when_shown_again(app):
    async with app.run_test(size=SIZE) as pilot:
        await _open(app, pilot, SUB)
        await _open(app, pilot, CSV)  # the Subscription's detail is below, not shown
        app.session.store.apply("MODIFIED", _modified_sub(app, "UpgradePending"))
        await redrawn(pilot)  # the change drawn while the CSV's detail is up
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.target == SUB
        assert "UpgradePending" in _summary(app)


async def test_yaml_search_marks_matches_and_n_and_shift_n_step_through_them(app):
    async with app.run_test(size=SIZE) as pilot:
        await _open(app, pilot, CSV, "yaml")
        view = _yaml(app)
        expected = len(find_matches(view.text.split("\n"), "etcd"))
        assert expected > 3
        await pilot.press("slash", *"etcd", "enter")
        await pilot.pause()
        status = app.screen.query_one("#yaml-status")
        assert view.query_text == "etcd"
        assert view.match_status == f"match 1/{expected}"
        assert f"match 1/{expected}" in _plain(status.content)
        await pilot.press("n", "n")
        assert view.match_status == f"match 3/{expected}"
        await pilot.press("N", "N", "N")  # wraps from the first to the last
        assert view.match_status == f"match {expected}/{expected}"
        await pilot.press("n")
        assert view.match_status == f"match 1/{expected}"
        await pilot.press("escape")  # clears the search first
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert view.query_text == "" and view.match_status == ""
        await pilot.press("escape")  # then leaves
        await pilot.pause()
        assert not isinstance(app.screen, ObjectScreen)


async def test_yaml_search_scrolls_to_a_match_below_and_says_when_there_is_none(app):
    async with app.run_test(size=(120, 20)) as pilot:
        await _open(app, pilot, CSV, "yaml")
        view = _yaml(app)
        lines = view.text.split("\n")
        last = max(i for i, line in enumerate(lines) if "phase:" in line)
        assert last > 20
        await pilot.press("slash", *"phase:", "enter")
        await pilot.press("N")  # the last match: below the first page
        await pilot.pause()
        assert view.scroll_y <= last < view.scroll_y + view.scrollable_content_region.height
        await pilot.press("slash", *"no such text", "enter")
        await pilot.pause()
        assert view.match_status == "no match"


def test_search_is_smart_case() -> None:
    lines = ["kind: ClusterServiceVersion", "name: clusterserviceversion"]
    assert len(find_matches(lines, "clusterservice")) == 2
    assert find_matches(lines, "ClusterService") == [(0, 6, 20)]
    assert find_matches(lines, "") == []


async def test_slash_on_the_summary_searches_the_yaml(app):
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, SUB)
        await pilot.press("slash", *"keycloak", "enter")
        await pilot.pause()
        assert screen.query_one("ContentSwitcher").current == "yaml"
        assert screen.query_one(YamlPane).view.match_status.startswith("match 1/")


async def test_search_survives_a_live_update(app):
    async with app.run_test(size=SIZE) as pilot:
        await _open(app, pilot, SUB, "yaml")
        view = _yaml(app)
        await pilot.press("slash", *"state:", "enter")
        assert view.match_status == "match 1/1"
        app.session.store.apply("MODIFIED", _modified_sub(app, "UpgradePending"))
        await wait_for(
            lambda: ("state: UpgradePending" in view.text) and (view.match_status == "match 1/1"),
            "'state: UpgradePending' in view.text",
            pilot=pilot,
        )
        assert "state: UpgradePending" in view.text
        assert view.match_status == "match 1/1"


async def test_g_on_a_detail_draws_the_graph_of_the_object_shown(app):
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, SUB)
        related = screen.query_one("#related")
        related.action_jump(-1)  # a related row under the cursor does not change what g draws
        await pilot.press("g")
        await pilot.pause()
        graph = app.screen
        assert isinstance(graph, GraphScreen)
        assert graph.package.name == "keycloak-operator"
        assert graph.sub is not None and graph.sub.name == "keycloak-operator"


async def test_g_on_an_object_without_a_graph_says_so(app):
    async with app.run_test(size=SIZE) as pilot:
        await _open(app, pilot, ObjectRef("OperatorGroup", "team-a", "team-a-og"))
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        messages = [n.message for n in app._notifications]
        assert any("no upgrade graph for this OperatorGroup" in m for m in messages)


# -- the Changes view follows new events as tail -f does ----------------------------------


def _phase_change(app: OlmApp, phase: str) -> None:
    store = app.session.store
    obj = copy.deepcopy(store.get(CSV.kind, CSV.namespace, CSV.name))
    obj["status"] = {"phase": phase, "reason": "Testing", "message": f"now {phase}"}
    store.apply("MODIFIED", obj)


async def _changes(app: OlmApp, pilot, phases: list[str]) -> None:
    for phase in phases:
        _phase_change(app, phase)
        await redrawn(pilot)  # each change its own redraw, as events apart in time are


def _notice(app: OlmApp) -> str:
    return _plain(app.screen.query_one("#follow-notice").content)


async def test_changes_stay_pinned_to_the_newest_event_while_following(app):
    async with app.run_test(size=(120, 20)) as pilot:
        app.show_view("changes")
        await pilot.pause()
        table = app.screen.query_one("#table")
        phases = [p for _ in range(8) for p in ("Pending", "Installing")]
        await _changes(app, pilot, phases)
        assert table.row_count > table.scrollable_content_region.height
        assert table.cursor == table.row_count - 1  # on the newest row, at the bottom
        assert "-> Installing" in table.shown_rows[table.cursor].cells[3]
        bottom = round(table.scroll_y) + table.scrollable_content_region.height - 1
        assert bottom >= table.cursor  # and it is on screen
        assert "following new events" in _notice(app)


async def test_changes_scrolled_away_stay_put_and_count_new_events_until_end(app):
    async with app.run_test(size=(120, 20)) as pilot:
        app.show_view("changes")
        await pilot.pause()
        table = app.screen.query_one("#table")
        await _changes(app, pilot, ["Pending", "Installing", "Pending", "Installing"])
        await pilot.press("home")
        await pilot.pause()
        kept, top = table.selected_key, table.scroll_y
        before = app.change_log.newest_seq
        await _changes(app, pilot, ["Pending", "Installing"])
        arrived = app.change_log.newest_seq - before
        assert arrived >= 2
        assert table.selected_key == kept and table.cursor == 0 and table.scroll_y == top
        assert f"{arrived} new below, press End or G to follow" in _notice(app)
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor == table.row_count - 1
        assert "following new events" in _notice(app)
        await _changes(app, pilot, ["Pending"])
        assert table.cursor == table.row_count - 1  # following again
        await pilot.press("up")
        await pilot.pause()
        assert "not following" in _notice(app)
        await _changes(app, pilot, ["Installing"])
        await pilot.press("G")
        await pilot.pause()
        assert table.cursor == table.row_count - 1
        assert "-> Installing" in table.shown_rows[table.cursor].cells[3]


async def test_esc_in_the_search_prompt_cancels_the_search_only(app):
    async with app.run_test(size=SIZE) as pilot:
        await _open(app, pilot, CSV, "yaml")
        view = _yaml(app)
        await pilot.press("slash", *"etcd")
        await pilot.pause()
        assert view.match_status.startswith("match 1/")  # marked as typed
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert view.query_text == "" and view.has_focus


async def test_summary_keeps_its_scroll_across_a_live_update(app):
    async with app.run_test(size=(100, 16)) as pilot:
        screen = await _open(app, pilot, CSV)
        scroll = screen.query_one(".object-summary")
        assert scroll.max_scroll_y > 2
        scroll.scroll_to(y=2, animate=False, immediate=True)
        _phase_change(app, "Installing")
        await wait_for(
            lambda: ("Installing" in _summary(app)) and (scroll.scroll_y == 2),
            "'Installing' in _summary(app)",
            pilot=pilot,
        )
        assert "Installing" in _summary(app)
        assert scroll.scroll_y == 2
