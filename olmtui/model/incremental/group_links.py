"""How one OperatorGroup sees the others (R-API-4): which groups its effective namespaces
meet, where, and which APIs those groups claim.

OLM's API reconciliation (R-API-5) asks, for a CSV, whether another group reaching one of
its namespaces already provides one of its APIs. The model keeps that view per group and
patches it one entry at a time, so a change to one group costs O(groups it meets), not
O(groups²).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass, field

from olmtui.model.incremental.stages import NSKey
from olmtui.model.primitives import nsset
from olmtui.model.records.types import Conflict, Intersection, ref
from olmtui.model.rules.apis.reconcile import APISet, api_list

#: One intersecting group as another group sees it: where they meet, and what it claims.
LinkEntry = tuple[Intersection, APISet]
#: An intersecting group's claim on an API: the group, and where the two groups meet.
Claim = tuple[str, tuple[str, ...]]


@dataclass(slots=True)
class GroupLinks:
    """A group's view of the others (R-API-4): who intersects it, where, and which APIs the
    intersecting groups claim (API -> the claims on it, each (group ref, namespaces), sorted).

    Every group meets a global group, so every group holds its claims: the APIs one group
    alone claims share one tuple.
    """

    entries: dict[NSKey, LinkEntry] = field(default_factory=dict)
    order: list[NSKey] = field(default_factory=list)
    claims: dict[str, tuple[Claim, ...]] = field(default_factory=dict)
    _intersecting: tuple[Intersection, ...] | None = None

    @property
    def intersecting(self) -> tuple[Intersection, ...]:
        if self._intersecting is None:
            self._intersecting = tuple(self.entries[k][0] for k in self.order)
        return self._intersecting

    def put(self, other: NSKey, entry: LinkEntry | None) -> APISet:
        """Replace ``other``'s entry; returns the APIs whose claims changed."""
        old = self.entries.pop(other, None)
        if old == entry:
            if entry is not None:
                self.entries[other] = entry
            return frozenset()
        self._intersecting = None
        if old is not None:
            self._drop(other, old)
        if entry is not None:
            self._add(other, entry)
        return (old[1] if old else frozenset()) | (entry[1] if entry else frozenset())

    def _drop(self, other: NSKey, old: LinkEntry) -> None:
        self.order.pop(bisect_left(self.order, other))
        gone = old[0].operator_group
        for api in old[1]:
            rest = tuple(c for c in self.claims[api] if c[0] != gone)
            if rest:
                self.claims[api] = rest
            else:
                del self.claims[api]

    def _add(self, other: NSKey, entry: LinkEntry) -> None:
        self.entries[other] = entry
        insort(self.order, other)
        claim = (entry[0].operator_group, entry[0].namespaces)
        alone = (claim,)
        for api in entry[1]:
            held = self.claims.get(api)
            self.claims[api] = alone if held is None else tuple(sorted((*held, claim)))


#: The view of a group that meets no other group (or is not indexed yet); shared, so only
#: ever read, never patched.
NO_LINKS = GroupLinks()


def link_entry(
    effective: nsset.NSSet | None, other: NSKey, theirs: nsset.NSSet | None, apis: APISet
) -> LinkEntry | None:
    """R-API-4 / R-OG-4: where group ``other`` (effective set ``theirs``, claiming ``apis``)
    meets a group whose effective set is ``effective``, if they meet at all."""
    if not effective or not theirs:
        return None
    where = nsset.intersection(effective, theirs)
    if not where:
        return None
    return Intersection(ref(*other), tuple(sorted(where))), apis


def conflicts(provided: APISet, links: GroupLinks) -> tuple[Conflict, ...]:
    """R-API-4, R-API-5: per intersecting group, the CSV's APIs it claims and where both reach."""
    by_group: dict[str, tuple[list[str], tuple[str, ...]]] = {}
    for api in provided:
        for group, namespaces in links.claims.get(api, ()):
            by_group.setdefault(group, ([], namespaces))[0].append(api)
    return tuple(
        Conflict(group, api_list(apis), namespaces)
        for group, (apis, namespaces) in sorted(by_group.items())
    )
