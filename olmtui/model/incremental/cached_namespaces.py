"""The existing namespaces and their labels, as the group rules read them (a group's targets,
R-OG-1; the labels OLM writes on them, R-OG-5), straight from the cache: an index of its own
was a second table as large as the cache's for a snapshot of 1,600,000 Namespaces (~120 MB
beside it).

The model reads it only when it recomputes, after it has handled every change of a batch,
and the store publishes a batch once it holds all of it: what it reads here is what its own
index held then.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping

from olmtui.kinds import NAMESPACE
from olmtui.model.rules.operatorgroups.targets import Labels
from olmtui.objects import labels
from olmtui.store import Store


class CachedNamespaces(Mapping[str, Labels]):
    """Namespace name -> its labels (empty when it has none), for every cached Namespace."""

    __slots__ = ("_store",)

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getitem__(self, name: str) -> Labels:
        found = self._store.get(NAMESPACE, "", name)
        if found is None:
            raise KeyError(name)
        return labels(found)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._store.has(NAMESPACE, "", name)

    def __iter__(self) -> Iterator[str]:
        return (name for (_, name), _ in self._store.slots(NAMESPACE))

    def __len__(self) -> int:
        return self._store.count(NAMESPACE)

    def items(self) -> ItemsView[str, Labels]:
        return _Items(self)


class _Items(ItemsView[str, Labels]):
    """The pairs in one pass over the cache (a selector is matched against every one)."""

    _mapping: CachedNamespaces

    def __iter__(self) -> Iterator[tuple[str, Labels]]:
        store = self._mapping._store
        return ((name, labels(obj)) for (_, name), obj in store.slots(NAMESPACE))
