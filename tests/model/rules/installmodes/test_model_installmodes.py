"""R-IM-1 (every row and message) and R-MEM-4 (malformed install modes)."""

from __future__ import annotations

import pytest
from model_builders import (
    codes,
    model_of,
    namespace,
    operator_group,
    percona_csv,
)
from model_builders import csv as make_csv

from olmtui.model.rules.installmodes.supported_modes import (
    ALL_MESSAGE,
    MULTI_ALL_MESSAGE,
    OWN_MESSAGE,
    SINGLE_MESSAGE,
    ZERO_MESSAGE,
    install_mode_set,
    install_mode_verdict,
)

EVERYTHING = frozenset({"OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"})


@pytest.mark.parametrize(
    ("supported", "targets", "expected"),
    [
        # n = 0
        (EVERYTHING, [], ZERO_MESSAGE),
        # n = 1, target == op
        ({"OwnNamespace"}, ["op"], None),
        ({"SingleNamespace", "AllNamespaces"}, ["op"], OWN_MESSAGE),
        # n = 1, target == ""
        ({"AllNamespaces"}, [""], None),
        ({"OwnNamespace", "SingleNamespace", "MultiNamespace"}, [""], ALL_MESSAGE),
        # n = 1, other
        ({"SingleNamespace"}, ["b"], None),
        ({"OwnNamespace", "MultiNamespace", "AllNamespaces"}, ["b"], SINGLE_MESSAGE),
        # n > 1
        ({"MultiNamespace"}, ["a", "b"], None),
        (
            {"OwnNamespace", "SingleNamespace", "AllNamespaces"},
            ["a", "b", "c"],
            "MultiNamespace InstallModeType not supported, cannot configure to watch 3 namespaces",
        ),
        ({"MultiNamespace"}, ["a", "op"], OWN_MESSAGE),
        ({"MultiNamespace", "OwnNamespace"}, ["a", "op"], None),
        ({"MultiNamespace"}, ["a", ""], MULTI_ALL_MESSAGE),
        # the first offending entry decides; own-namespace check precedes "" for the same entry
        ({"MultiNamespace"}, ["op", ""], OWN_MESSAGE),
        ({"MultiNamespace"}, ["", "op"], MULTI_ALL_MESSAGE),
    ],
)
def test_r_im_1_decision_table(supported, targets, expected):
    assert install_mode_verdict(frozenset(supported), targets, "op") == expected


def test_r_im_1_messages_are_olms():
    assert OWN_MESSAGE == (
        "OwnNamespace InstallModeType not supported, cannot configure to watch own namespace"
    )
    assert ALL_MESSAGE == (
        "AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces"
    )
    assert SINGLE_MESSAGE == (
        "SingleNamespace InstallModeType not supported, cannot configure to watch one namespace"
    )
    assert ZERO_MESSAGE == (
        "operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces"
    )
    assert MULTI_ALL_MESSAGE == (
        "operatorgroup has invalid selected namespaces, NamespaceAll "
        "found when |selected namespaces| > 1"
    )


def test_r_im_1_no_inference_between_types():
    only_all = install_mode_set([{"type": "AllNamespaces", "supported": True}])
    assert install_mode_verdict(only_all.supported, ["op"], "op") == OWN_MESSAGE
    assert install_mode_verdict(only_all.supported, ["b"], "op") == SINGLE_MESSAGE


def test_r_mem_4_duplicate_types_make_the_set_invalid():
    modes = install_mode_set(
        [
            {"type": "OwnNamespace", "supported": True},
            {"type": "OwnNamespace", "supported": False},
        ]
    )
    assert modes.duplicates == (
        "InstallMode list contains duplicates, cannot make set: "
        "[{OwnNamespace true} {OwnNamespace false}]"
    )


def test_r_mem_4_duplicates_fail_the_csv_with_invalid_install_modes():
    modes = [
        {"type": "AllNamespaces", "supported": True},
        {"type": "AllNamespaces", "supported": True},
    ]
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", status=[""]),
        make_csv("op", "x", modes=modes, group="g", targets=""),
    )
    verdict = model.csv("op", "x").verdict
    assert (verdict.phase, verdict.reason) == ("Failed", "InvalidInstallModes")
    assert verdict.message.startswith("InstallMode list contains duplicates")
    assert model.csv("op", "x").api_reconciliation is None


def test_r_im_1_unknown_type_supports_nothing_real_percona_typo():
    real = percona_csv()
    modes = install_mode_set(real["spec"]["installModes"])
    assert modes.unknown == ("OwnNamespacejl",)
    assert modes.duplicates is None
    assert modes.supported == frozenset({"SingleNamespace"})
    assert install_mode_verdict(modes.supported, ["op"], "op") == OWN_MESSAGE


def test_r_im_1_percona_in_own_namespace_group_is_unsupported_with_a_finding():
    real = percona_csv()
    real["metadata"]["namespace"] = "psmdb"
    real["metadata"]["annotations"].update(
        {
            "olm.operatorGroup": "g",
            "olm.operatorNamespace": "psmdb",
            "olm.targetNamespaces": "psmdb",
        }
    )
    real["status"] = {"phase": "Pending", "reason": "RequirementsUnknown"}
    model, _ = model_of(
        namespace("psmdb"),
        operator_group("psmdb", "g", targets=["psmdb"], status=["psmdb"]),
        real,
    )
    state = model.csv("psmdb", real["metadata"]["name"])
    assert state.verdict.reason == "UnsupportedOperatorGroup"
    assert state.verdict.message == OWN_MESSAGE
    assert {"UnknownInstallMode", "UnsupportedOperatorGroup"} <= codes(model)
    unknown = next(f for f in model.findings() if f.code == "UnknownInstallMode")
    assert "OwnNamespacejl" in unknown.message and unknown.severity == "warning"


def test_r_im_1_install_mode_advice_names_the_shapes_that_fit():
    from olmtui.model.rules.installmodes.install_advice import install_mode_advice

    assert install_mode_advice({"AllNamespaces"}).startswith(
        "This CSV supports only AllNamespaces: install it in a global group (an OperatorGroup "
        "with no targetNamespaces and no selector), such as global-operators in "
        "openshift-operators"
    )
    both = install_mode_advice({"OwnNamespace", "SingleNamespace", "Bogus"})
    assert both.startswith("This CSV supports only OwnNamespace, SingleNamespace: install it in")
    assert "targets exactly one other namespace" in both
    every = install_mode_advice(
        {"OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"}
    )
    assert every.startswith("This CSV supports AllNamespaces, OwnNamespace")
    assert "no OperatorGroup fits" in install_mode_advice(())
