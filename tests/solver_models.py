"""Brute-force truth for the resolution solver: every assignment of the variables that
satisfies the applied constraints, so a solver answer can be checked against all of them."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from olmtui.model.rules.resolution.constraints import (
    AppliedConstraint,
    Conflict,
    Dependency,
    Mandatory,
    Prohibited,
    Variable,
)


def holds(applied: AppliedConstraint, true: set[str]) -> bool:
    c, x = applied.constraint, applied.variable
    if isinstance(c, Mandatory):
        return x in true
    if isinstance(c, Prohibited):
        return x not in true
    if isinstance(c, Dependency):
        return x not in true or any(i in true for i in c.ids)
    if isinstance(c, Conflict):
        return not (x in true and c.id in true)
    return len(set(c.ids) & true) <= c.n


def applied_of(variables: Sequence[Variable]) -> list[AppliedConstraint]:
    return [AppliedConstraint(v.id, c) for v in variables for c in v.constraints]


def models(variables: Sequence[Variable], constraints: Sequence[AppliedConstraint]) -> list:
    ids = [v.id for v in variables]
    found = []
    for bits in itertools.product([True, False], repeat=len(ids)):
        true = {i for i, b in zip(ids, bits, strict=True) if b}
        if all(holds(c, true) for c in constraints):
            found.append(bits)
    return found
