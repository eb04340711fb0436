"""The dashboard on a cluster whose CSVs olmtui may not read (RBAC 403): the header settles
to "live, partial" and names what it may not read, the CSV view says "no access" instead of
"no ClusterServiceVersions", the Overview says ``csv_count ?``; access given back recovers."""

from __future__ import annotations

import asyncio

import pytest
from conftest import wait_for
from live_support import must_gather_objects

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.model.incremental.engine import Model
from olmtui.pipeline.build import live_session
from olmtui.pipeline.session import Session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.store import Store, Unreadable
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.overview import metrics_text
from olmtui.ui.widgets.source_header import header_text

CSV = "ClusterServiceVersion"


@pytest.fixture
def forbidding_cluster(tmp_path):
    server = LoopbackAPIServer(bookmark_interval=0.2)
    server.state.load(must_gather_objects(), skip_unknown=True)
    server.forbid("clusterserviceversions")
    thread = run_in_thread(server)
    yield server, str(server.write_kubeconfig(tmp_path / "kubeconfig"))
    thread.stop()


async def test_no_access_views_say_so_and_recover(forbidding_cluster):
    server, kubeconfig = forbidding_cluster
    options = LiveOptions(
        kubeconfig=kubeconfig,
        read_timeout=5,
        backoff_initial=0.02,
        backoff_max=0.2,
        forbidden_recheck=0.5,
    )
    session = await asyncio.to_thread(live_session, options)
    app = OlmApp(session, initial_view="csvs")
    async with app.run_test(size=(200, 40)) as pilot:
        await wait_for(lambda: session.status().state != "syncing", "settled", pilot=pilot)
        await wait_for(
            lambda: session.store.count("Subscription") == 2, "Subscriptions", pilot=pilot
        )
        # the streams its Subscriptions start (their namespaces' evidence) sync in turn:
        # "syncing" again until they did, on a busy machine past the line above
        await wait_for(lambda: session.status().state == "live, partial", "partial", pilot=pilot)
        status = session.status()
        assert status.state == "live, partial"
        header = header_text(session, "Operators (CSVs)", 200).plain
        assert "live, partial" in header
        assert "no access: clusterserviceversions (re-checked every 0.5 s)" in header
        table = app.screen.query_one("#table")
        empty = "no access to clusterserviceversions (RBAC): re-checked every 0.5 s"
        await wait_for(lambda: table.empty_text == empty, "the no-access text", pilot=pilot)
        assert table.row_count == 0
        overview = metrics_text(session).plain
        assert "? operators, ? not healthy, ? copies" in overview  # unknown is not zero
        assert "0 operators" not in overview

        server.allow("clusterserviceversions")
        await wait_for(lambda: session.status().state == "live", "live again", pilot=pilot)
        await wait_for(lambda: table.row_count == 3, "the CSVs shown", pilot=pilot)
        assert "no access" not in header_text(session, "Operators (CSVs)", 200).plain
        assert "3 operators" in metrics_text(session).plain


async def test_access_lost_after_load_marks_rows_as_the_last_seen(forbidding_cluster):
    server, kubeconfig = forbidding_cluster
    server.allow("clusterserviceversions")
    options = LiveOptions(
        kubeconfig=kubeconfig,
        read_timeout=5,
        backoff_initial=0.02,
        backoff_max=0.2,
        forbidden_recheck=0.5,
    )
    session = await asyncio.to_thread(live_session, options)
    app = OlmApp(session, initial_view="csvs")
    async with app.run_test(size=(200, 40)) as pilot:
        table = app.screen.query_one("#table")
        await wait_for(lambda: table.row_count == 3, "the CSVs shown", pilot=pilot)
        notice = app.screen.query_one("#access-notice")
        assert not notice.display
        server.forbid("clusterserviceversions")
        server.drop_connections()
        await wait_for(lambda: CSV in session.store.unreadable, "no access", pilot=pilot)
        await wait_for(lambda: notice.display, "the notice shown", pilot=pilot)
        assert table.row_count == 3
        shown = str(notice.render())
        assert "no access to clusterserviceversions since" in shown
        assert "showing the last data seen" in shown


async def test_r_mem_1_verdict_from_unreadable_groups_shows_as_unknown():
    """With OperatorGroups unreadable, Failed/NoOperatorGroup (R-MEM-1) is no verdict."""
    store = Store()
    store.apply_many(o for o in must_gather_objects() if o.get("kind") != "OperatorGroup")
    model = Model(store)
    assert any(c.verdict and c.verdict.reason == "NoOperatorGroup" for c in model.csvs())
    store.set_unreadable("OperatorGroup", Unreadable("operatorgroups", "403", 0.0, 60))
    app = OlmApp(Session(store, model, "live", "test"), initial_view="csvs")
    async with app.run_test(size=(200, 40)) as pilot:

        def verdicts() -> set[str]:
            return {row.cells[5].plain for row in app.screen.query_one("#table").shown_rows}

        await wait_for(lambda: "? (no access)" in verdicts(), "the unknown verdict", pilot=pilot)
        shown = verdicts()
        assert "? (no access)" in shown
        assert not any("NoOperatorGroup" in v for v in shown)


async def test_a_namespace_without_access_is_named_and_the_others_stay_live(tmp_path):
    """--namespace a --namespace b, CSVs forbidden in b only: the header, the CSV view's
    notice and the LiveNoAccess finding name b; a's CSVs are listed and stay live."""
    server = LoopbackAPIServer(bookmark_interval=0.2)
    server.state.load(must_gather_objects(), skip_unknown=True)
    server.forbid("clusterserviceversions", "openshift-monitoring")
    thread = run_in_thread(server)
    try:
        options = LiveOptions(
            kubeconfig=str(server.write_kubeconfig(tmp_path / "kubeconfig")),
            namespaces=["cfe-test-namespace", "openshift-monitoring"],
            read_timeout=5,
            backoff_initial=0.02,
            backoff_max=0.2,
            forbidden_recheck=0.5,
        )
        session = await asyncio.to_thread(live_session, options)
        app = OlmApp(session, initial_view="csvs")
        async with app.run_test(size=(200, 40)) as pilot:
            await wait_for(
                lambda: session.status().state == "live, partial", "settled", pilot=pilot
            )
            unreadable = session.store.unreadable[CSV]
            assert unreadable.namespaces == ("openshift-monitoring",)
            header = header_text(session, "Operators (CSVs)", 200).plain
            assert (
                "no access: clusterserviceversions in openshift-monitoring (re-checked every 0.5 s)"
            ) in header
            table = app.screen.query_one("#table")
            notice = app.screen.query_one("#access-notice")
            await wait_for(
                lambda: table.row_count > 0 and notice.display, "rows + notice", pilot=pilot
            )
            assert {str(row.cells[0]) for row in table.shown_rows} == {"cfe-test-namespace"}
            shown = str(notice.render())
            assert "no access to clusterserviceversions in openshift-monitoring since" in shown
            assert "rows in openshift-monitoring, if any, are the last seen" in shown
            warning = next(f for f in session.analysis.all_findings() if f.code == "LiveNoAccess")
            assert "in openshift-monitoring" in warning.message
            assert "leave openshift-monitoring out of --namespace" in warning.message
    finally:
        thread.stop()
