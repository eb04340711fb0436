"""Column sort (``s``/``S``, marked in the header), names shortened in the middle
with versions and finding codes whole, and the ``:ns`` namespace scope across views."""

from __future__ import annotations

from importlib.resources import files

from model_builders import csv, namespace, operator_group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from olmtui.model.incremental.engine import Model
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session
from olmtui.store import Store
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.overview import count
from olmtui.ui.sort_keys import number_key, severity_key, text_key, version_key
from olmtui.ui.widgets.source_header import SourceHeader
from olmtui.ui.widgets.virtual_table import Column, Row, Scope, VirtualTable

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))


def test_versions_sort_in_semver_order_not_as_text():
    versions = ["1.10.0", "v2.0.0", "-", "1.9.0", "1.10.0-rc.1", "1.2.0", "1.10.0-alpha"]
    assert sorted(versions, key=version_key) == [
        "1.2.0",
        "1.9.0",
        "1.10.0-alpha",
        "1.10.0-rc.1",
        "1.10.0",
        "v2.0.0",
        "-",
    ]


def test_a_version_of_thousands_of_digits_sorts_last_among_versions():
    """``int()`` refuses over 4,300 digits; the key compares digit runs without it."""
    huge = "4" * 4400
    versions = [f"{huge}.0.0", "1.0.0", f"1.0.0-{huge}", "1.0.0-2", "-", "010.0.0"]
    assert sorted(versions, key=version_key) == [
        "1.0.0-2",
        f"1.0.0-{huge}",
        "1.0.0",
        "010.0.0",
        f"{huge}.0.0",
        "-",
    ]


def test_counts_severities_and_names_sort_by_meaning():
    assert sorted(["12", "-", "9", "100"], key=number_key) == ["9", "12", "100", "-"]
    assert sorted(["info", "warning", "error"], key=severity_key) == ["error", "warning", "info"]
    assert sorted(["beta", "Alpha", "alpha-2"], key=text_key) == ["Alpha", "alpha-2", "beta"]


ROWS = [
    Row("a", ("beta", "1.10.0", "12", Text("info", style="cyan"))),
    Row("b", ("alpha", "1.9.0", "9", Text("error", style="red"))),
    Row("c", ("gamma", "1.2.0", "100", Text("warning", style="yellow"))),
]


class TableApp(App):
    def compose(self) -> ComposeResult:
        yield VirtualTable(
            (
                Column("name", "NAME"),
                Column("version", "VERSION", sort="version"),
                Column("count", "COUNT", sort="number"),
                Column("severity", "SEVERITY", sort="severity"),
            ),
            sortable=True,
            id="table",
        )

    def on_mount(self) -> None:
        table = self.query_one(VirtualTable)
        table.set_rows(ROWS)
        table.focus()


def _header(table: VirtualTable) -> str:
    return table.render_line(0).text


def _keys(table: VirtualTable) -> list:
    return [r.key for r in table.shown_rows]


async def test_s_cycles_the_sort_column_and_S_reverses_it_with_a_mark_in_the_header():
    app = TableApp()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(VirtualTable)
        await pilot.press("down")  # the cursor follows its row through sorts
        assert table.selected_key == "b"
        await pilot.press("s")
        assert table.sort_state == ("name", False)
        assert "NAME▲" in _header(table)
        assert _keys(table) == ["b", "a", "c"]
        assert table.selected_key == "b"
        await pilot.press("s")
        assert "VERSION▲" in _header(table) and "NAME▲" not in _header(table)
        assert _keys(table) == ["c", "b", "a"]  # 1.2.0 < 1.9.0 < 1.10.0
        await pilot.press("S")
        assert "VERSION▼" in _header(table)
        assert _keys(table) == ["a", "b", "c"]
        await pilot.press("s")
        assert _keys(table) == ["b", "a", "c"]  # 9 < 12 < 100
        await pilot.press("s")
        assert "SEVERITY▲" in _header(table)
        assert _keys(table) == ["b", "c", "a"]  # error, warning, info
        await pilot.press("s")  # past the last column: the view's own order again
        assert table.sort_state is None
        assert _keys(table) == ["a", "b", "c"]
        assert "▲" not in _header(table) and "▼" not in _header(table)


async def test_a_tested_scope_runs_its_test_once_per_row_not_per_filter_key():
    calls: list[object] = []

    def in_scope(row: Row) -> bool:
        calls.append(row.key)
        return row.key != "b"

    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(VirtualTable)
        table.set_scope(Scope("team-a", test=in_scope))
        assert _keys(table) == ["a", "c"]
        assert len(calls) == len(ROWS)
        for query in ("g", "ga", "gam", ""):
            table.set_filter(query)
            await pilot.pause()
        assert _keys(table) == ["a", "c"]
        assert len(calls) == len(ROWS)
        table.set_rows(ROWS)  # new rows: tested again
        assert len(calls) == 2 * len(ROWS)


async def test_sort_survives_new_rows_and_the_filter():
    app = TableApp()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(VirtualTable)
        table.set_sort("version", descending=True)
        table.set_rows([*ROWS, Row("d", ("delta", "1.10.1", "1", "info"))])
        await pilot.pause()
        assert _keys(table) == ["d", "a", "b", "c"]
        table.set_filter("a")  # alpha, beta, gamma, delta all hold an "a"
        table.set_filter("!delta")
        assert _keys(table) == ["a", "b", "c"]


async def test_sample_csvs_sort_by_version_in_semver_order():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        await pilot.press("s", "s", "s")
        assert "VERSION▲" in _header(table)
        versions = [r.cells[2] for r in table.shown_rows]
        assert versions == sorted(versions, key=version_key)
        assert versions.index("0.9.4-clusterwide") < versions.index("0.9.4")  # pre-release
        assert versions[-1] == "15.0.2"


OLM_NS = "openshift-operator-lifecycle-manager"
OPERATORS_NS = "openshift-operators"


def _long_names_session() -> Session:
    store = Store()
    objs = [namespace(OLM_NS), namespace(OPERATORS_NS)]
    for ns in (OLM_NS, OPERATORS_NS):
        objs.append(operator_group(ns, "global-operators", status=[""]))
        objs.append(
            csv(
                ns,
                f"a-rather-long-operator-name-in-{ns}.v4.18.0-202501010000",
                group="global-operators",
                targets="",
                version="4.18.0-202501010000",
            )
        )
    store.apply_many(objs)
    return Session(store, Model(store), "snapshot", "long names")


async def test_long_namespaces_are_cut_in_the_middle_and_versions_never():
    for width in (80, 120, 200):
        app = OlmApp(_long_names_session(), initial_view="csv")
        async with app.run_test(size=(width, 30)) as pilot:
            await pilot.pause()
            table = app.screen.query_one("#table", VirtualTable)
            lines = [table.render_line(y).text for y in (1, 2)]
            cells = [line.split("  ")[0].strip() for line in lines]
            assert len(set(cells)) == 2, (width, cells)
            for line in lines:
                assert "4.18.0-202501010000" in line, (width, line)
            if width == 120:
                assert any("…" in c for c in cells), cells
                assert {c.split("…")[-1] for c in cells} != {""}  # the ends stay visible
                assert cells[0].startswith("opensh") and cells[0].endswith("nager")
                assert cells[1] == OPERATORS_NS or cells[1].endswith("ators")


async def test_finding_codes_are_never_cut_at_80_columns():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="findings")
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        width = table.scrollable_content_region.width
        for index, row in enumerate(table.shown_rows):
            painted = table._paint(index, width, 0).text
            assert f" {row.cells[1]} " in painted or f"{row.cells[1]}  " in painted


def _title(app: OlmApp) -> str:
    return app.screen.query_one(SourceHeader).view_title


def _namespaces(app: OlmApp, column: int) -> set[str]:
    table = app.screen.query_one("#table", VirtualTable)
    return {
        c.plain if isinstance(c, Text) else c for c in (r.cells[column] for r in table.shown_rows)
    }


async def _command(pilot, line: str) -> None:
    pilot.app.run_command_line(line)
    await pilot.pause()
    await pilot.pause()


async def test_ns_scopes_every_view_and_survives_view_switches():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        everything = _namespaces(app, 0)
        assert len(everything) > 1
        await _command(pilot, "ns team-a")
        assert app.namespace_scope == "team-a"
        assert _namespaces(app, 0) == {"team-a"}
        assert "ns:team-a" in _title(app)
        await _command(pilot, "findings")
        assert _namespaces(app, 3) == {"team-a"}
        assert "ns:team-a" in _title(app)
        await _command(pilot, "sub")
        assert _namespaces(app, 0) <= {"team-a"}
        await _command(pilot, "og")
        assert _namespaces(app, 0) == {"team-a"}
        await _command(pilot, "namespaces")
        assert _namespaces(app, 0) == {"team-a"}
        await _command(pilot, "overview")
        table = app.screen.query_one("#table", VirtualTable)
        refs = [app.screen.ref_for(r.key) for r in table.shown_rows]  # type: ignore[attr-defined]
        assert refs and all(r is not None and r.namespace == "team-a" for r in refs)
        # the counts follow the scope too: team-a's own, said to be so
        store = app.session.store
        metrics = str(app.screen.query_one("#metrics", Static).render())
        subs = sum(1 for _ in store.list("Subscription", "team-a"))
        plans = sum(1 for _ in store.list("InstallPlan", "team-a"))
        assert subs != store.count("Subscription")
        assert metrics.startswith("in team-a: ")
        assert f"{count(subs, 'Subscription')}," in metrics
        assert f"{count(plans, 'InstallPlan')} ·" in metrics
        await _command(pilot, "ns")
        metrics = str(app.screen.query_one("#metrics", Static).render())
        assert not metrics.startswith("in ")
        assert f"{count(store.count('Subscription'), 'Subscription')}," in metrics
        await _command(pilot, "ns team-a")
        await _command(pilot, "csv")  # back to a view built before the scope: still scoped
        assert _namespaces(app, 0) == {"team-a"}


async def test_ns_alone_dash_or_all_clears_the_scope():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        everything = _namespaces(app, 0)
        for clear in ("ns", "ns -", "ns all"):
            await _command(pilot, "ns team-b")
            assert _namespaces(app, 0) == {"team-b"}
            await _command(pilot, clear)
            assert app.namespace_scope is None
            assert _namespaces(app, 0) == everything
            assert "ns:" not in _title(app)


async def test_ns_typed_in_the_prompt():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("colon", *"ns team-a", "enter")
        await pilot.pause()
        assert _namespaces(app, 0) == {"team-a"}
        assert app.current_mode == "csvs"


async def test_graph_views_say_the_scope_does_not_apply():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="graphs")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        rows = app.screen.query_one("#table", VirtualTable).row_count
        await _command(pilot, "ns team-a")
        assert app.screen.query_one("#table", VirtualTable).row_count == rows
        assert "not applied" in _title(app)


async def test_scope_set_under_a_detail_applies_when_the_list_is_back():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await _command(pilot, "ns team-b")
        await pilot.press("escape")
        await pilot.pause()
        assert _namespaces(app, 0) == {"team-b"}
        assert "ns:team-b" in _title(app)


async def test_a_namespace_no_object_is_in_shows_an_empty_scoped_view():
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await _command(pilot, "ns no-such-namespace")
        assert app.screen.query_one("#table", VirtualTable).row_count == 0
        assert "ns:no-such-namespace [0]" in _title(app)


async def test_the_cursor_keeps_its_row_when_the_scope_clears_and_under_a_sort():
    app = TableApp()
    async with app.run_test() as pilot:
        table = app.query_one(VirtualTable)
        table.set_scope(Scope("gamma", column=0))
        assert _keys(table) == ["c"]
        table.set_scope(None)  # every row again, in the given order: found by its key
        assert table.selected_key == "c" and table.cursor == 2
        # found from where the scoped rows sat, without mapping every row's key (100,000)
        assert table._positions is None
        table.set_sort("count")  # 9, 12, 100
        assert table.selected_key == "c" and table.cursor == 2
        table.set_scope(Scope("alpha", column=0))
        table.set_scope(None)
        assert table.selected_key == "b" and table.cursor == 0
        table.set_sort(None)
        assert table.selected_key == "b" and table.cursor == 1
        await pilot.pause()


async def test_a_scope_or_a_filter_keeps_the_table_height_and_the_detail_pane_still():
    """The table is as tall as its rows need before any scope or filter (up to 60%): ``:ns``
    and ``/`` hide rows without laying the view out again, so the detail pane stays where
    it was (and a switch at 100,000 rows stays within its time, bench/README.md)."""
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        before = (table.region, app.screen.query_one(".detail-pane").region)
        await _command(pilot, "ns team-b")
        assert len(table.shown_rows) < len(table._all)
        assert (table.region, app.screen.query_one(".detail-pane").region) == before
        await pilot.press("slash", *"no-such-row")
        await pilot.pause()
        assert table.row_count == 0
        assert (table.region, app.screen.query_one(".detail-pane").region) == before
