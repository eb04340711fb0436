"""Bench for the resolver's solver (``model/rules/resolution/solver.py``). A script, not a test.

Builds a synthetic problem shaped like OLM's (R-RES-9..14): ``--packages`` packages of
``--bundles`` bundles in one channel, each bundle requiring an API of a few other packages
(every bundle of a package provides that package's API), one package and one API invariant per
package, and ``--subscriptions`` Subscriptions; every variable reachable from the Subscriptions
is in the problem, as OLM's construction makes it. Times ``solve`` on it (a solution) and on the
same problem with an orphaned CSV blocking the first Subscription's package (solve and
``explain``), each against the baseline of building the problem's variables in the same run,
and prints its targets (resolve < 1 s, explain < 2 s).

    python bench/bench_solver.py [--packages 1000] [--bundles 10] [--subscriptions 20]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from olmtui.model.rules.resolution.constraints import (
    AtMost,
    Conflict,
    Constraint,
    Dependency,
    Mandatory,
    Variable,
)
from olmtui.model.rules.resolution.explanation import explain
from olmtui.model.rules.resolution.solver import NotSatisfiable, Solution, solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_catalog_load import best_of


def bundle_id(package: int, version: int) -> str:
    return f"cat/olm/stable/p{package}.v{version}"


def build(packages: int, bundles: int, subscriptions: int, orphan: bool) -> list[Variable]:
    """The variables in construction order (R-RES-13): @existing, Subscriptions depth first
    through dependencies, invariants."""
    rng = random.Random(13)
    requires = {p: rng.sample(range(packages), k=rng.randint(0, 3)) for p in range(packages)}
    variables: dict[str, Variable] = {}
    members: dict[int, list[str]] = {}
    if orphan:
        existing = "@existing/ns//p0.v0"
        text = "clusterserviceversion p0.v0 exists and is not referenced by a subscription"
        variables[existing] = Variable(existing, (Mandatory(text),))
        members.setdefault(0, []).append(existing)

    def add_bundle(p: int, v: int) -> None:
        stack = [(p, v)]
        while stack:
            p, v = stack.pop()
            vid = bundle_id(p, v)
            if vid in variables:
                continue
            deps: list[Constraint] = []
            for q in requires[p]:
                ids = tuple(bundle_id(q, w) for w in reversed(range(bundles)))
                text = f"bundle p{p}.v{v} requires an operator providing an API of p{q}"
                deps.append(Dependency(ids, text))
                stack.extend((q, w) for w in range(bundles))
            if v > 0:
                deps.append(Conflict(bundle_id(p, v - 1), f"{vid} conflicts with ..."))
            variables[vid] = Variable(vid, tuple(deps))
            members.setdefault(p, []).append(vid)

    for s in range(subscriptions):
        candidates = tuple(bundle_id(s, w) for w in reversed(range(bundles)))
        name = f"subscription:s{s}"
        variables[name] = Variable(
            name,
            (
                Mandatory(f"subscription s{s} exists"),
                Dependency(candidates, f"subscription s{s} requires at least one of ..."),
            ),
        )
        for w in range(bundles):
            add_bundle(s, w)
    for p, ids in sorted(members.items()):
        if len(ids) > 1:
            for kind, text in ((f"p{p}", "originate from package"), (f"K{p} (g/v1)", "provide")):
                only_one = Mandatory(f"there can be only one ... {kind}")
                variables[kind] = Variable(kind, (only_one, AtMost(1, tuple(sorted(ids)), text)))
    return list(variables.values())


def anchors(variables: list[Variable]) -> list[str]:
    return [v.id for v in variables if v.constraints and isinstance(v.constraints[0], Mandatory)]


def run(problem: list[Variable]) -> object:
    """Solve, and explain an unsatisfiable result as ``check`` will."""
    result = solve(problem, anchors(problem))
    return explain(result, "ns") if isinstance(result, NotSatisfiable) else result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", type=int, default=1000)
    parser.add_argument("--bundles", type=int, default=10)
    parser.add_argument("--subscriptions", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    shape = (args.packages, args.bundles, args.subscriptions)
    ok, blocked = build(*shape, orphan=False), build(*shape, orphan=True)
    base = best_of(args.repeat, lambda: build(*shape, orphan=False))
    print(f"problem: {len(ok)} variables, {sum(len(v.constraints) for v in ok)} constraints")
    print(f"baseline (building the variables): {base:.3f} s")
    for label, problem, target, kind in (
        ("resolve", ok, 1.0, Solution),
        ("explain", blocked, 2.0, NotSatisfiable),
    ):
        result = solve(problem, anchors(problem))
        assert isinstance(result, kind), result
        took = best_of(args.repeat, lambda p=problem: run(p))  # type: ignore[misc]
        size = len(result.selected if isinstance(result, Solution) else result.constraints)
        print(
            f"{label}: {took:.3f} s ({took / base:.1f}x the baseline; target < {target:.0f} s)"
            f" -> {size} {'selected' if kind is Solution else 'constraints'}"
        )


if __name__ == "__main__":
    main()
