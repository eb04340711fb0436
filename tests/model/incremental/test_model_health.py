"""The health rules' findings in the report (Subscriptions, InstallPlans, catalogs, upgrades),
on real must-gather objects, and how they merge with the model's."""

from __future__ import annotations

from data_paths import DATA, ROOT
from report_records import build_model, cluster_store, validate_report

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings, without_model_duplicates
from olmtui.model.records.types import Finding
from olmtui.report import report_json
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

AZURE = DATA / "must-gather/must-gather-clean/must-gather-azure"


def test_r_sub_5_failed_install_plan_of_a_real_subscription_is_an_error() -> None:
    store = Store()
    load_snapshot([str(AZURE)], store)
    found = health_findings(store)
    failed = [f for f in found if f.code == "InstallPlanFailed"]
    assert [(f.severity, f.namespace, f.name) for f in failed] == [
        ("error", "cfe-test-namespace", "image-caching-operator-v0-0-1-sub")
    ]
    report = report_json("snapshot", Model(store), store, health=found)
    validate_report(report)
    # ... and the CSV it left Pending/RequirementsNotMet.
    assert report["summary"]["findings"]["error"] == 2
    assert "InstallPlanFailed" in [f["code"] for f in report["findings"]]


def test_model_wording_wins_when_both_report_one_code_on_one_object() -> None:
    model = Finding(
        "error",
        "TooManyOperatorGroups",
        "ClusterServiceVersion",
        "team-b",
        "keycloak-operator.v15.0.2",
        "the model's words",
    )
    same = Finding(
        "error",
        "TooManyOperatorGroups",
        "ClusterServiceVersion",
        "team-b",
        "keycloak-operator.v15.0.2",
        "a rule's words",
    )
    other = Finding("warning", "InstallPlanPending", "Subscription", "team-b", "keycloak", "x")
    assert without_model_duplicates([same, other], [model]) == [other]
    report = build_report_with_health([same, other], [model])
    messages = [f["message"] for f in report["findings"]]
    assert messages == ["the model's words", "x"]


def build_report_with_health(health: list[Finding], model: list[Finding]) -> dict:
    report = report_json("snapshot", build_model(model), cluster_store(), health=health)
    validate_report(report)
    return report


def test_health_findings_count_in_summary_and_sort_with_the_rest() -> None:
    extra = Finding("error", "AAAFirst", "Subscription", "ns", "sub", "sorted first by code")
    model = list(build_model().model_findings)
    report = build_report_with_health([extra], model)
    assert report["findings"][0]["code"] == "AAAFirst"
    errors = sum(f.severity == "error" for f in model)
    assert report["summary"]["findings"]["error"] == errors + 1


SAMPLE = ROOT / "olmtui" / "samples" / "cluster.yaml"
KEYCLOAK = DATA / "catalogs/community-operators-prod/operators/keycloak-operator"


def test_multitenancy_limits_reach_the_report_seed_002() -> None:
    """etcd runs in team-a (0.9.4) and, AllNamespaces, in openshift-operators (0.9.4-clusterwide):
    one package at two versions on the cluster's shared CRDs."""
    store = Store()
    load_snapshot([str(SAMPLE)], store)
    codes = {(f.code, f.name) for f in health_findings(store)}
    assert any(code == "MultiInstanceVersionSkew" for code, _ in codes)
    assert any(code == "SharedCRDOwners" for code, _ in codes)


def test_next_bundles_come_from_the_subscriptions_own_catalog_r_upg_2() -> None:
    from olmtui.model.rules.health_rules import next_bundles
    from olmtui.model.rules.upgrades.graph import upgrade_hook
    from olmtui.sources.catalog.catalogs import load_catalog

    store = Store()
    load_snapshot([str(SAMPLE)], store)
    catalogs = [load_catalog(str(KEYCLOAK))]
    model = Model(store, upgrades=upgrade_hook(catalogs))
    found = next_bundles(catalogs, model.subscriptions())
    keycloak = found["team-b/keycloak-operator.v15.0.2"]
    assert (keycloak.package, keycloak.name) == ("keycloak-operator", "keycloak-operator.v15.1.0")
    assert next_bundles(catalogs, []) == {}
