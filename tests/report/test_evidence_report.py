"""R-EVD-10 in the report: a must-gather with OLM's logs gives each finding's evidence its
object's fields, Events and log lines in the JSON (format 1, schema-valid), says what logs were
read in ``source.logs``, and lists the evidence under each finding and incident in Markdown."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

from data_paths import DATA
from report_records import validate_report

from olmtui.cli import main

MUST_GATHER = DATA / "logs" / "must-gather-logs"
CSV_NAME = "etcdoperator.v0.9.4"


def _check(output: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(MUST_GATHER), "--output", output])
    assert status == 1
    return out.getvalue()


def _finding(report: dict[str, Any], code: str) -> dict[str, Any]:
    return next(f for f in report["findings"] if f["code"] == code)


def test_the_json_evidence_holds_fields_events_and_log_lines_in_their_shapes() -> None:
    report = json.loads(_check("json"))
    validate_report(report)
    evidence = _finding(report, "CSVFailed")["evidence"]
    assert evidence[0] == {
        "kind": "ClusterServiceVersion",
        "namespace": "openshift-operators",
        "name": CSV_NAME,
        "field": None,
        "value": None,
    }
    fields = {e["field"]: e["value"] for e in evidence if e.get("field")}
    assert fields == {
        "status.phase": "Failed",
        "status.reason": "InstallCheckFailed",
        "status.message": "install timeout",
    }
    events = [e["event"] for e in evidence if "event" in e]
    assert [(e["reason"], e["lastTimestamp"]) for e in events] == [
        ("InstallCheckFailed", "2026-11-28T11:25:00Z"),
        ("InstallWaiting", "2026-11-28T11:22:00Z"),
    ]
    logs = [e["log"] for e in evidence if "log" in e]
    assert [sorted(e) for e in logs] == [["container", "line", "pod", "time"]] * 4
    assert [e["time"] for e in logs] == sorted(e["time"] for e in logs)
    assert logs[-1] == {
        "pod": "olm-operator-5f9c7d8b6-x2x4z",
        "container": "olm-operator",
        "time": "2026-11-28T11:25:00.500000000Z",
        "line": "E1128 11:25:00.500000       1 queueinformer_operator.go:319] sync "
        '{"update" "openshift-operators/etcdoperator.v0.9.4"} failed: install timeout',
    }
    # a line about another CSV of another namespace is not this one's evidence
    assert all("other.v1.0.0" not in e["line"] for e in logs)
    assert report["source"]["logs"] == {"files": 4, "lines": 12, "cut": []}


def test_a_subscription_s_evidence_names_the_catalog_operator_s_line_about_it() -> None:
    report = json.loads(_check("json"))
    logs = [e["log"] for e in _finding(report, "CatalogSourceMissing")["evidence"] if "log" in e]
    assert [e["pod"] for e in logs] == ["catalog-operator-7c9f6d4b5-k8s2p"]
    assert "sub=etcd namespace=openshift-operators" in logs[0]["line"]


def test_markdown_lists_the_evidence_under_each_finding_and_incident_inert() -> None:
    markdown = _check("markdown")
    assert "OLM logs: 4 files, 12 lines read." in markdown
    findings = markdown.split("## Findings by object", 1)[1]
    assert (
        "  Evidence:\n  - ClusterServiceVersion openshift-operators/etcdoperator.v0.9.4 "
        "`.status.phase` = Failed" in findings
    )
    assert "  - event 2026-11-28T11:25:00Z Warning InstallCheckFailed: install timeout" in findings
    assert (
        "  - log 2026-11-28T11:25:00.400000000Z olm-operator-5f9c7d8b6-x2x4z/olm-operator: "
        'time="2026-11-28T11:25:00Z" level=warning' in findings
    )
    incidents = markdown.split("## Incidents", 1)[1].split("## Findings by object")[0]
    assert "  - evidence:\n    - ClusterServiceVersion" in incidents
    assert "    - ... and 4 more (`olmtui check --output json`)" in incidents


def test_the_text_report_says_what_logs_were_read() -> None:
    assert "OLM logs: 4 files, 12 lines read" in _check("text")
