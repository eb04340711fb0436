"""RBAC: "no access" must mean "no access", never "nothing there".

The QA repro: the loopback API server holding the real Azure must-gather (131 CSVs, 128 of
them copies) forbids clusterserviceversions. The findings that rest on the absence of CSVs
(R-API-8 StaleProvidedAPIs, R-COPY-3/6 copy findings) must not appear, the metrics over
CSVs are unknown, and access given back (or taken away after the first load) shows.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from conftest import wait_for
from live_support import (
    converged,
    fast_options,
    must_gather_objects,
    start_server,
    started_source,
    stop_source,
)
from report_records import validate_report

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.cli import main
from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.model.viewmodels.metrics import seed_metrics
from olmtui.store import Store

CSV = "ClusterServiceVersion"
ABSENCE_CODES = {"StaleProvidedAPIs", "MissingCopiedCSV", "StaleCopiedCSV"}


@pytest.fixture
def azure_without_csvs(tmp_path: Path):
    """The Azure must-gather on a loopback server (in its own thread) that forbids CSVs."""
    server = LoopbackAPIServer()
    server.state.load(must_gather_objects(), skip_unknown=True)
    server.forbid("clusterserviceversions")
    thread = run_in_thread(server)
    kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
    yield server, str(kubeconfig)
    thread.stop()


def _check(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", "--live", *args])
    return code, out.getvalue()


def test_r_api_8_no_stale_provided_apis_from_csvs_olmtui_may_not_read(azure_without_csvs):
    _, kubeconfig = azure_without_csvs
    _, text = _check("--kubeconfig", kubeconfig, "--output", "json")
    report = json.loads(text)
    validate_report(report)
    codes = [f["code"] for f in report["findings"]]
    assert not ABSENCE_CODES & set(codes), codes
    no_access = [f for f in report["findings"] if f["code"] == "LiveNoAccess"]
    assert [(f["kind"], f["name"]) for f in no_access] == [(CSV, "clusterserviceversions")]
    assert no_access[0]["severity"] == "warning"
    assert "403" in no_access[0]["message"] and "StaleProvidedAPIs" in no_access[0]["message"]
    metrics = report["summary"]["metrics"]
    assert metrics["csv_count"] is None and metrics["csv_succeeded"] is None
    assert metrics["csv_upgrade_count"] is None
    assert "no access to clusterserviceversions" in metrics["notes"]["csv_count"]
    assert metrics["subscription_count"] == 2  # what was read is still counted


def test_check_text_says_unknown_not_zero(azure_without_csvs):
    _, kubeconfig = azure_without_csvs
    _, text = _check("--kubeconfig", kubeconfig)
    assert "csv_count ? (no access)" in text
    assert "? CSVs (no access), 2 Subscriptions" in text
    assert "csv_count 0" not in text
    assert "which no CSV of" not in text  # StaleProvidedAPIs' own message
    assert "LiveNoAccess" in text


async def test_r_api_8_the_same_cache_read_as_complete_would_invent_findings(tmp_path):
    """The control: the findings dropped above are what the model derives from the cache
    when nobody says the CSVs were unreadable, so the filter is what removes them."""
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    server.forbid("clusterserviceversions")
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await wait_for(lambda: CSV in store.unreadable, what="CSVs unreadable")
        await wait_for(lambda: store.count("Subscription") == 2, what="Subscriptions")
        model = Model(store)
        health = health_findings(store, (), model.subscriptions())
        blind = {f.code for f in merged_findings(model=model.findings(), health=health)}
        assert "StaleProvidedAPIs" in blind
        told = merged_findings(model=model.findings(), health=health, unreadable=store.unreadable)
        assert not ABSENCE_CODES & {f.code for f in told}
        assert seed_metrics(store, model).csv_count is None
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_access_given_back_is_seen_at_the_next_recheck(tmp_path):
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    server.forbid("clusterserviceversions")
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig, forbidden_recheck=0.3))
    try:
        await wait_for(lambda: CSV in store.unreadable, what="CSVs unreadable")
        unreadable = store.unreadable[CSV]
        assert unreadable.resource == "clusterserviceversions"
        assert unreadable.recheck == 0.3
        assert "ClusterServiceVersion (copies)" in unreadable.reason  # both streams said 403
        server.allow("clusterserviceversions")
        await converged(store, server)
        await wait_for(lambda: not store.unreadable, what="readable again")
        model = Model(store)
        assert seed_metrics(store, model).csv_count == 3
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_access_lost_after_the_first_load_keeps_the_last_rows_marked(tmp_path):
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    model = Model(store)
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        assert not store.unreadable
        before = model.version
        server.forbid("clusterserviceversions")
        server.drop_connections()  # the watches come back and meet the 403
        await wait_for(lambda: CSV in store.unreadable, what="CSVs unreadable")
        assert store.count(CSV) == 131, "the last data seen stays, marked"
        assert model.version > before, "the model saw the change of access"
        # the copies' stream may meet its 403 before this one does: wait for it, not race it
        await wait_for(
            lambda: source.status.stream(CSV).state == "no access",
            what="the CSV stream says no access",
        )
    finally:
        await stop_source(source, task)
        await server.stop()
