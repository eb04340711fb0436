"""The JSON report of format 1, built from hand-made model records.

The records describe a real situation: the etcd operator installed cluster-wide by
``openshift-operators/global-operators`` and again, own-namespace, in ``team-a``, where it
fails with InterOperatorGroupOwnerConflict (R-API-5); two groups in ``team-b`` (R-MEM-2);
a Manual Subscription next to an Automatic one (R-SUB-4). They are fed to the report in
reverse order, so every sort the format promises is exercised.
"""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from report_records import (
    ETCD_APIS,
    build_model,
    build_report,
    cluster_store,
    model_findings,
    validate_report,
)

from olmtui.report import dumps, has_errors, load_schema, report_json


def test_report_validates_against_the_shipped_schema() -> None:
    validate_report(build_report())


def test_schema_is_draft_2020_12_and_itself_valid() -> None:
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    ("path", "field_name"),
    [
        ((), "findings"),
        (("summary",), "installPlans"),
        (("summary", "findings"), "info"),
        (("copiedCSVs",), "stale"),
        (("operatorGroups", 0), "statusNamespaces"),
        (("operatorGroups", 0), "intersecting"),
        (("csvs", 0), "verdict"),
        (("csvs", 0), "expectedCopies"),
        (("subscriptions", 0), "effectiveApproval"),
        (("subscriptions", 0, "upgrade"), "edges"),
        (("channels", 0), "errors"),
        (("findings", 0), "code"),
    ],
)
def test_schema_rejects_a_report_missing_a_required_field(path: tuple, field_name: str) -> None:
    report = build_report()
    target = report
    for step in path:
        target = target[step]
    del target[field_name]
    with pytest.raises(jsonschema.ValidationError):
        validate_report(report)


def test_schema_rejects_wrong_types() -> None:
    report = build_report()
    report["subscriptions"][0]["approval"] = ""
    with pytest.raises(jsonschema.ValidationError):
        validate_report(report)
    report = build_report()
    report["csvs"][0]["apiReconciliation"] = "Conflict"
    with pytest.raises(jsonschema.ValidationError):
        validate_report(report)


def test_top_level_fields_and_source() -> None:
    report = build_report()
    assert list(report) == [
        "format",
        "source",
        "summary",
        "operatorGroups",
        "csvs",
        "copiedCSVs",
        "subscriptions",
        "channels",
        "findings",
        "incidents",
        "resolution",
        "catalogSources",
        "installPlans",
        "clusterExtensions",
        "clusterCatalogs",
        "migration",
        "clusterUpgrade",
        "nextCatalog",
    ]
    assert report["format"] == 1
    assert report["source"] == {
        "kind": "snapshot",
        "paths": ["snapshots/cluster.yaml", "more/"],
        "objects": 42,
        "skipped": 1,
        "namespaces": None,
        "catalogContent": False,
        "gatheredAt": None,
        "newestObjectTime": None,
        "openshiftVersion": None,
        "olmVersion": None,
        "complete": True,
        "incompleteBecause": [],
        "logs": None,  # no OLM log in the input (R-EVD-10)
    }


def test_live_source_counts_the_cache_and_has_no_paths() -> None:
    report = report_json("live", build_model(), cluster_store())
    assert report["source"] == {
        "kind": "live",
        "paths": [],
        "objects": 3,
        "skipped": 0,
        "namespaces": None,
        "catalogContent": False,
        "gatheredAt": None,
        "newestObjectTime": None,
        "openshiftVersion": None,
        "olmVersion": None,
        "complete": True,
        "incompleteBecause": [],
        "logs": None,  # no OLM log in the input (R-EVD-10)
    }
    validate_report(report)


def test_summary_counts_records_and_store_kinds() -> None:
    summary = {k: v for k, v in build_report()["summary"].items() if k != "metrics"}
    assert summary == {
        "namespaces": 5,
        "operatorGroups": 3,
        "csvs": 3,
        "copiedCSVs": 3,
        "subscriptions": 2,
        "installPlans": 2,
        "catalogSources": 1,
        "findings": {"error": 2, "warning": 3, "info": 1},
        # without a diagnosis (no objects' relations given) every finding is an incident
        "incidents": {"error": 2, "warning": 3, "info": 1},
        # additions to format 1: one Subscription installed, no catalog content for it
        "subscriptionsBehindHead": 0,
        "subscriptionsHeadUnknown": 1,
    }


def test_findings_are_loader_plus_model_sorted_by_severity_code_namespace_name() -> None:
    keys = [
        (f["severity"], f["code"], f["namespace"], f["name"]) for f in build_report()["findings"]
    ]
    assert keys == [
        ("error", "InterOperatorGroupOwnerConflict", "team-a", "etcdoperator.v0.9.4"),
        ("error", "TooManyOperatorGroups", "team-b", "keycloak-operator.v15.0.2"),
        ("warning", "MissingCopiedCSV", "default", "etcdoperator.v0.9.4-clusterwide"),
        ("warning", "MissingCopiedCSV", "team-b", "etcdoperator.v0.9.4-clusterwide"),
        ("warning", "UnreadableDocument", None, "broken.yaml:12"),
        ("info", "InferredNamespace", None, "openshift-operators"),
    ]


def test_finding_carries_rule_and_related_objects() -> None:
    finding = build_report()["findings"][1]
    assert finding["rule"] == "R-MEM-2"
    assert finding["related"] == [
        {"kind": "OperatorGroup", "namespace": "team-b", "name": "team-b-og"},
        {"kind": "OperatorGroup", "namespace": "team-b", "name": "team-b-og-2"},
    ]
    assert finding["message"] == "two groups"


def test_operator_groups_sorted_and_their_lists_sorted() -> None:
    groups = build_report()["operatorGroups"]
    assert [(g["namespace"], g["name"]) for g in groups] == [
        ("openshift-operators", "global-operators"),
        ("team-a", "team-a-og"),
        ("team-b", "team-b-og"),
    ]
    global_og = groups[0]
    assert global_og["targetNamespaces"] == [""]
    assert global_og["statusNamespaces"] is None
    assert global_og["providedAPIs"] == list(ETCD_APIS)
    assert global_og["expectedProvidedAPIs"] == list(ETCD_APIS)
    assert global_og["members"] == ["etcdoperator.v0.9.4-clusterwide"]
    assert global_og["intersecting"] == [
        {"operatorGroup": "team-a/team-a-og", "namespaces": ["team-a"]},
        {"operatorGroup": "team-b/team-b-og", "namespaces": ["team-b"]},
    ]
    assert groups[1]["statusNamespaces"] == ["team-a"]


def test_csvs_sorted_with_verdict_conflicts_and_expected_copies() -> None:
    csvs = build_report()["csvs"]
    assert [(c["namespace"], c["name"]) for c in csvs] == [
        ("default", "broken.v0.0.1"),
        ("openshift-operators", "etcdoperator.v0.9.4-clusterwide"),
        ("team-a", "etcdoperator.v0.9.4"),
    ]
    broken, clusterwide, conflicted = csvs
    assert broken["version"] is None and broken["phase"] is None and broken["reason"] is None
    assert broken["verdict"] is None and broken["apiReconciliation"] is None
    assert broken["operatorGroup"] is None
    assert clusterwide["expectedCopies"] == ["cfe-test-namespace", "default", "team-a", "team-b"]
    assert conflicted["verdict"] == {
        "phase": "Failed",
        "reason": "InterOperatorGroupOwnerConflict",
        "message": "intersecting operatorgroups provide the same apis",
        "rule": "R-API-6",
    }
    assert conflicted["apiReconciliation"] == "APIConflict"
    assert conflicted["providedAPIs"] == list(ETCD_APIS)
    assert conflicted["conflicts"] == [
        {
            "operatorGroup": "openshift-operators/global-operators",
            "apis": list(ETCD_APIS),
            "namespaces": ["team-a"],
        }
    ]


def test_copied_csvs_missing_and_stale_sorted() -> None:
    assert build_report()["copiedCSVs"] == {
        "present": 3,
        "missing": [
            {"csv": "openshift-operators/etcdoperator.v0.9.4-clusterwide", "namespace": "default"},
            {"csv": "openshift-operators/etcdoperator.v0.9.4-clusterwide", "namespace": "team-b"},
        ],
        "stale": [
            {
                "namespace": "default",
                "name": "old.v1",
                "copiedFrom": "gone",
                "reason": "parent gone",
            },
            {
                "namespace": "team-b",
                "name": "old.v1",
                "copiedFrom": "gone",
                "reason": "parent gone",
            },
        ],
    }


def test_subscriptions_sorted_with_effective_approval_plan_and_upgrade() -> None:
    subs = build_report()["subscriptions"]
    assert [s["name"] for s in subs] == [
        "image-caching-operator-v0-0-1-sub",
        "projectrequestlimits-v0-0-1-sub",
    ]
    manual, automatic = subs
    assert (manual["approval"], manual["effectiveApproval"]) == ("Manual", "Manual")
    assert (automatic["approval"], automatic["effectiveApproval"]) == ("Automatic", "Manual")
    assert manual["channel"] is None and manual["installPlan"] is None
    assert automatic["installPlan"] == {
        "name": "install-p2fmw",
        "phase": "Complete",
        "approved": True,
    }
    assert automatic["upgrade"] == {
        "graph": "none",
        "head": None,
        "next": None,
        "path": [],
        "edges": [],
        "decidedBy": "channel",
        "notHeadBecause": None,
    }
    assert manual["upgrade"]["path"] == ["etcdoperator.v0.9.2", "etcdoperator.v0.9.4"]
    assert manual["upgrade"]["edges"][0] == {
        "from": "etcdoperator.v0.9.0",
        "to": "etcdoperator.v0.9.2",
        "via": "replaces",
    }


def test_channels_sorted_by_catalog_package_channel_and_keep_chain_order() -> None:
    chans = build_report()["channels"]
    assert [(c["catalog"], c["channel"]) for c in chans] == [
        (None, "alpha"),
        ("openshift-marketplace/community-operators", "clusterwide-alpha"),
        ("openshift-marketplace/community-operators", "singlenamespace-alpha"),
    ]
    assert chans[2]["order"] == ["etcdoperator.v0.9.4", "etcdoperator.v0.9.2"]
    assert chans[1]["errors"] == ["no channel head found in graph"]


def test_two_runs_over_shuffled_records_print_the_same_bytes() -> None:
    first = dumps(build_report())
    shuffled = build_model()
    shuffled.groups.reverse()
    shuffled.csv_states.reverse()
    shuffled.subs.reverse()
    shuffled.model_findings.reverse()
    assert dumps(build_report(shuffled)) == first
    assert first.endswith("}\n") and json.loads(first) == build_report()


def test_exit_status_follows_error_findings() -> None:
    assert has_errors(build_report())
    only_warnings = [f for f in model_findings() if f.severity != "error"]
    assert not has_errors(build_report(build_model(only_warnings)))


def test_building_the_report_does_not_touch_the_records() -> None:
    model = build_model()
    before = copy.deepcopy(model)
    build_report(model)
    assert model == before
