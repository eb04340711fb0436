"""The resolver's solver (R-RES-15..18): OLM's preferences on hand-made problems, and random
small problems checked against a brute force that applies R-RES-17 literally."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from solver_models import applied_of, holds, models

from olmtui.model.rules.resolution.constraints import (
    AtMost,
    Conflict,
    Constraint,
    Dependency,
    Mandatory,
    Prohibited,
    Variable,
)
from olmtui.model.rules.resolution.solver import NotSatisfiable, Solution, solve


def var(id: str, *constraints: Constraint) -> Variable:
    return Variable(id, constraints)


def sub(name: str, *candidates: str) -> Variable:
    return var(
        f"subscription:{name}",
        Mandatory(f"subscription {name} exists"),
        Dependency(candidates, f"subscription {name} requires {', '.join(candidates)}"),
    )


def anchors(variables: Sequence[Variable]) -> list[str]:
    return [v.id for v in variables if any(isinstance(c, Mandatory) for c in v.constraints)]


def run(variables: Sequence[Variable]) -> Solution | NotSatisfiable:
    return solve(variables, anchors(variables))


def selected(variables: Sequence[Variable]) -> tuple[str, ...]:
    result = run(variables)
    assert isinstance(result, Solution), result
    return result.selected


def texts(result: Solution | NotSatisfiable) -> list[str]:
    assert isinstance(result, NotSatisfiable), result
    return [c.constraint.text for c in result.constraints]


def test_head_is_preferred() -> None:
    problem = [sub("s", "c/ns/ch/a.v3", "c/ns/ch/a.v2"), var("c/ns/ch/a.v3"), var("c/ns/ch/a.v2")]
    assert selected(problem) == ("subscription:s", "c/ns/ch/a.v3")


def test_stays_put_when_the_upgrade_cannot_be_satisfied() -> None:
    up = var(
        "c/ns/ch/a.v2",
        Dependency((), "bundle a.v2 requires an operator providing an API with group: g"),
        Conflict("@existing/ns//a.v1", "c/ns/ch/a.v2 conflicts with @existing/ns//a.v1"),
    )
    problem = [var("@existing/ns//a.v1"), sub("s", "c/ns/ch/a.v2", "@existing/ns//a.v1"), up]
    assert selected(problem) == ("@existing/ns//a.v1", "subscription:s")


def test_picks_older_provider_when_the_head_conflicts() -> None:
    """PicksOlderProvider: the dependency's first provider conflicts with a choice already
    made, so the search walks down the preference list."""
    problem = [
        sub("s", "c/ns/ch/a.v1"),
        var("c/ns/ch/a.v1", Dependency(("c/ns/ch/b.v2", "c/ns/ch/b.v1"), "bundle a.v1 requires b")),
        var("c/ns/ch/b.v2", Conflict("c/ns/ch/a.v1", "c/ns/ch/b.v2 conflicts with c/ns/ch/a.v1")),
        var("c/ns/ch/b.v1"),
    ]
    assert selected(problem) == ("subscription:s", "c/ns/ch/a.v1", "c/ns/ch/b.v1")


def test_dependency_satisfied_by_existing_adds_nothing() -> None:
    problem = [
        var("@existing/ns//b.v1", Mandatory("clusterserviceversion b.v1 exists and is not ...")),
        sub("s", "c/ns/ch/a.v1"),
        var("c/ns/ch/a.v1", Dependency(("@existing/ns//b.v1", "c/ns/ch/b.v2"), "a needs b")),
        var("c/ns/ch/b.v2"),
        var(
            "b",
            Mandatory("there can be only one operator from package b"),
            AtMost(1, ("@existing/ns//b.v1", "c/ns/ch/b.v2"), "… originate from package b"),
        ),
    ]
    assert selected(problem) == ("@existing/ns//b.v1", "subscription:s", "c/ns/ch/a.v1", "b")


def test_minimisation_drops_what_no_choice_needs() -> None:
    """An unconstrained variable is not selected; the fewest selected wins."""
    problem = [sub("s", "c/ns/ch/a.v1"), var("c/ns/ch/a.v1"), var("c/ns/ch/x.v1")]
    assert selected(problem) == ("subscription:s", "c/ns/ch/a.v1")


def test_unknown_ids_are_false() -> None:
    problem = [sub("s", "nowhere", "c/ns/ch/a.v1"), var("c/ns/ch/a.v1")]
    assert selected(problem) == ("subscription:s", "c/ns/ch/a.v1")
    problem = [sub("s", "nowhere")]
    assert texts(run(problem)) == ["subscription s requires nowhere", "subscription s exists"]


def test_invalid_subscription_is_mandatory_and_prohibited() -> None:
    bad = var(
        "subscription:s",
        Mandatory("subscription s exists"),
        Prohibited("no operators found in package p in the catalog referenced by subscription s"),
    )
    result = run([bad, sub("t", "c/ns/ch/a.v1"), var("c/ns/ch/a.v1")])
    assert texts(result) == [
        "no operators found in package p in the catalog referenced by subscription s",
        "subscription s exists",
    ]
    assert isinstance(result, NotSatisfiable)
    assert result.olm_message() == (
        "constraints not satisfiable: no operators found in package p in the catalog "
        "referenced by subscription s, subscription s exists"
    )


def test_orphan_blocks_its_package_causes_first() -> None:
    problem = [
        var(
            "@existing/ns//a.v1",
            Mandatory("clusterserviceversion a.v1 exists and is not referenced by a subscription"),
        ),
        sub("s", "c/ns/ch/a.v2"),
        var("c/ns/ch/a.v2"),
        var(
            "a",
            Mandatory("there can be only one operator from package a"),
            AtMost(
                1,
                ("@existing/ns//a.v1", "c/ns/ch/a.v2"),
                "@existing/ns//a.v1 and c/ns/ch/a.v2 originate from package a",
            ),
        ),
    ]
    assert texts(run(problem)) == [
        "@existing/ns//a.v1 and c/ns/ch/a.v2 originate from package a",
        "subscription s requires c/ns/ch/a.v2",
        "clusterserviceversion a.v1 exists and is not referenced by a subscription",
        "subscription s exists",
    ]  # the invariant's own Mandatory is not needed: its AtMost holds unconditionally


def test_core_keeps_the_cause_over_an_alternative() -> None:
    """Two reasons the only candidate is impossible: both stay out of a minimal set but one."""
    problem = [
        sub("s", "c/ns/ch/a.v1"),
        var(
            "c/ns/ch/a.v1",
            Prohibited("bundle c/ns/ch/a.v1 is deprecated"),
            Dependency((), "bundle a.v1 requires an operator with package: q"),
        ),
    ]
    found = texts(run(problem))
    assert len(found) == 3
    assert found[1:] == ["subscription s requires c/ns/ch/a.v1", "subscription s exists"]


def test_atmost_holds_regardless_of_its_variable() -> None:
    """OLM's AtMost is a cardinality circuit over its ids alone (solver/constraints.go)."""
    problem = [
        var("x", AtMost(1, ("a", "b"), "a and b provide k (g/v)")),
        var("a", Mandatory("a is mandatory")),
        var("b", Mandatory("b is mandatory")),
    ]
    assert texts(run(problem)) == ["a and b provide k (g/v)", "a is mandatory", "b is mandatory"]


def test_empty_message() -> None:
    assert NotSatisfiable(()).olm_message() == "constraints not satisfiable"


# --- random small problems against a brute force -------------------------------------------

IDS = ["v0", "v1", "v2", "v3", "v4", "v5"]


@st.composite
def problems(draw: st.DrawFn) -> list[Variable]:
    n = draw(st.integers(1, 6))
    ids = IDS[:n]
    pool = st.sampled_from([*ids, "ghost"])
    constraint = st.one_of(
        st.just(0).map(lambda _: Mandatory("")),
        st.just(0).map(lambda _: Prohibited("")),
        st.lists(pool, max_size=3).map(lambda xs: Dependency(tuple(xs), "")),
        pool.map(lambda x: Conflict(x, "")),
        st.tuples(st.integers(0, 2), st.lists(pool, min_size=1, max_size=4)).map(
            lambda t: AtMost(t[0], tuple(t[1]), "")
        ),
    )
    variables = []
    for i, id in enumerate(ids):
        raw = draw(st.lists(constraint, max_size=3))
        named = [_named(c, f"{id}#{j}") for j, c in enumerate(raw)]
        variables.append(Variable(id, tuple(named)))
        del i
    return variables


def _named(c: Constraint, text: str) -> Constraint:
    if isinstance(c, Mandatory):
        return Mandatory(text)
    if isinstance(c, Prohibited):
        return Prohibited(text)
    if isinstance(c, Dependency):
        return Dependency(c.ids, text)
    if isinstance(c, Conflict):
        return Conflict(c.id, text)
    return AtMost(c.n, c.ids, text)


def brute_force(variables: Sequence[Variable]) -> tuple[str, ...] | None:
    """R-RES-17 literally: breadth-first choices, then fewest selected, then lexicographic."""
    ids = [v.id for v in variables]
    every = models(variables, applied_of(variables))
    if not every:
        return None
    position = {i: k for k, i in enumerate(ids)}

    def with_true(bits: tuple[bool, ...], need: list[str]) -> bool:
        return all(bits[position[n]] for n in need)

    chosen: list[str] = []
    queue = [[a] for a in anchors(variables)]
    while queue:
        options = queue.pop(0)
        if any(o in chosen for o in options):
            continue
        for option in options:
            if option in position and any(with_true(b, [*chosen, option]) for b in every):
                chosen.append(option)
                for c in next(v for v in variables if v.id == option).constraints:
                    if isinstance(c, Dependency) and c.ids:
                        queue.append(list(c.ids))
                break
    fits = [b for b in every if with_true(b, chosen)]
    best = max(fits, key=lambda b: (-sum(b), b))
    return tuple(i for i, b in zip(ids, best, strict=True) if b)


@settings(max_examples=300, deadline=None)
@given(problems())
def test_random_problems_match_the_brute_force(variables: list[Variable]) -> None:
    result = run(variables)
    assert run(variables) == result  # same input, same output
    expected = brute_force(variables)
    if expected is None:
        assert isinstance(result, NotSatisfiable)
        core = list(result.constraints)
        assert not models(variables, core)
        for k in range(len(core)):
            assert models(variables, core[:k] + core[k + 1 :]), core[k]
        assert set(core) <= set(applied_of(variables))
    else:
        assert isinstance(result, Solution)
        assert result.selected == expected
        true = set(result.selected)
        assert all(holds(c, true) for c in applied_of(variables))
