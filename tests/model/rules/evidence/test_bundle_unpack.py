"""R-EVD-3, R-DIAG-21, R-DIAG-22: a failed bundle unpack, with the failed Job an older OLM
keeps, or, since operator-lifecycle-manager#3832, only the condition and the Event."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from model_builders import cluster_event, job, namespace, operator_group, subscription
from report_records import validate_report
from snapshot_files import yaml_documents

from olmtui.cli import main

MARKET = "openshift-marketplace"
UNPACK = {"operatorframework.io/bundle-unpack-ref": "abc123"}
MESSAGE = (
    "Bundle unpacking failed - DeadlineExceeded: Job was active longer than specified "
    "deadline. Auto-retry in ~5 min"
)


def failed_sub(name: str = "a") -> dict[str, Any]:
    sub = subscription("team-a", name, source="cat", source_ns=MARKET)
    sub["status"] = {
        "state": "UpgradePending",
        "conditions": [
            {
                "type": "BundleUnpackFailed",
                "status": "True",
                "reason": "BundleUnpackFailed",
                "message": MESSAGE,
            }
        ],
    }
    return sub


def check(tmp_path: Path, objects: list[dict[str, Any]]) -> dict[str, Any]:
    path = tmp_path / "state.yaml"
    path.write_text(
        yaml_documents(
            [namespace("team-a"), operator_group("team-a", "og", targets=["team-a"]), *objects]
        )
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(path), "--output", "json"])
    assert status in (0, 1)
    report: dict[str, Any] = json.loads(out.getvalue())
    validate_report(report)
    return report


def finding(report: dict[str, Any], code: str) -> dict[str, Any]:
    return next(f for f in report["findings"] if f["code"] == code)


def test_a_job_gone_by_design_is_said_so_with_the_condition_and_event_as_evidence(
    tmp_path: Path,
) -> None:
    warning = cluster_event(
        "team-a",
        "a.1",
        kind="Subscription",
        obj_name="a",
        reason="BundleUnpackFailed",
        message=MESSAGE,
        count=3,
    )
    report = check(tmp_path, [failed_sub(), warning])
    gone = finding(report, "BundleUnpackJobGone")
    assert gone["rule"] == "R-EVD-3"
    assert "gone by design, not missing" in gone["message"]
    assert {
        "kind": "Subscription",
        "namespace": "team-a",
        "name": "a",
        "field": "status.conditions[BundleUnpackFailed].message",
        "value": MESSAGE,
    } in gone["evidence"]
    events = [e["event"] for e in gone["evidence"] if "event" in e]
    assert [(e["reason"], e["count"]) for e in events] == [("BundleUnpackFailed", 3)]
    # R-DIAG-21: one unpack, one incident
    failed = finding(report, "BundleUnpackFailed")
    assert gone["cause"] == {
        "code": "BundleUnpackFailed",
        "kind": "Subscription",
        "namespace": "team-a",
        "name": "a",
    }
    assert gone["incident"] == failed["incident"]


def test_an_older_olm_keeps_the_failed_job_which_is_the_root(tmp_path: Path) -> None:
    failed_job = job(
        MARKET, "abc123", labels=UNPACK, failed="Job was active longer than specified deadline"
    )
    report = check(tmp_path, [failed_sub(), failed_job])
    root = finding(report, "BundleUnpackJobFailed")
    assert (root["kind"], root["namespace"], root["name"]) == ("Job", MARKET, "abc123")
    assert "Job was active longer than specified deadline" in root["message"]
    assert not any(f["code"] == "BundleUnpackJobGone" for f in report["findings"])
    failed = finding(report, "BundleUnpackFailed")
    assert failed["cause"] == {
        "code": "BundleUnpackJobFailed",
        "kind": "Job",
        "namespace": MARKET,
        "name": "abc123",
    }


def test_with_two_failed_jobs_which_is_whose_is_not_known(tmp_path: Path) -> None:
    jobs = [
        job(MARKET, "abc123", labels=UNPACK, failed="deadline"),
        job(
            MARKET,
            "def456",
            labels={"operatorframework.io/bundle-unpack-ref": "def456"},
            failed="x",
        ),
    ]
    report = check(tmp_path, [failed_sub(), *jobs])
    assert finding(report, "BundleUnpackFailed")["cause"] is None
    assert len([f for f in report["findings"] if f["code"] == "BundleUnpackJobFailed"]) == 2


def test_a_subscription_without_a_failed_unpack_has_no_unpack_finding(tmp_path: Path) -> None:
    report = check(tmp_path, [subscription("team-a", "a", source="cat", source_ns=MARKET)])
    assert not any(f["code"].startswith("BundleUnpack") for f in report["findings"])
