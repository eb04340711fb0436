"""The difference of two objects in the fields that matter (R-REC-6), noise left out
(R-REC-7), and what one side could not see said neither added nor removed (R-REC-8)."""

from __future__ import annotations

import copy

from model_builders import csv, subscription
from v1_objects import extension

from olmtui.model.diff.compare import DiffSide, compare
from olmtui.model.diff.fields import FIELD_LIMIT, field_changes
from olmtui.model.records.types import ObjectRef

CSV_REF = ObjectRef("ClusterServiceVersion", "ops", "pkg.v1")
SUB_REF = ObjectRef("Subscription", "ops", "sub")


def test_heartbeat_times_and_bookkeeping_are_no_change() -> None:
    before = subscription("ops", "sub", installed="pkg.v1", state="AtLatestKnown")
    before["metadata"].update(resourceVersion="1", generation=1)
    before["status"].update(
        lastUpdated="2026-01-01T00:00:00Z",
        catalogHealth=[{"catalogSourceRef": {"name": "cat"}, "lastUpdated": "t1"}],
    )
    after = copy.deepcopy(before)
    after["metadata"].update(resourceVersion="2", generation=2, managedFields=[{"m": 1}])
    after["status"].update(
        lastUpdated="2026-01-02T00:00:00Z",
        catalogHealth=[{"catalogSourceRef": {"name": "cat"}, "lastUpdated": "t2"}],
    )
    assert field_changes("Subscription", before, after) == []


def test_a_csv_phase_history_and_certificate_times_are_noise_only_in_a_csv() -> None:
    before = csv("ops", "pkg.v1", status={"conditions": [{"phase": "Pending"}]})
    after = copy.deepcopy(before)
    after["status"]["conditions"].append({"phase": "Succeeded"})
    after["status"]["certsRotateAt"] = "2027-01-01T00:00:00Z"
    assert field_changes("ClusterServiceVersion", before, after) == []


def test_conditions_are_matched_by_type_so_a_reorder_is_no_change() -> None:
    before = extension()
    after = copy.deepcopy(before)
    after["status"]["conditions"].reverse()
    assert field_changes("ClusterExtension", before, after) == []
    after["status"]["conditions"][0]["reason"] = "Retrying"
    (change,) = field_changes("ClusterExtension", before, after)
    kind = after["status"]["conditions"][0]["type"]
    assert change.field == f"status.conditions[{kind}].reason"
    assert change.after == "Retrying"


def test_an_empty_map_is_an_absent_one() -> None:
    before = subscription("ops", "sub")
    after = copy.deepcopy(before)
    after["status"] = {}
    before.pop("status")
    assert field_changes("Subscription", before, after) == []


def test_olm_fields_come_first_and_plain_lists_are_one_value() -> None:
    before = csv("ops", "pkg.v1", version="1.0.0", phase="Installing", reason="InstallWaiting")
    after = copy.deepcopy(before)
    after["metadata"]["labels"] = {"team": "a"}
    after["spec"]["version"] = "1.0.1"
    after["status"].update(phase="Succeeded", reason="InstallSucceeded")
    after["spec"]["keywords"] = ["a", "b"]
    fields = [c.field for c in field_changes("ClusterServiceVersion", before, after)]
    assert fields[:3] == ["spec.version", "status.phase", "status.reason"]
    assert "spec.keywords" in fields and "metadata.labels.team" in fields


def _side(*objects: dict, report: dict | None = None, **extra: object) -> DiffSide:
    held = {
        ObjectRef(o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]): o
        for o in objects
    }
    return DiffSide(held, report or {}, **extra)  # type: ignore[arg-type]


def test_a_kind_one_side_could_not_read_is_neither_added_nor_removed() -> None:
    sub = subscription("ops", "sub")
    before = _side(sub, csv("ops", "pkg.v1"))
    after = _side(
        csv("ops", "pkg.v1"),
        unreadable={"Subscription": (None, "subscriptions")},
    )
    diff = compare(before, after)
    assert diff.removed == () and diff.empty
    assert [(n.kind, n.side) for n in diff.not_compared] == [("Subscription", "to")]
    # a namespace it did not read, likewise
    scoped = _side(csv("ops", "pkg.v1"), read_namespaces=frozenset({"ops"}))
    wider = _side(csv("ops", "pkg.v1"), csv("other", "x.v1"))
    assert compare(wider, scoped).empty


def test_an_object_changed_in_many_fields_lists_some_and_counts_the_rest() -> None:
    before = csv("ops", "pkg.v1")
    after = copy.deepcopy(before)
    after["metadata"]["labels"] = {f"l{n:02}": "x" for n in range(FIELD_LIMIT + 5)}
    (change,) = compare(_side(before), _side(after)).changed
    assert len(change.what) == FIELD_LIMIT and change.more == 5


def test_findings_and_incidents_are_matched_by_identity_not_message() -> None:
    def finding(message: str) -> dict:
        return {
            "severity": "error",
            "code": "CSVFailed",
            "kind": "ClusterServiceVersion",
            "namespace": "ops",
            "name": "pkg.v1",
            "message": message,
            "rule": "R-CSV-F",
        }

    def incident(message: str) -> dict:
        root = {"code": "CSVFailed", "kind": "ClusterServiceVersion", "namespace": "ops"}
        return {"id": "x", "root": {**root, "name": "pkg.v1"}, "summary": message}

    before = _side(report={"findings": [finding("for 1h")], "incidents": [incident("1h")]})
    after = _side(report={"findings": [finding("for 2h")], "incidents": [incident("2h")]})
    diff = compare(before, after)
    assert diff.empty and diff.unchanged_findings == 1
    gone = compare(before, _side(report={"findings": [], "incidents": []}))
    assert [f["code"] for f in gone.resolved_findings] == ["CSVFailed"]
    assert len(gone.resolved_incidents) == 1 and not gone.new_findings


def test_a_namespace_a_snapshot_took_to_exist_is_not_compared() -> None:
    from model_builders import namespace

    inferred = _side(namespace("ops", bare=True), inferred=frozenset({"ops"}))
    assert compare(inferred, _side(namespace("ops", {"team": "a"}))).empty
    assert compare(inferred, _side()).empty


def test_operators_are_not_said_installed_when_one_side_could_not_read_subscriptions() -> None:
    report = {
        "subscriptions": [
            {"namespace": "ops", "name": "sub", "package": "pkg", "installedCSV": "pkg.v1"}
        ],
        "csvs": [{"namespace": "ops", "name": "pkg.v1", "version": "1.0.0"}],
    }
    blind = _side(report={}, unreadable={"Subscription": (None, "subscriptions")})
    assert compare(blind, _side(report=report)).operators == ()
    (operator,) = compare(_side(report={}), _side(report=report)).operators
    assert (operator.package, operator.before, operator.after) == ("pkg", None, "1.0.0")


def test_the_bundle_a_cluster_extension_resolves_to_is_compared() -> None:
    def report(version: str) -> dict:
        resolved = {"bundle": f"argocd-operator.v{version}", "version": version, "catalog": "c"}
        return {"clusterExtensions": [{"name": "argocd", "resolved": resolved}]}

    diff = compare(
        _side(extension(), report=report("0.6.0")), _side(extension(), report=report("0.7.0"))
    )
    (change,) = diff.changed
    assert [f.field for f in change.what] == ["resolved"]
    assert change.what[0].after["version"] == "0.7.0"
