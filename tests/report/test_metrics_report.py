"""The seed metrics in the ``check`` report: a ``metrics`` object in the JSON summary
(optional in the schema) and one line of the text output."""

from __future__ import annotations

import json

import jsonschema
from data_paths import DATA
from report_records import validate_report

from olmtui.cli import main
from olmtui.model.incremental.engine import Model
from olmtui.report import render_text, report_json
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

AZURE = DATA / "must-gather/must-gather-clean/must-gather-azure"


def _report(upgrade_count: int | None = None) -> dict:
    store = Store()
    result = load_snapshot([str(AZURE)], store)
    return report_json("snapshot", Model(store), store, result, upgrade_count=upgrade_count)


def test_check_json_summary_carries_the_seed_metrics(capsys) -> None:
    status = main(["check", str(AZURE), "--output", "json"])
    report = json.loads(capsys.readouterr().out)
    assert status in (0, 1)
    validate_report(report)
    metrics = report["summary"]["metrics"]
    assert metrics["csv_count"] == report["summary"]["csvs"] == 3
    assert metrics["install_plan_count"] == report["summary"]["installPlans"]
    assert metrics["subscription_count"] == report["summary"]["subscriptions"]
    assert metrics["catalog_source_count"] == report["summary"]["catalogSources"]
    assert [a["name"] for a in metrics["csv_abnormal"]] == [
        "image-caching-operator.v0.0.1",
        "projectrequestlimits.v0.0.1",
    ]
    assert (metrics["csv_upgrade_count"], metrics["csv_upgrade_count_source"]) == (0, "snapshot")
    assert metrics["subscription_sync_total"] is None
    assert set(metrics["notes"]) == {"csv_upgrade_count", "subscription_sync_total"}


def test_report_metrics_take_the_watchers_upgrade_count() -> None:
    metrics = _report(upgrade_count=4)["summary"]["metrics"]
    assert (metrics["csv_upgrade_count"], metrics["csv_upgrade_count_source"]) == (4, "watch")


def test_schema_keeps_metrics_optional_and_checks_them() -> None:
    report = _report()
    del report["summary"]["metrics"]
    validate_report(report)
    report = _report()
    report["summary"]["metrics"]["csv_upgrade_count_source"] = "guess"
    try:
        validate_report(report)
    except jsonschema.ValidationError:
        return
    raise AssertionError("an unknown csv_upgrade_count_source must not validate")


def test_text_report_prints_one_metrics_line() -> None:
    text = render_text(_report())
    lines = [line for line in text.splitlines() if line.startswith("Metrics: ")]
    assert lines == [
        "Metrics: catalog_source_count 6, csv_count 3, csv_succeeded 1, csv_abnormal 2, "
        "csv_upgrade_count 0 (snapshot), install_plan_count 2, subscription_count 2, "
        "subscription_sync_total not observable"
    ]
