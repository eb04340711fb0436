"""Replacement chains on the cluster (R-CSV-R, R-CSV-R2, §15.15): which CSV replaces which
in a namespace, which one OLM deletes next, and ``spec.replaces`` loops.

``replaces`` maps each non-copied CSV of one namespace to its ``spec.replaces``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from olmtui.model import findings
from olmtui.model.types import Finding


def replaced_by(name: str, replaces: Mapping[str, str | None]) -> str | None:
    """R-CSV-R2 "being replaced": a CSV other than this one whose ``spec.replaces`` names it
    (OLM takes the first it finds; here the first by name)."""
    for other in sorted(replaces):
        if other != name and replaces[other] == name:
            return other
    return None


def replaces_existing(name: str, replaces: Mapping[str, str | None]) -> str | None:
    """R-CSV-R2 "replacing": the CSV this one replaces, when it still exists."""
    target = replaces.get(name)
    return target if target and target != name and target in replaces else None


def replacement_cycle(name: str, replaces: Mapping[str, str | None]) -> tuple[str, ...]:
    """The loop of existing CSVs ``name`` sits on, following ``spec.replaces``, in walking
    order starting at ``name``; empty when it is on none. OLM never garbage-collects such a
    chain because every member still replaces an existing CSV (R-CSV-R)."""
    seen = [name]
    current = name
    while (target := replaces_existing(current, replaces)) is not None:
        if target == name:
            return tuple(seen)
        if target in seen:
            return ()
        seen.append(target)
        current = target
    return ()


def replacement_findings(
    namespace: str,
    name: str,
    replaces: Mapping[str, str | None],
    held: Collection[str] = (),
) -> list[Finding]:
    """R-CSV-R2 (a CSV another one is replacing) and R-CSV-R (a ``spec.replaces`` loop).
    While the successor is in ``held`` (Pending/OperatorConditionNotUpgradeable, R-CSV-P 1)
    nothing says this CSV is being replaced: the held-upgrade finding tells it."""
    found: list[Finding] = []
    successor = replaced_by(name, replaces)
    if successor and successor not in held:
        found.append(
            findings.being_replaced(namespace, name, successor, replaces_existing(name, replaces))
        )
    cycle = replacement_cycle(name, replaces)
    if cycle:
        found.append(findings.replacement_cycle(namespace, name, cycle))
    return found
