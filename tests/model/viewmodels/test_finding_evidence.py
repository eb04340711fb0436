"""R-EVD-10: every finding's evidence: its rule's record, then its object's state fields (only
those it holds, none twice), the newest Events about it, the log lines naming it."""

from __future__ import annotations

import pytest
from model_builders import catalog_source, cluster_event, csv, install_plan, subscription

from olmtui.model.records.types import (
    EventEvidence,
    FieldEvidence,
    Finding,
    LogEvidence,
)
from olmtui.model.viewmodels.finding_evidence import (
    EVENTS_SHOWN,
    LOG_LINES_SHOWN,
    finding_evidence,
)
from olmtui.store import LogFileRead, LogLine, Obj, Store


def _store(*objs: Obj) -> Store:
    store = Store()
    store.apply_many(list(objs))
    return store


def _fields(finding: Finding, store: Store) -> dict[str, str]:
    return {
        e.field: e.value for e in finding_evidence(finding, store) if isinstance(e, FieldEvidence)
    }


@pytest.mark.parametrize(
    ("obj", "kind", "expected"),
    [
        (
            csv("ns", "a.v1", phase="Failed", reason="InstallCheckFailed"),
            "ClusterServiceVersion",
            {"status.phase": "Failed", "status.reason": "InstallCheckFailed"},
        ),
        (
            subscription(
                "ns", "sub", state="UpgradePending",
                conditions=(("ResolutionFailed", "True", "ConstraintsNotSatisfiable", "no op"),
                            ("CatalogSourcesUnhealthy", "False", "AllCatalogSourcesHealthy", "")),
            ),
            "Subscription",
            {"spec.source": "cat", "spec.sourceNamespace": "openshift-marketplace",
             "spec.channel": "stable", "status.state": "UpgradePending",
             "status.conditions[ResolutionFailed]": "True: ConstraintsNotSatisfiable: no op"},
        ),
        (
            catalog_source("ns", "cat", state="TRANSIENT_FAILURE"),
            "CatalogSource",
            {"spec.sourceType": "grpc",
             "status.connectionState.lastObservedState": "TRANSIENT_FAILURE"},
        ),
    ],
)  # fmt: skip
def test_a_finding_rests_on_the_fields_that_say_its_objects_state(
    obj: Obj, kind: str, expected: dict[str, str]
) -> None:
    name = obj["metadata"]["name"]
    finding = Finding("error", "X", kind, "ns", name, "m")
    fields = _fields(finding, _store(obj))
    assert {k: v for k, v in fields.items() if k in expected} == expected
    assert "status.conditions[CatalogSourcesUnhealthy]" not in fields  # False: no trouble


def test_an_install_plan_rests_on_its_approval_and_phase() -> None:
    plan = install_plan("ns", "install-1", "RequiresApproval", False)
    fields = _fields(Finding("warning", "X", "InstallPlan", "ns", "install-1", "m"), _store(plan))
    assert fields["spec.approval"] == "Manual"
    assert fields["spec.approved"] == "false"
    assert fields["status.phase"] == "RequiresApproval"


def test_an_absent_object_or_field_is_no_evidence_and_a_recorded_field_is_not_repeated() -> None:
    recorded = FieldEvidence("ClusterServiceVersion", "ns", "a.v1", "status.phase", "Failed")
    finding = Finding(
        "error", "X", "ClusterServiceVersion", "ns", "a.v1", "m", evidence=(recorded,)
    )
    store = _store(csv("ns", "a.v1", phase="Failed", reason=None))
    found = finding_evidence(finding, store)
    assert found[0] == recorded
    assert [e for e in found if isinstance(e, FieldEvidence)].count(recorded) == 1
    assert "status.reason" not in _fields(finding, store)
    gone = Finding("error", "X", "ClusterServiceVersion", "ns", "gone", "m")
    assert finding_evidence(gone, store) == ()


def test_the_newest_events_about_the_object_are_added_once() -> None:
    events = [
        cluster_event("ns", f"e{i}", kind="Subscription", obj_name="sub", reason=f"R{i}",
                      last=f"2026-05-01T10:{i:02d}:00Z")
        for i in range(EVENTS_SHOWN + 5)
    ]  # fmt: skip
    store = _store(subscription("ns", "sub"), *events)
    finding = Finding("error", "X", "Subscription", "ns", "sub", "m")
    shown = [e for e in finding_evidence(finding, store) if isinstance(e, EventEvidence)]
    assert [e.reason for e in shown] == [f"R{i}" for i in range(EVENTS_SHOWN + 4, 4, -1)]
    again = Finding("error", "X", "Subscription", "ns", "sub", "m", evidence=(shown[0],))
    assert [e for e in finding_evidence(again, store) if e == shown[0]] == [shown[0]]


def test_the_log_lines_naming_the_object_come_last_in_time_order_capped() -> None:
    store = _store(subscription("ns", "sub"))
    lines = [
        LogLine("catalog-operator-1", "catalog-operator", f"2026-05-01T10:00:{i:02d}Z", "info",
                f"line {i}", frozenset({("ns", "sub")}))
        for i in range(LOG_LINES_SHOWN + 3)
    ]  # fmt: skip
    store.logs.add(reversed(lines), LogFileRead("catalog-operator-1/catalog-operator", 23))
    found = finding_evidence(Finding("error", "X", "Subscription", "ns", "sub", "m"), store)
    logs = [e for e in found if isinstance(e, LogEvidence)]
    assert [e.line for e in logs] == [f"line {i}" for i in range(3, LOG_LINES_SHOWN + 3)]
    assert isinstance(found[-1], LogEvidence)
    assert logs[0] == LogEvidence(
        "catalog-operator-1", "catalog-operator", "2026-05-01T10:00:03Z", "info", "line 3"
    )
