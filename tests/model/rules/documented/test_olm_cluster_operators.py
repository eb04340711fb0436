"""R-DOC-18: OLM's ClusterOperators, their conditions as evidence, a finding when Degraded or
not Upgradeable; R-DOC-16's finding gains the same evidence."""

from __future__ import annotations

from model_builders import clusteroperator

from olmtui.model.rules.documented.olm_cluster_operators import cluster_operator_health

NS = "openshift-operator-lifecycle-manager"
FAILED = f"ClusterServiceVersion {NS}/packageserver observed in phase Failed"


def test_a_degraded_olm_cluster_operator_is_an_error_related_to_the_csv_it_names() -> None:
    co = clusteroperator(
        "True",
        "AsExpected",
        "",
        name="operator-lifecycle-manager-packageserver",
        conditions=(("Degraded", "True", "ClusterServiceVersionNotSucceeded", FAILED),),
    )
    (found,) = cluster_operator_health([co])
    assert (found.code, found.severity, found.rule) == (
        "OLMClusterOperatorDegraded",
        "error",
        "R-DOC-18",
    )
    assert [(r.kind, r.namespace, r.name) for r in found.related] == [
        ("ClusterServiceVersion", NS, "packageserver")
    ]
    assert {e.field for e in found.evidence} == {
        "status.conditions[Upgradeable]",
        "status.conditions[Degraded]",
    }


def test_not_upgradeable_is_r_doc_18_for_catalog_and_r_doc_16_with_evidence_for_olm() -> None:
    catalog = clusteroperator(
        "False", "Why", "catalog says no", name="operator-lifecycle-manager-catalog"
    )
    olm = clusteroperator("False", "IncompatibleOperatorsInstalled", "ns/a.v1 caps it")
    found = {f.code: f for f in cluster_operator_health([catalog, olm])}
    assert set(found) == {"OLMClusterOperatorNotUpgradeable", "ClusterUpgradeBlocked"}
    assert (
        found["ClusterUpgradeBlocked"]
        .evidence[0]
        .value.startswith("False: IncompatibleOperatorsInstalled")
    )


def test_healthy_or_foreign_cluster_operators_are_no_finding() -> None:
    fine = clusteroperator("True", "AsExpected", "", conditions=(("Degraded", "False", "", ""),))
    foreign = clusteroperator(
        "False", "X", "y", name="monitoring", conditions=(("Degraded", "True", "", ""),)
    )
    assert cluster_operator_health([fine, foreign]) == []
