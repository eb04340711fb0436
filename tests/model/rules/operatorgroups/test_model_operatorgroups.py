"""R-NS and R-OG rules: target selection, canonical target string, effective sets, OG errors."""

from __future__ import annotations

import pytest
from model_builders import MODEL_DATA, codes, load_all, model_of, namespace, operator_group

from olmtui.model.primitives import nsset
from olmtui.model.rules.operatorgroups.targets import (
    SelectorError,
    build_target_namespaces,
    effective_namespaces,
    group_mode,
    selector_matches,
    status_namespaces,
    target_namespaces,
)

NAMESPACES = {
    "a": {"team": "x", "env": "prod"},
    "b": {"team": "y", "env": "prod"},
    "c": {},
}


# -- R-NS ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ({""}, {"x"}, {"x"}),
        ({"x"}, {""}, {"x"}),
        ({""}, set(), set()),
        (set(), {""}, set()),
        ({""}, {""}, {""}),
        ({"x", "y"}, {"y", "z"}, {"y"}),
        ({"", "a"}, {"a"}, {"a"}),
    ],
)
def test_r_ns_3_intersection(a, b, expected):
    assert nsset.intersection(frozenset(a), frozenset(b)) == frozenset(expected)


def test_r_ns_1_mixture_is_not_all():
    assert nsset.is_all(frozenset({""}))
    assert not nsset.is_all(frozenset({"", "a"}))
    assert not nsset.contains(frozenset({"", "a"}), "b")


def test_r_ns_4_union_and_r_ns_5_parse():
    assert nsset.union(nsset.ALL, frozenset({"a"})) == nsset.ALL
    assert nsset.union(frozenset({"a"}), frozenset({"b"})) == frozenset({"a", "b"})
    assert nsset.parse("") == nsset.ALL
    assert nsset.parse("b,a") == frozenset({"a", "b"})


# -- R-OG-1 ----------------------------------------------------------------------------------


def test_r_og_1_selector_ignored_when_target_list_given():
    og = operator_group("ns", "g", targets=["b", "a", "a"], selector={"matchLabels": {"team": "x"}})
    selection = target_namespaces(og, NAMESPACES)
    assert selection.namespaces == ("a", "b")
    assert selection.errors == ()


@pytest.mark.parametrize("selector", [None, {}, {"matchLabels": {}}])
def test_r_og_1_absent_or_empty_selector_is_global(selector):
    og = operator_group("ns", "g", selector=selector)
    assert target_namespaces(og, NAMESPACES).namespaces == ("",)


def test_r_og_1_selector_matches_labels_and_expressions():
    og = operator_group(
        "ns",
        "g",
        selector={
            "matchLabels": {"env": "prod"},
            "matchExpressions": [{"key": "team", "operator": "NotIn", "values": ["y"]}],
        },
    )
    assert target_namespaces(og, NAMESPACES).namespaces == ("a",)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"key": "team", "operator": "In", "values": ["x", "y"]}, True),
        ({"key": "team", "operator": "In", "values": ["z"]}, False),
        ({"key": "team", "operator": "Exists"}, True),
        ({"key": "nope", "operator": "DoesNotExist"}, True),
        ({"key": "nope", "operator": "NotIn", "values": ["q"]}, True),
    ],
)
def test_r_og_1_match_expressions(expression, expected):
    assert selector_matches({"matchExpressions": [expression]}, {"team": "x"}) is expected


@pytest.mark.parametrize(
    "selector",
    [
        {"matchExpressions": [{"key": "team", "operator": "In", "values": []}]},
        {"matchExpressions": [{"key": "team", "operator": "Exists", "values": ["x"]}]},
        {"matchExpressions": [{"key": "team", "operator": "Like", "values": ["x"]}]},
        {"matchLabels": {"bad key!": "x"}},
        {"matchLabels": {"team": 3}},
    ],
)
def test_r_og_1_unparsable_selector_is_an_error_not_status(selector):
    with pytest.raises(SelectorError):
        selector_matches(selector, {})
    og = operator_group("ns", "g", selector=selector)
    selection = target_namespaces(og, NAMESPACES)
    assert selection.namespaces == ()
    assert [c for c, _ in selection.errors] == ["InvalidSelector"]


def test_r_og_1_selector_matching_nothing_is_reported():
    og = operator_group("ns", "g", selector={"matchLabels": {"team": "nobody"}})
    selection = target_namespaces(og, NAMESPACES)
    assert selection.namespaces == ()
    assert [c for c, _ in selection.errors] == ["SelectorMatchesNothing"]


def test_r_og_1_empty_string_in_target_list_is_an_error():
    og = operator_group("ns", "g", targets=["", "a"])
    selection = target_namespaces(og, NAMESPACES)
    assert "TargetNamespacesContainAll" in [c for c, _ in selection.errors]


def test_r_og_1_listed_namespaces_are_not_checked_for_existence():
    og = operator_group("ns", "g", targets=["a", "ghost"])
    selection = target_namespaces(og, NAMESPACES)
    assert selection.namespaces == ("a", "ghost")
    assert [c for c, _ in selection.errors] == ["TargetNamespaceMissing"]
    assert "ghost" in selection.errors[0][1]


# -- R-OG-3 / R-OG-4 -------------------------------------------------------------------------


def test_r_og_3_canonical_target_string_sorts_by_bytes():
    assert build_target_namespaces(["b", "B", "a"]) == "B,a,b"
    assert build_target_namespaces([""]) == ""
    assert build_target_namespaces(None) == ""


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (("a", "b"), {"a", "b", "own"}),
        (("",), {""}),
        (("", "a"), {"", "a"}),
        ((), set()),
        (None, set()),
    ],
)
def test_r_og_4_effective_set_adds_own_namespace(status, expected):
    assert effective_namespaces("own", status) == frozenset(expected)


def test_r_og_4_own_namespace_not_added_to_status_or_targets():
    og = operator_group("own", "g", targets=["a"])
    assert target_namespaces(og, NAMESPACES).namespaces == ("a",)
    assert group_mode("own", ("a",)) == "SingleNamespace"
    assert group_mode("own", ("own",)) == "OwnNamespace"
    assert group_mode("own", ("",)) == "AllNamespaces"
    assert group_mode("own", ("a", "b")) == "MultiNamespace"
    assert group_mode("own", ()) == "None"


def test_r_og_4_intersecting_from_status_not_spec():
    """`intersecting` comes from status.namespaces: an unsynced group intersects nothing,
    not even a global one (R-NS-3: all ∩ ∅ = ∅)."""
    model, _ = model_of(
        namespace("a"),
        namespace("b"),
        namespace("g1"),
        namespace("g2"),
        namespace("glob"),
        operator_group("g1", "one", targets=["a"], status=["a"]),
        operator_group("g2", "two", targets=["a", "b"], status=["b", "a"]),
        operator_group("glob", "all", status=[""]),
        operator_group("b", "unsynced", targets=["a"]),
    )
    one = model.operator_group("g1", "one")
    assert one.effective_namespaces == ("a", "g1")
    assert [(i.operator_group, i.namespaces) for i in one.intersecting] == [
        ("g2/two", ("a",)),
        ("glob/all", ("a", "g1")),
    ]
    glob = model.operator_group("glob", "all")
    assert [(i.operator_group, i.namespaces) for i in glob.intersecting] == [
        ("g1/one", ("a", "g1")),
        ("g2/two", ("a", "b", "g2")),
    ]
    assert model.operator_group("b", "unsynced").intersecting == ()


# -- OG findings -----------------------------------------------------------------------------


def test_r_og_1_group_findings_name_the_problem():
    model, _ = model_of(
        namespace("a", {"team": "x"}),
        namespace("n1"),
        namespace("n2"),
        namespace("n3"),
        operator_group("n1", "listed", targets=["a", "ghost"], status=["a", "ghost"]),
        operator_group("n2", "nothing", selector={"matchLabels": {"team": "q"}}),
        operator_group("n3", "all", targets=[""]),
    )
    assert {"TargetNamespaceMissing", "MultipleTargetNamespaces"} <= codes(model, "listed")
    # The selector advice would only repeat what SelectorMatchesNothing says.
    assert codes(model, "nothing") == {"SelectorMatchesNothing"}
    assert "TargetNamespacesContainAll" in codes(model, "all")
    nothing = model.operator_group("n2", "nothing")
    assert nothing.target_namespaces == () and nothing.mode == "None"
    assert nothing.selection_errors


def test_r_og_2_status_drift_is_info_and_set_compared():
    model, _ = model_of(
        namespace("a"),
        namespace("b"),
        namespace("n"),
        operator_group("n", "g", targets=["a", "b"], status=["b", "a"]),
    )
    assert "TargetsNotSynced" not in codes(model)
    model, _ = model_of(
        namespace("a"),
        namespace("b"),
        namespace("n"),
        operator_group("n", "g", targets=["a", "b"], status=["a"]),
    )
    assert "TargetsNotSynced" in codes(model)


def test_r_og_6_several_groups_in_a_namespace_is_an_error():
    model, _ = model_of(
        namespace("n"),
        operator_group("n", "one", status=[""]),
        operator_group("n", "two", status=[""]),
    )
    found = [f for f in model.findings() if f.code == "MultipleOperatorGroupsFound"]
    assert len(found) == 1 and found[0].severity == "error"
    assert {r.name for r in found[0].related} == {"one", "two"}


def test_r_og_5_namespace_label_drift():
    og = operator_group("n", "g", targets=["a"], status=["a"])
    label = "olm.operatorgroup.uid/og-n-g"
    model, _ = model_of(namespace("a", {label: ""}), namespace("n"), og)
    assert "NamespaceLabelDrift" not in codes(model)
    model, _ = model_of(namespace("a"), namespace("n", {"olm.operatorgroup.uid/old": ""}), og)
    drift = {f.name: f.message for f in model.findings() if f.code == "NamespaceLabelDrift"}
    assert set(drift) == {"a", "n"}
    assert label in drift["a"] and "olm.operatorgroup.uid/old" in drift["n"]


def test_r_og_1_real_monitoring_selector_reproduces_status():
    """The real openshift-cluster-monitoring group: its selector over the real Namespace
    objects gives exactly its status.namespaces."""
    og, *namespaces = load_all(MODEL_DATA / "azure-monitoring-group-and-namespaces.yaml")
    labels = {n["metadata"]["name"]: n["metadata"]["labels"] for n in namespaces}
    selection = target_namespaces(og, labels)
    assert set(selection.namespaces) == set(status_namespaces(og))
    assert len(selection.namespaces) == 40


def test_seed_operator_groups_selector_that_matches_is_discouraged():
    model, _ = model_of(
        namespace("a", {"team": "x"}),
        namespace("n"),
        operator_group("n", "picked", selector={"matchLabels": {"team": "x"}}, status=["a"]),
    )
    assert "LabelSelectorTargets" in codes(model, "picked")
