"""R-EVD-2 and R-DIAG-20: a CatalogSource's registry pod says why the catalog does not serve,
and is the root of the catalog's incident and of every Subscription it holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from model_builders import (
    catalog_source,
    cluster_event,
    namespace,
    operator_group,
    pod,
    subscription,
)
from report_records import checked_report

from olmtui.model.incremental.health import health_findings
from olmtui.model.records.types import Finding
from olmtui.store import Store

MARKET = "openshift-marketplace"
LABEL = {"olm.catalogSource": "broken"}


def pod_findings(*objects: dict[str, Any]) -> list[Finding]:
    store = Store()
    store.apply_many(objects)
    return [f for f in health_findings(store) if f.kind == "Pod"]


@pytest.mark.parametrize(
    ("unhealthy", "code", "words"),
    [
        (
            {"waiting": "CrashLoopBackOff", "restarts": 7, "last_terminated": "Error"},
            "CatalogPodCrashLoopBackOff",
            "CrashLoopBackOff (7 restarts, last ended Error)",
        ),
        (
            {"waiting": "ImagePullBackOff", "waiting_message": "manifest unknown"},
            "CatalogPodImagePull",
            "cannot pull its image (ImagePullBackOff: manifest unknown)",
        ),
        (
            {"waiting": "ErrImagePull"},
            "CatalogPodImagePull",
            "cannot pull its image (ErrImagePull)",
        ),
        (
            {"waiting": "CrashLoopBackOff", "restarts": 3, "last_terminated": "OOMKilled"},
            "CatalogPodOOMKilled",
            "killed for memory (OOMKilled, 3 restarts)",
        ),
        ({"ready": False, "restarts": 2}, "CatalogPodNotReady", "not Ready and restarted 2"),
    ],
)
def test_an_unhealthy_catalog_pod_is_a_finding_on_the_pod_naming_why(
    unhealthy: dict[str, Any], code: str, words: str
) -> None:
    found = pod_findings(
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        pod(MARKET, "broken-x7k2p", labels=LABEL, **unhealthy),
    )
    assert [(f.code, f.namespace, f.name, f.rule) for f in found] == [
        (code, MARKET, "broken-x7k2p", "R-EVD-2")
    ]
    assert words in found[0].message
    assert f"CatalogSource {MARKET}/broken" in found[0].message


@pytest.mark.parametrize(
    "fine",
    [
        {},  # running, ready, never restarted
        {"restarts": 4},  # restarted, but Ready now
        {"ready": False},  # starting: not Ready, never restarted
    ],
)
def test_a_healthy_catalog_pod_is_no_finding(fine: dict[str, Any]) -> None:
    found = pod_findings(
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        pod(MARKET, "broken-x7k2p", labels=LABEL, **fine),
    )
    assert found == []


def test_an_oom_kill_the_pod_recovered_from_is_no_finding() -> None:
    found = pod_findings(
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        pod(MARKET, "broken-x7k2p", labels=LABEL, restarts=1, last_terminated="OOMKilled"),
    )
    assert found == []


def test_a_failing_pod_of_a_catalog_still_ready_is_a_warning_that_says_it_serves() -> None:
    """operator-lifecycle-manager#3766: an image update's pod crash-loops while the old pod
    serves: the catalog is READY, nothing is blocked."""
    found = pod_findings(
        catalog_source(MARKET, "broken", state="READY"),
        pod(MARKET, "broken-upd", labels=LABEL, waiting="CrashLoopBackOff", restarts=6),
    )
    assert [(f.code, f.severity) for f in found] == [("CatalogPodCrashLoopBackOff", "warning")]
    assert "The catalog is READY all the same" in found[0].message
    assert "no Subscription" not in found[0].message


def test_only_the_pods_of_a_catalog_in_its_namespace_are_its_own() -> None:
    found = pod_findings(
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        pod("elsewhere", "broken-a", labels=LABEL, waiting="CrashLoopBackOff", restarts=5),
        pod(MARKET, "other-b", labels={"olm.catalogSource": "other"}, waiting="ErrImagePull"),
        pod(MARKET, "plain-c", waiting="CrashLoopBackOff", restarts=5),
    )
    assert found == []


def incident_of(report: dict[str, Any], code: str) -> dict[str, Any]:
    return next(i for i in report["incidents"] if i["root"]["code"] == code)


def test_r_diag_20_a_crash_looping_catalog_pod_is_the_root_of_the_catalog_and_its_subscriptions(
    tmp_path: Path,
) -> None:
    sub = subscription("team-a", "a", source="broken", source_ns=MARKET)
    objects = [
        namespace(MARKET),
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        pod(MARKET, "broken-x7k2p", labels=LABEL, waiting="CrashLoopBackOff", restarts=9),
        cluster_event(
            MARKET,
            "broken-x7k2p.1",
            kind="Pod",
            obj_name="broken-x7k2p",
            reason="BackOff",
            message="Back-off restarting failed container registry-server",
            count=31,
        ),
        namespace("team-a"),
        operator_group("team-a", "og", targets=["team-a"]),
        sub,
    ]
    report = checked_report(tmp_path, objects)
    incident = incident_of(report, "CatalogPodCrashLoopBackOff")
    assert incident["root"] == {
        "code": "CatalogPodCrashLoopBackOff",
        "kind": "Pod",
        "namespace": MARKET,
        "name": "broken-x7k2p",
    }
    consequences = {(c["code"], c["kind"]) for c in incident["consequences"]}
    assert ("CatalogSourceNotReady", "CatalogSource") in consequences
    catalog = next(f for f in report["findings"] if f["code"] == "CatalogSourceNotReady")
    assert catalog["incident"] == incident["id"]
    root = next(f for f in report["findings"] if f["code"] == "CatalogPodCrashLoopBackOff")
    assert {
        "kind": "Pod",
        "namespace": MARKET,
        "name": "broken-x7k2p",
        "field": "status.containerStatuses[registry-server].state.waiting.reason",
        "value": "CrashLoopBackOff",
    } in root["evidence"]
    assert {
        "event": {
            "involvedObject": {"kind": "Pod", "namespace": MARKET, "name": "broken-x7k2p"},
            "reason": "BackOff",
            "message": "Back-off restarting failed container registry-server",
            "type": "Warning",
            "count": 31,
            "lastTimestamp": "2026-05-01T10:00:00Z",
        }
    } in root["evidence"]


def test_r_diag_20_a_healthy_pod_takes_no_blame(tmp_path: Path) -> None:
    objects = [
        namespace(MARKET),
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        pod(MARKET, "broken-x7k2p", labels=LABEL),
    ]
    report = checked_report(tmp_path, objects)
    catalog = next(f for f in report["findings"] if f["code"] == "CatalogSourceNotReady")
    assert catalog["cause"] is None
    assert not any(f["kind"] == "Pod" for f in report["findings"])
