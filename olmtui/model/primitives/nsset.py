"""Namespace-set algebra (R-NS-1..5).

A namespace set is a frozenset of names in which the single element ``""`` means "all
namespaces". OLM does not sanitize mixtures such as ``{"", "a"}``; neither do we.
"""

from __future__ import annotations

from collections.abc import Iterable

NSSet = frozenset[str]
ALL: NSSet = frozenset({""})
EMPTY: NSSet = frozenset()


def is_all(s: NSSet) -> bool:
    """R-NS-1: "all" iff exactly one element and it is ``""``."""
    return len(s) == 1 and "" in s


def contains(s: NSSet, namespace: str) -> bool:
    """R-NS-2."""
    return is_all(s) or namespace in s


def intersection(a: NSSet, b: NSSet) -> NSSet:
    """R-NS-3: all ∩ B = B, A ∩ all = A, else plain intersection (so all ∩ ∅ = ∅)."""
    if is_all(a):
        return b
    if is_all(b):
        return a
    return a & b


def union(a: NSSet, b: NSSet) -> NSSet:
    """R-NS-4."""
    if is_all(a):
        return a
    if is_all(b):
        return b
    return a | b


def parse(text: str) -> NSSet:
    """R-NS-5: split on ``,``; ``""`` parses to all."""
    return frozenset(text.split(","))


def make(names: Iterable[str]) -> NSSet:
    return frozenset(names)
