"""R-API-1..9 (provided APIs, group intersection, the four reconciliation results, static
groups, R-API-7) and R-CSV-O (CRD owner conflicts inside a namespace)."""

from __future__ import annotations

import pytest
from model_builders import (
    MODEL_DATA,
    codes,
    copy_of,
    load_all,
    model_of,
    namespace,
    operator_group,
)
from model_builders import csv as make_csv

from olmtui.model.rules.apis.reconcile import (
    CrdOwners,
    api_step,
    api_surface,
    expected_group_apis,
    format_provided_apis,
    parse_provided_apis,
    reconcile_api_intersection,
)
from olmtui.model.rules.csvs.replacements import ReplacementIndex

GOOSE = ("Goose", "v1alpha1", "geese.birds.com")
GOOSE_KEY = "Goose.v1alpha1.birds.com"
DUCK = ("Duck", "v1", "ducks.birds.com")
DUCK_KEY = "Duck.v1.birds.com"


# -- R-API-1 / 2 / 3 -------------------------------------------------------------------------


def test_r_api_1_provided_apis_of_a_real_csv():
    real = load_all(MODEL_DATA / "azure-image-caching.yaml")[0]
    surface = api_surface(real)
    assert surface.provided == {"CachedImageCatalog.v1alpha1.imagecaching.jkarasek.com"}
    assert surface.malformed == ()


def test_r_api_1_apiservices_and_required():
    csv = make_csv(
        "op", "x", owned=(GOOSE,), apiservices=(("Frog", "v1", "ponds.io"),), required=(DUCK,)
    )
    surface = api_surface(csv)
    assert surface.provided == {GOOSE_KEY, "Frog.v1.ponds.io"}
    assert surface.required == {DUCK_KEY}


def test_r_api_1_required_crd_without_dot_is_malformed_too():
    csv = make_csv("op", "x", required=(("D", "v1", "ducks"),))
    assert api_surface(csv).malformed == ("ducks",)


def test_r_api_2_parse_real_monitoring_annotation():
    og = load_all(MODEL_DATA / "azure-monitoring-group-and-namespaces.yaml")[0]
    apis = parse_provided_apis(og["metadata"]["annotations"]["olm.providedAPIs"])
    assert len(apis) == 8
    assert "AlertmanagerConfig.v1alpha1.monitoring.coreos.com" in apis


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", set()),
        (None, set()),
        ("A.v1.g.io, B.v2.h", {"A.v1.g.io", "B.v2.h"}),
        ("NoDots,One.dot,Two.dots.", {"Two.dots."}),
        ("a.v1.g,A.v1.g", {"a.v1.g", "A.v1.g"}),
    ],
)
def test_r_api_2_parse(text, expected):
    assert parse_provided_apis(text) == frozenset(expected)


def test_r_api_3_format_sorts_by_bytes():
    assert format_provided_apis({"b.v1.g", "C.v1.g", "a.v1.g"}) == "C.v1.g,a.v1.g,b.v1.g"
    assert format_provided_apis(set()) == ""


# -- R-API-5 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "p", "o", "expected"),
    [
        ({"x"}, {"x"}, {"x"}, "RemoveAPIs"),
        ({"x"}, set(), {"x"}, "APIConflict"),
        ({"x"}, set(), set(), "AddAPIs"),
        ({"x"}, {"x", "y"}, {"y"}, "NoAPIConflict"),
        (set(), set(), {"x"}, "NoAPIConflict"),
    ],
)
def test_r_api_5_reconcile_api_intersection(a, p, o, expected):
    assert reconcile_api_intersection(frozenset(a), frozenset(p), frozenset(o)) == expected


# -- R-API-6 ---------------------------------------------------------------------------------


def test_r_api_6_add_apis_proceeds_when_annotation_already_equal():
    step = api_step("AddAPIs", False, None, None, frozenset({"A.v1.g"}), frozenset(), "A.v1.g")
    assert step.verdict is None and step.new_annotation is None


def test_r_api_6_add_apis_writes_the_union_first():
    step = api_step(
        "AddAPIs", False, None, None, frozenset({"B.v1.g"}), frozenset({"A.v1.g"}), "A.v1.g"
    )
    assert step.verdict is None and step.new_annotation == "A.v1.g,B.v1.g"


def test_r_api_6_remove_apis_strips_all_csv_apis_without_a_phase_change():
    step = api_step(
        "RemoveAPIs",
        False,
        None,
        None,
        frozenset({"A.v1.g", "B.v1.g"}),
        frozenset({"A.v1.g", "B.v1.g", "C.v1.g"}),
        "A.v1.g,B.v1.g,C.v1.g",
    )
    assert step.new_annotation == "C.v1.g"
    assert step.verdict is None and not step.proceeds


@pytest.mark.parametrize("result", ["AddAPIs", "RemoveAPIs"])
def test_r_api_6_static_group_cannot_be_modified(result):
    step = api_step(result, True, "InstallSucceeded", None, frozenset({"A.v1.g"}), frozenset(), "")
    assert (step.verdict.reason, step.verdict.message) == (
        "CannotModifyStaticOperatorGroupProvidedAPIs",
        "static provided api operatorgroup cannot be modified by these apis",
    )


def test_r_api_6_static_suppressed_when_already_conflicting():
    """R-API-7: static + Add/Remove leaves an InterOperatorGroupOwnerConflict CSV as it is."""
    step = api_step(
        "AddAPIs",
        True,
        "InterOperatorGroupOwnerConflict",
        "old message",
        frozenset({"A.v1.g"}),
        frozenset(),
        "",
    )
    assert (step.verdict.reason, step.verdict.message) == (
        "InterOperatorGroupOwnerConflict",
        "old message",
    )


def test_r_api_6_conflict_applies_to_static_groups_too():
    step = api_step("APIConflict", True, None, None, frozenset({"A.v1.g"}), frozenset(), "")
    assert step.verdict.reason == "InterOperatorGroupOwnerConflict"


# -- through the model: R-API-5 conflicts, R-API-6 pending conflicts, R-API-9 ----------------


def two_groups(
    csv_apis_in_annotation: bool,
    phase="Succeeded",
    reason="InstallSucceeded",
    other_apis=GOOSE_KEY,
    static=False,
):
    return model_of(
        namespace("a"),
        namespace("b"),
        namespace("shared"),
        operator_group(
            "a",
            "ga",
            targets=["a", "shared"],
            status=["a", "shared"],
            apis=GOOSE_KEY if csv_apis_in_annotation else "",
            static=static,
        ),
        operator_group("b", "gb", targets=["shared"], status=["shared"], apis=other_apis),
        make_csv(
            "a",
            "x",
            modes=("MultiNamespace", "OwnNamespace"),
            owned=(GOOSE,),
            group="ga",
            targets="a,shared",
            phase=phase,
            reason=reason,
        ),
    )


def test_r_api_5_conflict_names_the_other_group_apis_and_namespaces():
    model, _ = two_groups(False)
    state = model.csv("a", "x")
    assert state.api_reconciliation == "APIConflict"
    assert state.verdict.reason == "InterOperatorGroupOwnerConflict"
    assert [(c.operator_group, c.apis, c.namespaces) for c in state.conflicts] == [
        ("b/gb", (GOOSE_KEY,), ("shared",)),
    ]
    finding = next(f for f in model.findings() if f.code == "InterOperatorGroupOwnerConflict")
    assert "b/gb" in finding.message and GOOSE_KEY in finding.message
    assert finding.related[0].name == "gb"
    assert model.csv("a", "x").expected_copies == ()


def test_r_api_7_pending_two_step_conflict():
    model, _ = two_groups(True)
    state = model.csv("a", "x")
    assert state.api_reconciliation == "RemoveAPIs"
    assert state.verdict is None
    assert "PendingAPIConflict" in codes(model)
    assert model.operator_group("a", "ga").expected_provided_apis == ()


def test_r_api_6_remove_apis_on_a_succeeded_csv_is_no_verdict():
    """QA case: ops3/bar is Succeeded, its APIs are in its own group's annotation and a global
    group claims them too. OLM's next sync only strips the annotation (step 4)."""
    model, _ = model_of(*load_all(MODEL_DATA / "qa" / "remove-apis.yaml"))
    state = model.csv("ops3", "bar.v1.0.0")
    assert (state.phase, state.api_reconciliation, state.verdict) == (
        "Succeeded",
        "RemoveAPIs",
        None,
    )
    pending = next(f for f in model.findings() if f.code == "PendingAPIConflict")
    assert (pending.namespace, pending.name) == ("ops3", "bar.v1.0.0")
    assert "without changing its phase" in pending.message
    assert "InterOperatorGroupOwnerConflict" not in codes(model, "bar.v1.0.0")


def test_r_api_6_remove_apis_keeps_a_conflict_failure_from_recovering():
    """A CSV already Failed with a conflict whose APIs are back in its group's annotation:
    RemoveAPIs stops the sync before the phase machine, so no R-API-9 recovery."""
    model, _ = two_groups(True, phase="Failed", reason="InterOperatorGroupOwnerConflict")
    state = model.csv("a", "x")
    assert (state.api_reconciliation, state.verdict) == ("RemoveAPIs", None)
    assert "GroupFailureRecovers" not in codes(model)
    pending = next(f for f in model.findings() if f.code == "PendingAPIConflict")
    assert "still Failed" in pending.message


def test_r_api_9_conflict_gone_recovers_to_pending():
    model, _ = two_groups(
        True, phase="Failed", reason="InterOperatorGroupOwnerConflict", other_apis=DUCK_KEY
    )
    state = model.csv("a", "x")
    assert state.api_reconciliation == "NoAPIConflict"
    assert (state.verdict.phase, state.verdict.reason, state.verdict.message) == (
        "Pending",
        "RequirementsUnknown",
        "OperatorGroup no longer intersecting with conflicting owner",
    )


def test_r_api_9_static_recovery_message():
    model, _ = two_groups(
        True,
        phase="Failed",
        reason="CannotModifyStaticOperatorGroupProvidedAPIs",
        other_apis=DUCK_KEY,
        static=True,
    )
    assert model.csv("a", "x").verdict.message == (
        "static OperatorGroup and intersecting groups now support providedAPIs"
    )


def test_r_api_6_add_apis_in_the_model_is_not_a_verdict():
    model, _ = model_of(
        namespace("a"),
        operator_group("a", "g", status=[""], apis=""),
        make_csv("a", "x", owned=(GOOSE,), group="g", targets=""),
    )
    state = model.csv("a", "x")
    assert state.api_reconciliation == "AddAPIs" and state.verdict is None
    assert "ProvidedAPIsPendingAddition" in codes(model)
    assert model.operator_group("a", "g").expected_provided_apis == (GOOSE_KEY,)


def test_r_api_6_static_group_in_the_model():
    model, _ = model_of(
        namespace("a"),
        operator_group("a", "g", status=[""], apis=DUCK_KEY, static=True),
        make_csv("a", "x", owned=(GOOSE,), group="g", targets=""),
    )
    assert model.csv("a", "x").verdict.reason == "CannotModifyStaticOperatorGroupProvidedAPIs"
    assert "StaticProvidedAPIs" in codes(model)


def test_quirk_empty_status_intersects_nothing_not_even_global():
    model, _ = model_of(
        namespace("a"),
        namespace("b"),
        operator_group("a", "global", status=[""], apis=GOOSE_KEY),
        operator_group("b", "unsynced", targets=["b"], apis=""),
        make_csv("b", "x", modes=("OwnNamespace",), owned=(GOOSE,), group="unsynced", targets=""),
    )
    # The CSV's annotation "" agrees with an unsynced group (R-OG-3), and "" means all
    # namespaces for R-IM-1, which OwnNamespace alone does not support.
    assert model.csv("b", "x").verdict.reason == "UnsupportedOperatorGroup"
    assert model.operator_group("b", "unsynced").intersecting == ()


# -- R-API-8 ---------------------------------------------------------------------------------


def test_r_api_8_expected_keeps_only_backed_claims():
    assert expected_group_apis(
        False, frozenset({"A", "B"}), frozenset({"A"}), frozenset(), frozenset()
    ) == {"A"}
    assert expected_group_apis(
        True, frozenset({"A", "B"}), frozenset(), frozenset(), frozenset()
    ) == {"A", "B"}


def test_r_api_8_stale_claims_and_blocked_pruning():
    model, _ = model_of(
        namespace("a"),
        operator_group("a", "g", status=[""], apis=f"{DUCK_KEY},{GOOSE_KEY}"),
        make_csv("a", "x", owned=(GOOSE,), group="g", targets=""),
        make_csv(
            "a",
            "y",
            owned=(("Hen", "v1", "hens.birds.com"),),
            group="g",
            targets="",
            phase="Pending",
            reason="RequirementsUnknown",
        ),
    )
    stale = next(f for f in model.findings() if f.code == "StaleProvidedAPIs")
    assert DUCK_KEY in stale.message and "y" in stale.message
    assert set(model.operator_group("a", "g").expected_provided_apis) == {
        GOOSE_KEY,
        "Hen.v1.birds.com",
    }


# -- R-CSV-O ---------------------------------------------------------------------------------


def test_r_csv_o_replacement_chain_walks_both_ways_and_stops_on_cycles():
    index = ReplacementIndex(
        {
            "v1": None,
            "v2": "v1",
            "v3": "v2",
            "other": None,
            "loop1": "loop2",
            "loop2": "loop1",
        }
    )
    names = ("v1", "v2", "v3", "other", "loop1", "loop2")
    assert {n for n in names if index.same_chain("v2", n)} == {"v1", "v2", "v3"}
    assert {n for n in names if index.same_chain("loop1", n)} == {"loop1", "loop2"}


def test_r_csv_o_siblings_are_not_in_one_chain_but_their_ancestors_are():
    """A fork (two CSVs replacing v1) is two chains that share v1."""
    index = ReplacementIndex({"v1": None, "a": "v1", "b": "v1", "a2": "a", "t": "l", "l": "t"})
    assert index.same_chain("a2", "v1") and index.same_chain("v1", "b")
    assert not index.same_chain("a", "b") and not index.same_chain("a2", "b")
    assert not index.same_chain("a", "t")


def test_r_csv_o_owner_conflict_outside_the_chain():
    owned = {
        "v1": frozenset({"geese.birds.com"}),
        "v2": frozenset({"geese.birds.com"}),
        "other": frozenset({"geese.birds.com", "ducks.birds.com"}),
    }
    replaces = {"v1": None, "v2": "v1", "other": None}
    owners = CrdOwners(owned, ReplacementIndex(replaces))
    assert owners.conflicts("v2") == (("other", ("geese.birds.com",)),)


def test_r_csv_o_owner_conflicts_between_siblings_of_a_fork():
    owned = dict.fromkeys(("v1", "a", "b", "a2", "x"), frozenset({"geese.birds.com"}))
    replaces = {"v1": None, "a": "v1", "b": "v1", "a2": "a", "x": None}
    owners = CrdOwners(owned, ReplacementIndex(replaces))
    goose = ("geese.birds.com",)
    assert owners.conflicts("a2") == (("b", goose), ("x", goose))
    assert owners.conflicts("v1") == (("x", goose),)
    assert owners.conflicts("x") == (("a", goose), ("a2", goose), ("b", goose), ("v1", goose))


def test_r_csv_o_pending_csv_fails_with_owner_conflict_and_copies_are_invisible():
    model, _ = model_of(
        namespace("a"),
        operator_group("a", "g", status=[""], apis=GOOSE_KEY),
        make_csv("a", "old", owned=(GOOSE,), group="g", targets=""),
        make_csv(
            "a",
            "new",
            owned=(GOOSE,),
            group="g",
            targets="",
            phase="Pending",
            reason="RequirementsUnknown",
        ),
        copy_of(make_csv("b", "copied", owned=(GOOSE,), group="gb", targets=""), "a"),
    )
    assert model.csv("a", "new").verdict.reason == "OwnerConflict"
    assert model.copies_of("b", "copied") == ["a"]
    assert model.csv("a", "new").verdict.message == "conflicting CRD owner in namespace"
    assert model.csv("a", "old").verdict is None
    conflict = [f for f in model.findings() if f.code == "OwnerConflict"]
    assert [f.name for f in conflict] == ["new"] and conflict[0].related[0].name == "old"


def test_r_api_8_claims_a_csv_of_the_namespace_provides_are_not_stale():
    """QA case: ops3/og3 claims Bar, which bar.v1.0.0 of ops3 provides, so pruning keeps it
    (C-keys ∩ P); the expected value drops it only because RemoveAPIs strips it, which
    PendingAPIConflict tells. ops2/og2's claim has no CSV behind it: that one is stale."""
    model, _ = model_of(*load_all(MODEL_DATA / "qa" / "remove-apis.yaml"))
    stale = [f for f in model.findings() if f.code == "StaleProvidedAPIs"]
    assert [(f.namespace, f.name) for f in stale] == [("ops2", "og2")]
    assert "unless a CSV of the namespace is Pending with a new API (R-API-8)" in stale[0].message
    assert model.operator_group("ops3", "og3").expected_provided_apis == ()
    assert "PendingAPIConflict" in codes(model, "bar.v1.0.0")
