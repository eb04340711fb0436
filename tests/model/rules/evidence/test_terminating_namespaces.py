"""R-EVD-6 and R-DIAG-23: a namespace stuck Terminating on OLM's finalizers is the root; the
OLM objects keeping finalizers are its consequences."""

from __future__ import annotations

from typing import Any

from model_builders import csv, namespace, subscription

from olmtui.model.incremental.health import health_findings
from olmtui.model.records.types import Finding
from olmtui.store import Store

CLEANUP = "operators.coreos.com/csv-cleanup"
DELETED = "2026-11-20T09:00:00Z"
REMAINING = (
    "NamespaceFinalizersRemaining",
    "True",
    "SomeFinalizersRemain",
    f"Some content in the namespace has finalizers remaining: {CLEANUP} in 1 resource instances",
)


def findings(*objects: dict[str, Any]) -> list[Finding]:
    store = Store()
    store.apply_many(objects)
    return [f for f in health_findings(store) if f.rule == "R-EVD-6"]


def test_a_namespace_held_by_a_csv_finalizer_is_the_root_and_the_csv_its_consequence() -> None:
    found = findings(
        namespace("team-a", deleted=DELETED, conditions=(REMAINING,)),
        csv("team-a", "etcd.v1", finalizers=[CLEANUP]),
    )
    held = next(f for f in found if f.code == "NamespaceHeldByOLM")
    csv_finding = next(f for f in found if f.code == "OLMFinalizerHoldsNamespace")
    assert (held.kind, held.name) == ("Namespace", "team-a")
    assert "ClusterServiceVersion etcd.v1" in held.message
    assert "status.conditions[NamespaceFinalizersRemaining].message" in {
        e.field for e in held.evidence
    }
    assert (csv_finding.namespace, csv_finding.name) == ("team-a", "etcd.v1")
    assert "olm-operator removes operators.coreos.com/csv-cleanup" in csv_finding.message


def test_the_conditions_alone_name_olm_when_the_objects_are_not_in_the_input() -> None:
    found = findings(namespace("team-a", deleted=DELETED, conditions=(REMAINING,)))
    assert [f.code for f in found] == ["NamespaceHeldByOLM"]


def test_no_finding_where_the_input_shows_nothing_of_olm_holding_it() -> None:
    other = ("NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain", "example.com/x in 1")
    assert findings(namespace("team-a", deleted=DELETED, conditions=(other,))) == []
    assert findings(namespace("team-a", deleted=DELETED), csv("team-a", "etcd.v1")) == []
    # an Active namespace whose CSV carries OLM's finalizer, as every CSV does
    assert findings(namespace("team-a"), csv("team-a", "etcd.v1", finalizers=[CLEANUP])) == []


def test_only_objects_of_the_terminating_namespace_are_its_holders() -> None:
    found = findings(
        namespace("team-a", deleted=DELETED),
        namespace("team-b"),
        csv("team-a", "etcd.v1", finalizers=[CLEANUP]),
        csv("team-b", "etcd.v1", finalizers=[CLEANUP]),
        subscription("team-a", "etcd"),
    )
    assert sorted((f.code, f.namespace) for f in found) == [
        ("NamespaceHeldByOLM", ""),
        ("OLMFinalizerHoldsNamespace", "team-a"),
    ]
