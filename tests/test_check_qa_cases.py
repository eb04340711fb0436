"""QA's reproduction cases (issue 2 follow-up), checked end to end as ``olmtui check`` reports
them: the JSON report and its text rendering, from the snapshots in tests/data/model/qa."""

from __future__ import annotations

from typing import Any

from model_builders import MODEL_DATA

from olmtui.cli import build_parser
from olmtui.commands.check import check
from olmtui.report import render_text

QA = MODEL_DATA / "qa"


def report_for(*argv: str) -> dict[str, Any]:
    return check(build_parser().parse_args(["check", *argv])).report


def csv_entry(report: dict[str, Any], namespace: str, name: str) -> dict[str, Any]:
    return next(c for c in report["csvs"] if (c["namespace"], c["name"]) == (namespace, name))


def test_r_api_6_remove_apis_verdict_is_null_and_the_text_tells_the_pending_strip() -> None:
    report = report_for(str(QA / "remove-apis.yaml"))
    bar = csv_entry(report, "ops3", "bar.v1.0.0")
    assert (bar["apiReconciliation"], bar["verdict"]) == ("RemoveAPIs", None)
    text = " ".join(render_text(report).split())
    assert ("bar.v1.0.0 1.0.0 Succeeded/InstallSucceeded -> next sync strips its APIs from the "
            "group (RemoveAPIs)") in text
    assert "next sync: Failed/InterOperatorGroupOwnerConflict" not in text


def test_r_og_1_text_names_a_group_that_selects_nothing_in_words() -> None:
    text = render_text(report_for(str(QA / "selector-matches-nothing.yaml")))
    assert "  sel/og-sel  no targets (selects no namespace)\n" in text
    assert "None" not in text
