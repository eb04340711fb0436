"""``olmtui check --sample``: the cluster dump shipped in the package, and what OLM makes of it.

The sample (``olmtui/samples/cluster.yaml``, real objects; its header tells the story) has an
API conflict between groups, a namespace with two OperatorGroups, a Manual Subscription next
to an Automatic one, and copied CSVs with one missing.
"""

from __future__ import annotations

import json
from importlib.resources import files

import pytest
from report_records import validate_report

from olmtui.cli import main

ETCD_APIS = [
    "EtcdBackup.v1beta2.etcd.database.coreos.com",
    "EtcdCluster.v1beta2.etcd.database.coreos.com",
    "EtcdRestore.v1beta2.etcd.database.coreos.com",
]


@pytest.fixture(scope="module")
def report() -> dict:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", "--sample", "--output", "json"])
    assert status == 1
    found = json.loads(out.getvalue())
    validate_report(found)
    return found


def csv_in(report: dict, namespace: str, name: str) -> dict:
    (found,) = [c for c in report["csvs"] if (c["namespace"], c["name"]) == (namespace, name)]
    return found


def test_sample_ships_inside_the_package() -> None:
    text = files("olmtui").joinpath("samples", "cluster.yaml").read_text("utf-8")
    assert text.startswith("# olmtui sample cluster")


def test_sample_summary_counts(report: dict) -> None:
    assert report["source"]["kind"] == "snapshot"
    assert report["source"]["objects"] == 41 and report["source"]["skipped"] == 0
    summary = {k: v for k, v in report["summary"].items() if k not in ("findings", "metrics")}
    assert summary == {
        "namespaces": 6,
        "operatorGroups": 5,
        "csvs": 5,
        "copiedCSVs": 14,
        "subscriptions": 5,
        "installPlans": 5,
        "catalogSources": 3,
        "subscriptionsBehindHead": 0,
        "subscriptionsHeadUnknown": 5,
        # R-DIAG-3, R-DIAG-5: two of the six errors follow from another one
        "incidents": {"error": 3, "warning": 3, "info": 5},
    }


def test_r_api_5_own_namespace_etcd_conflicts_with_the_global_etcd(report: dict) -> None:
    conflicted = csv_in(report, "team-a", "etcdoperator.v0.9.4")
    assert conflicted["operatorGroup"] == "team-a/team-a-og"
    assert conflicted["apiReconciliation"] == "APIConflict"
    assert conflicted["verdict"]["reason"] == "InterOperatorGroupOwnerConflict"
    assert conflicted["conflicts"] == [
        {
            "operatorGroup": "openshift-operators/global-operators",
            "apis": ETCD_APIS,
            "namespaces": ["team-a"],
        }
    ]
    assert conflicted["expectedCopies"] == []
    winner = csv_in(report, "openshift-operators", "etcdoperator.v0.9.4-clusterwide")
    assert winner["verdict"] is None and winner["apiReconciliation"] == "NoAPIConflict"
    codes = {
        (f["code"], f["namespace"], f["name"])
        for f in report["findings"]
        if f["severity"] == "error"
    }
    assert ("InterOperatorGroupOwnerConflict", "team-a", "etcdoperator.v0.9.4") in codes


def test_r_mem_2_two_groups_in_team_b_fail_keycloak(report: dict) -> None:
    keycloak = csv_in(report, "team-b", "keycloak-operator.v15.0.2")
    assert keycloak["operatorGroup"] is None
    assert keycloak["verdict"]["reason"] == "TooManyOperatorGroups"
    team_b = [o["name"] for o in report["operatorGroups"] if o["namespace"] == "team-b"]
    assert team_b == ["keycloak-og", "team-b-og"]
    errors = {f["code"] for f in report["findings"] if f["severity"] == "error"}
    assert "TooManyOperatorGroups" in errors


def test_r_sub_4_manual_subscription_makes_its_neighbour_manual(report: dict) -> None:
    approvals = {
        s["name"]: (s["approval"], s["effectiveApproval"])
        for s in report["subscriptions"]
        if s["namespace"] == "cfe-test-namespace"
    }
    assert approvals == {
        "image-caching-operator-v0-0-1-sub": ("Manual", "Manual"),
        "projectrequestlimits-v0-0-1-sub": ("Automatic", "Manual"),
    }


def test_r_copy_3_copies_present_and_the_missing_one(report: dict) -> None:
    assert report["copiedCSVs"] == {
        "present": 14,
        "missing": [
            {"csv": "cfe-test-namespace/projectrequestlimits.v0.0.1", "namespace": "team-b"}
        ],
        "stale": [],
    }
    global_etcd = csv_in(report, "openshift-operators", "etcdoperator.v0.9.4-clusterwide")
    assert global_etcd["expectedCopies"] == [
        "cfe-test-namespace",
        "default",
        "openshift-marketplace",
        "team-a",
        "team-b",
    ]


def test_sample_lists_are_sorted_as_the_format_states(report: dict) -> None:
    def keys(items: list[dict]) -> list[tuple[str, str]]:
        return [(i["namespace"], i["name"]) for i in items]

    for section in ("operatorGroups", "csvs", "subscriptions"):
        assert keys(report[section]) == sorted(keys(report[section]))
    order = {"error": 0, "warning": 1, "info": 2}
    finding_keys = [
        (order[f["severity"]], f["code"], f["namespace"] or "", f["name"] or "")
        for f in report["findings"]
    ]
    assert finding_keys == sorted(finding_keys)
