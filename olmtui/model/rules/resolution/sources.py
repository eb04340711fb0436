"""The entries one namespace's resolution can see, and the orders OLM reads them in (R-RES-4,
R-RES-12).

OLM's namespaced operator cache holds one snapshot per visible CatalogSource plus the
``@existing`` snapshot of the preferred namespace. Dependencies are looked up across all of
them in a fixed preference order of snapshots (``sortableSnapshots.Less``), then regrouped
per catalog, package and channel (``sortBundles``). Lookups by API and by package go through
indexes: a catalog of ten thousand bundles is scanned once, not once per dependency.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cmp_to_key

from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.resolution.channel_order import sort_channel
from olmtui.model.rules.resolution.entries import (
    EXISTING,
    CatalogKey,
    Entry,
    GvkKey,
    gvks_of,
    packages_of,
)
from olmtui.model.rules.resolution.predicates import All, Gvk, Package, Predicate


class Snapshot:
    """One source's entries in the order it serves them, its priority (R-RES-4), and its
    indexes by API, package, channel group and (name, channel). ``catalog`` is the content
    it was made from (none for ``@existing``), so a cache can tell it is still current."""

    __slots__ = ("by_gvk", "by_package", "catalog", "entries", "exact", "groups", "key", "priority")

    def __init__(
        self,
        key: CatalogKey,
        entries: tuple[Entry, ...],
        priority: int = 0,
        catalog: Catalog | None = None,
    ) -> None:
        self.key = key
        self.entries = entries
        self.priority = priority
        self.catalog = catalog
        self.by_gvk: dict[GvkKey, list[Entry]] = defaultdict(list)
        self.by_package: dict[str, list[Entry]] = defaultdict(list)
        self.groups: dict[tuple[str, str], list[Entry]] = defaultdict(list)
        self.exact: dict[tuple[str, str], list[Entry]] = defaultdict(list)
        for entry in entries:
            for gvk in set(gvks_of(entry)):
                self.by_gvk[gvk].append(entry)
            for package in {entry.package, *packages_of(entry)}:
                self.by_package[package].append(entry)
            self.groups[(entry.package, entry.channel)].append(entry)
            self.exact[(entry.name, entry.channel)].append(entry)

    def pool(self, predicate: Predicate) -> Iterable[Entry]:
        """The entries that may match ``predicate``: an index where one applies."""
        if isinstance(predicate, Gvk):
            return self.by_gvk.get((predicate.group, predicate.version, predicate.kind), ())
        if isinstance(predicate, Package):
            return self.by_package.get(predicate.name, ())
        if isinstance(predicate, All):
            for part in predicate.parts:
                if isinstance(part, Gvk | Package):
                    return self.pool(part)
        return self.entries


def _group_key(entry: Entry) -> tuple[str, str, bool]:
    return (entry.package, entry.channel, entry.default_channel)


@dataclass(slots=True)
class Sources:
    """The namespaced cache of one resolution: ``snapshots`` in any order, ``@existing`` of
    ``namespace`` among them."""

    namespace: str
    snapshots: Sequence[Snapshot]
    #: ``@existing`` entry name -> the Subscription whose ``status.installedCSV`` names it
    #: (first by name), part of OLM's source info of that entry (R-RES-7.2).
    owners: dict[str, str] = field(default_factory=dict)
    _by_key: dict[CatalogKey, Snapshot] = field(init=False)
    _orders: dict[tuple[CatalogKey | None, str], list[Snapshot]] = field(init=False)
    _candidates: dict[tuple[CatalogKey, Predicate], list[Entry]] = field(init=False)

    def __post_init__(self) -> None:
        self._by_key = {s.key: s for s in self.snapshots}
        self._orders = {}
        self._candidates = {}

    @property
    def existing(self) -> CatalogKey:
        return CatalogKey(EXISTING, self.namespace)

    def catalog(self, key: CatalogKey) -> list[Snapshot]:
        """``Catalog(key)``: every source in OLM's plain order when the key is empty (R-RES-10.2),
        else that source (none when it is not visible)."""
        if not key.name and not key.namespace:
            return self.ordered(None, "")
        snapshot = self._by_key.get(key)
        return [snapshot] if snapshot is not None else []

    def exactly(self, key: CatalogKey, name: str, channel: str) -> list[Entry]:
        """The entries of ``key`` named ``name`` in ``channel`` (``ExactlyOne`` wants one)."""
        snapshot = self._by_key.get(key)
        return snapshot.exact.get((name, channel), []) if snapshot is not None else []

    def ordered(self, preferred: CatalogKey | None, namespace: str) -> list[Snapshot]:
        """R-RES-12 (``sortableSnapshots.Less``): ``@existing`` of ``namespace`` first, then
        ``preferred``, then higher priority, then a source in ``namespace`` before one that
        is not, then by name."""
        cached = self._orders.get((preferred, namespace))
        if cached is not None:
            return cached
        existing = CatalogKey(EXISTING, namespace) if namespace else None

        def less(a: Snapshot, b: Snapshot) -> bool:
            for first in (existing, preferred):
                if first is not None and a.key == first:
                    return True
                if first is not None and b.key == first:
                    return False
            if a.priority != b.priority:
                return a.priority > b.priority
            if a.key.namespace != b.key.namespace:
                if a.key.namespace == namespace:
                    return True
                if b.key.namespace == namespace:
                    return False
            return a.key.name < b.key.name

        def compare(a: Snapshot, b: Snapshot) -> int:
            return -1 if less(a, b) else (1 if less(b, a) else 0)

        order = sorted(self.snapshots, key=cmp_to_key(compare))
        self._orders[(preferred, namespace)] = order
        return order

    def matching(self, predicate: Predicate) -> Iterable[Entry]:
        """Entries of every source that satisfy ``predicate``, in no particular order (only
        the groups they belong to matter, R-RES-12.1)."""
        return (e for s in self.snapshots for e in s.pool(predicate) if predicate.test(e))

    def dependency_candidates(self, bundle: Entry, predicate: Predicate) -> list[Entry]:
        """R-RES-12.1-3: every entry of a (catalog, package, channel) group holding a match
        (for ``@existing``, just the matching CSV), in OLM's preference order, then kept when
        it matches. Raises ``ResolutionError`` when a channel has no single chain."""
        cached = self._candidates.get((bundle.catalog, predicate))
        if cached is None:
            cached = self._candidates[(bundle.catalog, predicate)] = self._candidates_of(
                bundle.catalog, predicate
            )
        return cached

    def _candidates_of(self, catalog: CatalogKey, predicate: Predicate) -> list[Entry]:
        groups: dict[CatalogKey, set[tuple[str, str]]] = {}
        existing: dict[tuple[str, str | None], str] = {}
        for entry in self.matching(predicate):
            if entry.catalog.virtual:
                # OLM dedups matches by source info; for installed CSVs that is the package
                # and the owning Subscription, so the first CSV of such a pair stands for both.
                existing.setdefault((entry.package, self.owners.get(entry.name)), entry.name)
            else:
                groups.setdefault(entry.catalog, set()).add((entry.package, entry.channel))
        chosen = set(existing.values())
        selected: list[Entry] = []
        for snapshot in self.ordered(catalog, self.namespace):
            if snapshot.key.virtual:
                selected += [e for e in snapshot.entries if e.name in chosen]
                continue
            for key in groups.get(snapshot.key, ()):
                selected += snapshot.groups[key]
        return [e for e in sort_bundles(selected) if predicate.test(e)]


def sort_bundles(entries: Sequence[Entry]) -> list[Entry]:
    """OLM's ``sortBundles`` (R-RES-12.2): catalogs in the order given; within one, groups by
    default channel first, then package, then channel; each group in channel order."""
    catalogs: dict[CatalogKey, dict[tuple[str, str, bool], list[Entry]]] = {}
    for entry in entries:
        catalogs.setdefault(entry.catalog, {}).setdefault(_group_key(entry), []).append(entry)
    out: list[Entry] = []
    for groups in catalogs.values():
        for key in sorted(groups, key=lambda g: (not g[2], g[0], g[1])):
            out += sort_channel(groups[key])
    return out


def subscription_order(entries: Sequence[Entry]) -> list[Entry]:
    """R-RES-10.4: the default channel first, then channels by name; each run of one
    channel in its chain order."""
    ordered = sorted(entries, key=lambda e: (not e.default_channel, e.channel))
    out: list[Entry] = []
    start = 0
    for i in range(1, len(ordered) + 1):
        if i == len(ordered) or ordered[i].channel != ordered[start].channel:
            out += sort_channel(ordered[start:i])
            start = i
    return out
