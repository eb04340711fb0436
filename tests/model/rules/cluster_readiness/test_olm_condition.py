"""R-CUP-2: the ``olm`` ClusterOperator's word on the installed ClusterExtensions, in the
shapes cluster-olm-operator writes (its incompatible-operator controller) and library-go's
union of ``*Upgradeable`` conditions makes of them."""

from __future__ import annotations

from model_builders import clusteroperator as co

from olmtui.model.rules.cluster_readiness.olm_condition import installed_operators_upgradeable

#: cluster-olm-operator's message, as its controller formats it (two extensions, sorted).
INCOMPATIBLE = (
    "InstalledOLMOperatorsUpgradeable: Found ClusterExtensions that require upgrades prior to "
    'upgrading cluster to version 4.19: bundle "test-bundle-1.0" for ClusterExtension '
    '"test-operator",bundle "test-bundle-2.0" for ClusterExtension "test-operator-2".'
)
FAILURE = (
    "InstalledOLMOperatorsUpgradeable: error(s) with cluster extension test-operator: error in "
    "bundle test-bundle-1.0: more than one olm.maxOpenShiftVersion found in bundle"
)


def test_the_union_condition_names_the_blocking_extensions() -> None:
    said = installed_operators_upgradeable(
        [
            co(
                "False",
                "InstalledOLMOperators_IncompatibleOperatorsInstalled",
                INCOMPATIBLE,
                name="olm",
            )
        ]
    )
    assert said is not None
    assert (said.status, said.reason) == ("False", "IncompatibleOperatorsInstalled")
    assert said.blocking == ("test-operator", "test-operator-2")
    assert said.message.startswith("Found ClusterExtensions")


def test_a_failure_to_read_names_the_extension_as_failing() -> None:
    said = installed_operators_upgradeable(
        [co("False", "InstalledOLMOperators_FailureGettingExtensionMetadata", FAILURE, name="olm")]
    )
    assert said is not None
    assert said.reason == "FailureGettingExtensionMetadata"
    assert (said.blocking, said.failing) == ((), ("test-operator",))


def test_other_upgradeable_reasons_leave_the_extensions_clear() -> None:
    said = installed_operators_upgradeable(
        [co("False", "SomethingElse_Reason", "SomethingElseUpgradeable: no", name="olm")]
    )
    assert said is not None and said.status == "True" and said.blocking == ()
    assert installed_operators_upgradeable([co("True", "AsExpected", "All is well", name="olm")])


def test_the_condition_itself_is_read_where_it_is_written() -> None:
    message = INCOMPATIBLE.split(": ", 1)[1]
    obj = co(
        "True",
        "AsExpected",
        "",
        name="olm",
        conditions=(
            (
                "InstalledOLMOperatorsUpgradeable",
                "False",
                "IncompatibleOperatorsInstalled",
                message,
            ),
        ),
    )
    said = installed_operators_upgradeable([obj])
    assert said is not None and said.blocking == ("test-operator", "test-operator-2")


def test_nothing_is_said_without_the_olm_cluster_operator() -> None:
    assert installed_operators_upgradeable([co("False", "X", INCOMPATIBLE)]) is None
    assert installed_operators_upgradeable([]) is None
