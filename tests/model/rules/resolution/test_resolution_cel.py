"""CEL rules of ``olm.constraint`` dependencies (R-RES-11.2, R-RES-23), evaluated offline.

The cases come from operator-framework/api ``pkg/constraints/cel_test.go`` (TestCelLibrary),
OLM's ``resolver_test.go`` (TestSolveOperators_GenericConstraint) and the OLM/OpenShift
documentation of compound constraints; the error cases follow cel-go's semantics (an error
is absorbed by ``&&``/``||``/``exists`` when the other side decides, and OLM's predicate is
false on any remaining error)."""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

import pytest

from olmtui.model.rules.resolution.cel import (
    MAX_NESTING,
    Unsupported,
    cel_properties,
    evaluate,
    refusal,
    semver_compare,
)
from olmtui.model.rules.resolution.channel_order import ResolutionError
from olmtui.model.rules.resolution.entries import EXISTING, CatalogKey, Entry, decode
from olmtui.model.rules.resolution.predicates import (
    MAX_COMPOUND_DEPTH,
    Cel,
    NotEvaluated,
    dependency_predicates,
)

GVK = {"group": "g", "version": "v", "kind": "k"}
PACKAGE = {"packageName": "another-package", "version": "1.0.1"}


def _props(*pairs: tuple[str, Any]) -> list[dict[str, Any]]:
    texts = tuple((kind, json.dumps(value)) for kind, value in pairs)
    return cel_properties(texts, decode(texts))


def _of_type(kind: str, condition: str) -> str:
    return f"properties.exists(p, p.type == '{kind}' && {condition})"


def _entry(*pairs: tuple[str, Any], existing: bool = False) -> Entry:
    texts = tuple((kind, json.dumps(value, separators=(",", ":"))) for kind, value in pairs)
    catalog = CatalogKey(EXISTING if existing else "community", "olm")
    return Entry(
        "opB.v1.0.1", "another-package", "stable", catalog, properties=texts, values=decode(texts)
    )


# TestCelLibrary (operator-framework/api): one property {"type": "olm.test", "value": "1.0.0"}.
@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (
            "properties.exists(p, p.type == 'olm.test' && (semver_compare(p.value, '1.0.0') == 0))",
            True,
        ),
        (
            "properties.exists(p, p.type == 'olm.test' && (semver_compare(p.value, '1.0.1') == 0))",
            False,
        ),
        (
            "properties.exists(p, p.type == 'olm.test' && (semver_compare(p.value, '1.0.0') < 0))",
            False,
        ),
        (
            "properties.exists(p, p.type == 'olm.test' && (semver_compare(p.value, '1.0.0') > 0))",
            False,
        ),
    ],
)
def test_cel_library_cases(rule: str, expected: bool) -> None:
    assert evaluate(rule, _props(("olm.test", "1.0.0"))) is expected


@pytest.mark.parametrize(
    "rule",
    [
        "properties.exists(p, p.type == 'olm.test' && (doesnt_exist(p.value, '1.0.0') == 0))",
        "1",  # not a bool: cel-go refuses it at compile time
    ],
)
def test_cel_library_invalid_rules_are_not_evaluated(rule: str) -> None:
    with pytest.raises(Unsupported):
        evaluate(rule, _props(("olm.test", "1.0.0")))


GVK_RULE = (
    "properties.exists(p, p.type == 'olm.gvk'"
    " && p.value == {'group': '%s', 'version': 'v', 'kind': 'k'})"
)
PACKAGE_RULE = (
    "properties.exists(p, p.type == 'olm.package' && p.value.packageName == 'another-package'"
    " && (semver_compare(p.value.version, '1.0.1') == 0))"
)


def test_generic_constraint_rules_from_olm_resolver_tests() -> None:
    """TestSolveOperators_GenericConstraint: the map literal compares with the gvk property
    (key order does not matter); the package rule picks exactly version 1.0.1."""
    provider = _entry(("olm.gvk", GVK), ("olm.package", PACKAGE))
    assert Cel(GVK_RULE % "g", "gvk-constraint").test(provider)
    assert not Cel(GVK_RULE % "g2", "gvk2-constraint").test(provider)
    assert Cel(PACKAGE_RULE, "package-constraint").test(provider)
    for version in ("1.0.0", "1.0.2"):
        other = _entry(("olm.package", {**PACKAGE, "version": version}))
        assert not Cel(PACKAGE_RULE, "package-constraint").test(other)


def test_cel_dependency_through_dependency_predicates() -> None:
    bundle = _entry(
        ("olm.constraint", {"failureMessage": "package-constraint", "cel": {"rule": PACKAGE_RULE}})
    )
    (predicate,) = dependency_predicates(bundle)
    assert isinstance(predicate, Cel)
    assert str(predicate).endswith('and message: "package-constraint"')
    assert predicate.test(_entry(("olm.package", PACKAGE)))
    assert not predicate.test(_entry(("olm.package", {**PACKAGE, "packageName": "x"})))


def test_documented_examples_need_the_whole_property_list() -> None:
    """The documentation's ``certified``/``stable`` rules read a type catalog loaders do not
    keep: over a catalog entry olmtui cannot decide them; over an installed CSV (all of its
    annotated properties) it can."""
    one = 'properties.exists(p, p.type == "certified")'
    both = 'properties.exists(p, p.type == "certified") && properties.exists(p, p.type == "stable")'
    catalog_entry = _entry(("certified", "true"), ("olm.package", PACKAGE))
    with pytest.raises(NotEvaluated, match=r"^CEL rule not supported offline: properties"):
        Cel(one, "require to have certified").test(catalog_entry)
    installed = _entry(("certified", "true"), ("olm.package", PACKAGE), existing=True)
    assert Cel(one, "").test(installed)
    assert not Cel(both, "").test(installed)
    assert Cel(both, "").test(_entry(("certified", "true"), ("stable", {}), existing=True))
    value_rule = 'properties.exists(p, p.type == "certified" && p.value == "true")'
    assert Cel(value_rule, "").test(installed)


@pytest.mark.parametrize(
    "rule",
    [
        "properties.exists(p, p.value.packageName == 'another-package')",  # any type
        "properties.exists(p, p.type != 'olm.gvk')",
        "properties.exists(p, p.type in ['olm.gvk', 'custom'] && p.value.kind == 'k')",
        "properties.all(p, p.type == 'olm.package')",
        "size(properties) > 1",
        "properties[0].type == 'olm.package'",
        "properties.exists(p, p.type == 'olm.gvk' || p.value.packageName == 'x')",
    ],
)
def test_catalog_entries_only_decide_rules_confined_to_kept_types(rule: str) -> None:
    with pytest.raises(NotEvaluated):
        Cel(rule, "").test(_entry(("olm.package", PACKAGE)))
    Cel(rule, "").test(_entry(("olm.package", PACKAGE), existing=True))  # decidable


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("properties.all(p, p.type != 'olm.deprecated')", True),
        ("properties.exists(p, p.type in ['olm.gvk', 'olm.label'] && p.value.kind == 'k')", True),
        ("!properties.exists(p, p.type == 'olm.deprecated')", True),
        ("properties.all(p, !(p.type == 'olm.package') || p.value.version == '1.0.1')", True),
        ("properties.exists(p, 'olm.gvk' == p['type'] && p.value['kind'] == 'k')", True),
    ],
)
def test_confined_rules_over_catalog_entries(rule: str, expected: bool) -> None:
    entry = _entry(("olm.gvk", GVK), ("olm.package", PACKAGE))
    assert Cel(rule, "").test(entry) is expected


def test_evaluation_errors_are_false_unless_absorbed() -> None:
    """A missing key is an error in CEL. ``exists`` is true when some element is true even if
    others erred; otherwise the error stands and OLM's predicate is false — even under ``!``."""
    props = _props(("olm.gvk", GVK), ("olm.package", PACKAGE))
    assert evaluate("properties.exists(p, p.value.packageName == 'another-package')", props)
    assert not evaluate("properties.exists(p, p.value.packageName == 'other')", props)
    assert not evaluate("!properties.exists(p, p.value.packageName == 'other')", props)
    assert evaluate("properties.exists(p, p.value.packageName == 'other') || true", props)
    assert not evaluate("properties.exists(p, p.value.packageName == 'other') && false", props)
    assert not evaluate("properties.all(p, p.value.kind == 'k')", props)
    assert not evaluate("properties.all(p, p.value.kind == 'x')", props)  # false wins
    assert not evaluate("properties.exists(p, p.type == 'olm.gvk' && p.value > 1)", props)


def test_semver_compare_is_tolerant_and_errs_on_non_versions() -> None:
    assert semver_compare("v1.2", "1.2.0") == 0
    assert semver_compare("1.10.0", "1.9.0") == 1
    assert semver_compare("1.0.0-rc.1", "1.0.0") == -1
    assert semver_compare(4.12, "4.12.0") == 0  # a JSON number, printed as Go does
    assert semver_compare(1.0, "1.0.0") == 0
    for bad in ("not-a-version", None, {"a": 1}, 1e6, True):
        assert not isinstance(semver_compare(bad, "1.0.0"), int)
    props = _props(("olm.package", {"packageName": "p", "version": "banana"}))
    rule = _of_type("olm.package", "semver_compare(p.value.version, '1.0.0') >= 0")
    assert not evaluate(rule, props)
    assert not evaluate(f"!({rule})", props)


def test_max_openshift_like_rules_over_installed_properties() -> None:
    entry = _entry(("olm.maxOpenShiftVersion", "4.14"), ("olm.package", PACKAGE), existing=True)
    rule = _of_type("olm.maxOpenShiftVersion", "semver_compare(p.value, '%s') %s 0")
    assert Cel(rule % ("4.13", ">"), "").test(entry)
    assert Cel(rule % ("4.14.0", "=="), "").test(entry)
    assert not Cel(rule % ("4.15", ">="), "").test(entry)
    assert Cel(rule % ("4.15", "<"), "").test(entry)
    assert Cel(rule % ("4.14", "<="), "").test(entry)
    assert Cel(rule % ("4.14", "!="), "").test(entry) is False


def test_values_types_literals_and_functions() -> None:
    props = _props(
        ("olm.gvk", GVK),
        ("olm.label", {"label": 'tier="gold"'}),
        ("custom", {"replicas": 3, "ratio": 0.5, "on": True, "tags": ["a", "b"], "none": None}),
    )
    true_rules = [
        "properties.exists(p, p.type == 'custom' && p.value.replicas == 3)",  # double == int
        "properties.exists(p, p.type == 'custom' && p.value.replicas > 2 && p.value.ratio < 1)",
        "properties.exists(p, p.type == 'custom' && p.value.on && p.value.none == null)",
        _of_type("custom", "'b' in p.value.tags && p.value.tags == ['a', 'b']"),
        "properties.exists(p, p.type == 'olm.gvk' && p.value.kind in ['x', 'k'])",
        "properties.exists(p, p.type == 'olm.gvk' && 'kind' in p.value && has(p.value.group))",
        'properties.exists(p, p.type == "olm.label" && p.value.label == "tier=\\"gold\\"")',
        "properties.exists(p, p.type == 'olm.label' && p.value.label.startsWith('tier'))",
        "properties.exists_one(p, p.type == 'olm.gvk')",
        _of_type("custom", "size(p.value.tags) == 2 && p.value.tags.size() == 2"),
        _of_type("custom", "p.value.tags[1] == 'b' && p.value.ratio == 0.5"),
        "properties.exists(p, p.type == 'olm.gvk' && p.value != 'k' && p.value != {'group': 'g'})",
        _of_type("custom", "p.value.replicas > -1 && semver_compare('1.0.0', '1.0.1') == -1"),
        "true",
    ]
    for rule in true_rules:
        assert evaluate(rule, props), rule
    false_rules = [
        "properties.exists(p, p.type == 'custom' && p.value.replicas == '3')",  # no coercion
        "properties.exists(p, p.type == 'olm.gvk' && has(p.value.plural))",
        "properties.exists(p, p.type == 'custom' && p.value.tags[5] == 'b')",
        "properties.exists_one(p, p.type != 'x')",
        "properties.exists(p, p.type == 'olm.gvk' && {'a': 1, 'a': 1} == {'a': 1})",  # an error
    ]
    for rule in false_rules:
        assert not evaluate(rule, props), rule


def test_unparsable_property_is_an_empty_map() -> None:
    """OLM skips a property whose value is not JSON, leaving an empty map in its slot."""
    props = cel_properties((("olm.gvk", "{bad"), ("x", "null")), (("olm.gvk", None), ("x", None)))
    assert props == [{}, {"type": "x", "value": None}]
    assert evaluate("properties.exists(p, p.type == 'x' && p.value == null)", props)
    assert not evaluate("properties.all(p, has(p.type))", props)


@pytest.mark.parametrize(
    "rule",
    [
        "cluster.version == '4.14'",  # undeclared
        "properties.exists(p, p.type == 'olm.gvk') ? true : false",
        "size(properties) + 1 > 2",
        "properties.size() - 1 > 0",
        "-properties.size() < 0",
        "properties.exists(p, p.value.matches('^a'))",
        "properties.map(p, p.type).size() > 0",
        "properties.exists(p, p.type == 'unterminated)",
        "properties.exists(p, p.type == 'a') )",
        "properties.exists(p, p.type == '\\x41')",
        "properties[0].value",  # not a bool
        "properties.exists(p, p.type == b'bytes')",
        "",
    ],
)
def test_rules_outside_the_subset_are_not_evaluated(rule: str) -> None:
    with pytest.raises(NotEvaluated) as info:
        Cel(rule, "m").test(_entry(("olm.package", PACKAGE), existing=True))
    assert str(info.value) == f"CEL rule not supported offline: {rule}"


# -- hostile rules: cel-go's limits, and no deep recursion in olmtui -----------------

RECURSION_REFUSAL = "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"


def _nested(depth: int) -> str:
    return "(" * depth + "true" + ")" * depth


def test_a_rule_nested_in_300_parentheses_is_refused_as_cel_go_does() -> None:
    """cel-go's parser stops at 250 nested ``expr`` rules: OLM cannot build the predicate and
    resolution stops with its message, as for any constraint it cannot convert."""
    assert refusal(_nested(300)) == RECURSION_REFUSAL
    assert refusal(_nested(250)) == RECURSION_REFUSAL  # 251 expr rules
    assert refusal(_nested(249)) is None  # 250: within cel-go's limit
    entry = _entry(("olm.constraint", {"failureMessage": "m", "cel": {"rule": _nested(300)}}))
    with pytest.raises(ResolutionError) as caught:
        dependency_predicates(entry)
    assert str(caught.value) == (
        f"convert olm.constraint to resolver predicate: {RECURSION_REFUSAL}"
    )


def test_a_rule_cel_go_accepts_but_nested_too_deep_for_olmtui_is_not_evaluated() -> None:
    """249 parentheses or 150 nested calls are within cel-go's limits: olmtui does not
    decide them (R-RES-23) rather than recurse that deep."""
    calls = "semver_compare(" * 150 + "'1.0.0', '1.0.0'" + ")" * 150 + " == 0"
    for rule in (_nested(249), calls, "properties[0]" + ".value" * 400 + " == 1"):
        assert refusal(rule) is None
        with pytest.raises(Unsupported, match="nested deeper than"):
            evaluate(rule, _props(("olm.test", "1.0.0")))
        predicate = dependency_predicates(
            _entry(("olm.constraint", {"failureMessage": "m", "cel": {"rule": rule}}))
        )[0]
        with pytest.raises(NotEvaluated):
            predicate.test(_entry(("olm.test", "1.0.0")))


def test_a_run_of_3000_nots_collapses_as_in_cel_go() -> None:
    """cel-go's parser keeps one ``!`` of an odd run and none of an even one."""
    props = _props(("olm.test", "1.0.0"))
    assert evaluate("!" * 3000 + "true", props) is True
    assert evaluate("!" * 3001 + "true", props) is False
    assert evaluate("!" * 3001 + _of_type("olm.test", "p.value == '1.0.0'"), props) is False


def test_long_and_or_chains_are_balanced_as_cel_go_builds_them() -> None:
    props = _props(("olm.test", "1.0.0"))
    assert evaluate(" || ".join(["false"] * 10_000 + ["true"]), props) is True
    assert evaluate(" && ".join(["true"] * 10_000 + ["false"]), props) is False


def test_a_rule_over_100000_code_points_is_refused_as_cel_go_does() -> None:
    rule = "true || " * 12_500 + "true"
    assert refusal(rule) == (
        "ERROR: <input>:-1:0: expression code point size exceeds limit: "
        f"size: {len(rule)}, limit 100000"
    )


def test_an_int_literal_of_5000_digits_is_not_evaluated() -> None:
    with pytest.raises(Unsupported, match="int literal out of range"):
        evaluate(_of_type("olm.test", "p.value == " + "9" * 5000), _props(("olm.test", "1")))


def test_deeply_nested_property_values_are_read_without_recursion() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    props = cel_properties((("olm.test", "[]"),), (("olm.test", deep),))
    rule = _of_type("olm.test", "size(p.value) == 1")
    assert evaluate(rule, props) is True
    with pytest.raises(Unsupported, match="too deep"):
        evaluate(_of_type("olm.test", "p.value == p.value"), props)


def test_the_nesting_olmtui_evaluates_fits_in_a_worker_thread_with_a_used_stack() -> None:
    """The dashboard resolves in worker threads, whose frames count against the same
    recursion limit: a rule at olmtui's nesting limit still evaluates with most of the
    limit already used by the caller."""
    rule = "(" * (MAX_NESTING - 1) + "properties.size() == 1" + ")" * (MAX_NESTING - 1)
    results: list[Any] = []

    def at_depth(left: int) -> None:
        if left:
            at_depth(left - 1)
        else:
            results.append(evaluate(rule + " || false", _props(("olm.test", "1"))))

    worker = threading.Thread(target=at_depth, args=(sys.getrecursionlimit() - 500,))
    worker.start()
    worker.join()
    assert results == [True]


def test_an_olm_constraint_over_131072_bytes_is_refused_as_olm_does() -> None:
    rule = "true" + " " * (2 << 16)
    entry = _entry(("olm.constraint", {"failureMessage": "m", "cel": {"rule": rule}}))
    with pytest.raises(ResolutionError, match="greater than max constraint size 131072 bytes"):
        dependency_predicates(entry)


def test_compound_constraints_nested_too_deep_are_not_evaluated() -> None:
    value: dict[str, Any] = {"gvk": GVK}
    for _ in range(MAX_COMPOUND_DEPTH + 1):
        value = {"not": {"constraints": [value]}}
    with pytest.raises(NotEvaluated, match="nested deeper than"):
        dependency_predicates(_entry(("olm.constraint", {"failureMessage": "m", **value})))


def test_loops_nested_into_millions_of_steps_are_not_evaluated() -> None:
    """Four loops over 100 properties nest into 100 million steps: not left to hang."""
    props = _props(*((f"olm.t{i}", i) for i in range(100)))
    rule = "false"
    for var in "abcd":
        rule = f"properties.exists({var}, {rule})"
    with pytest.raises(Unsupported, match="more than 10000 loop steps"):
        evaluate(rule, props)
    assert evaluate(_of_type("olm.t99", "p.value == 99"), props) is True


def test_brackets_inside_a_triple_quoted_string_are_no_refusal() -> None:
    """olmtui's tokens do not read CEL's triple-quoted strings: no claim about them."""
    rule = "'''a'" + "(" * 300 + "'''" + " == ''"
    assert refusal(rule) is None
    with pytest.raises(Unsupported):
        evaluate(rule, _props(("olm.test", "1")))
