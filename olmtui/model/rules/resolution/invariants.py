"""One provider per API, one operator per package (R-RES-14).

OLM adds these over every bundle variable it made, chosen or not: for each API (``olm.gvk``)
and each package (``olm.package``) with two or more variables, one more variable that is
mandatory and allows at most one of them. Their texts list the ids in byte order.
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.model.rules.resolution.constraints import AtMost, Mandatory, Variable
from olmtui.model.rules.resolution.entries import gvks_of, packages_of
from olmtui.model.rules.resolution.sources import Sources
from olmtui.model.rules.resolution.variables import Draft


def _joined(ids: list[str]) -> str:
    return f"{', '.join(ids[:-1])} and {ids[-1]}"


def _at_most_one(id: str, what: str, ids: list[str], verb: str) -> Variable:
    """R-RES-14: a mandatory variable allowing at most one of ``ids`` (listed in byte order)."""
    ids = sorted(ids, key=str.encode)
    return Variable(
        id,
        (
            Mandatory(f"there can be only one {what}"),
            AtMost(1, tuple(ids), f"{_joined(ids)} {verb}"),
        ),
    )


def invariants(drafts: Iterable[Draft], sources: Sources) -> list[Variable]:
    """R-RES-14: the invariant variables, one per API and per package with two or more
    variables, sorted by id (byte order)."""
    apis: dict[tuple[str, str, str], list[str]] = {}
    packages: dict[str, list[str]] = {}
    for draft in drafts:
        entry = draft.entry
        if entry is None:
            continue
        # R-RES-14: a variable not found back as exactly one entry is skipped.
        if len(sources.exactly(entry.catalog, entry.name, entry.channel)) != 1:
            continue
        for gvk in gvks_of(entry):
            apis.setdefault(gvk, []).append(draft.id)
        for package in packages_of(entry):
            packages.setdefault(package, []).append(draft.id)
    out: list[Variable] = []
    for (group, version, kind), ids in apis.items():
        if len(ids) > 1:
            api = f"{kind} ({group}/{version})"
            out.append(_at_most_one(api, f"provider of {api}", ids, f"provide {api}"))
    out += [
        _at_most_one(
            package, f"operator from package {package}", ids, f"originate from package {package}"
        )
        for package, ids in packages.items()
        if len(ids) > 1
    ]
    return sorted(out, key=lambda v: v.id.encode())
