"""R-DOC-18's words: a ClusterOperator message that ends a sentence of its own (as
cluster-olm-operator's do) is quoted without a second period."""

from __future__ import annotations

from model_builders import clusteroperator

from olmtui.model.rules.documented.olm_cluster_operators import cluster_operator_health


def test_a_message_with_its_own_period_gets_no_second_one() -> None:
    message = (
        "InstalledOLMOperatorsUpgradeable: Found ClusterExtensions that require upgrades prior "
        'to upgrading cluster to version 4.19: bundle "b.v1" for ClusterExtension "b".'
    )
    olm = clusteroperator(
        "False", "InstalledOLMOperators_IncompatibleOperatorsInstalled", message, name="olm"
    )
    [found] = cluster_operator_health([olm])
    assert f"{message} The cluster cannot move" in found.message
    assert ".." not in found.message
    [plain] = cluster_operator_health([clusteroperator("False", "Why", "no", name="olm")])
    assert "(Why): no. The cluster" in plain.message
