"""What a remedy plan reads from the observed state: objects by kind, namespace and name.

A plan needs a few objects beside its finding's (the Subscription behind a failed
InstallPlan, the other CSVs of its package, the namespace's OperatorGroup), never the cache
itself: :class:`RemedyContext` is the small protocol the planners read through. The Store
satisfies it as it is; :class:`ObjectsContext` holds a plain list (tests, ``whatif``).
A plan that names a bundle to move to reads the catalog content too, where the context
holds it (:func:`catalog_content`); without it such a plan says what it lacks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from olmtui.model.records.catalog import Catalog
from olmtui.objects import Obj, meta


class RemedyContext(Protocol):
    """The objects of the observed state, by kind, namespace and name."""

    def get(self, kind: str, namespace: str, name: str) -> Obj | None: ...

    def list(self, kind: str, namespace: str | None = None) -> Iterable[Obj]: ...


@runtime_checkable
class HoldsCatalogs(Protocol):
    """A context that holds the session's catalog content (``None``: not known)."""

    @property
    def catalogs(self) -> Sequence[Catalog] | None: ...


def catalog_content(context: RemedyContext) -> Sequence[Catalog] | None:
    """The catalog content ``context`` holds, ``None`` when it holds none (the Store)."""
    return context.catalogs if isinstance(context, HoldsCatalogs) else None


class ObjectsContext:
    """A :class:`RemedyContext` over a list of objects (and the catalog content given)."""

    def __init__(self, objects: Iterable[Obj], catalogs: Sequence[Catalog] | None = None) -> None:
        self.catalogs = catalogs
        self._by_key: dict[tuple[str, str, str], Obj] = {}
        for obj in objects:
            obj_meta = meta(obj)
            key = (
                str(obj.get("kind") or ""),
                obj_meta.get("namespace") or "",
                obj_meta.get("name") or "",
            )
            self._by_key[key] = obj

    def get(self, kind: str, namespace: str, name: str) -> Obj | None:
        return self._by_key.get((kind, namespace, name))

    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]:
        return (
            obj
            for (k, ns, _), obj in self._by_key.items()
            if k == kind and (namespace is None or ns == namespace)
        )


class IndexedContext:
    """A :class:`RemedyContext` over another that lists a kind by namespace from one pass:
    the Store lists a namespace by scanning the whole kind, and a report plans a remedy for
    every finding (a hundred thousand copied CSVs would be scanned per finding)."""

    def __init__(self, source: RemedyContext, catalogs: Sequence[Catalog] | None = None) -> None:
        self._source = source
        self.catalogs = catalogs
        self._by_namespace: dict[str, dict[str, list[Obj]]] = {}

    def get(self, kind: str, namespace: str, name: str) -> Obj | None:
        return self._source.get(kind, namespace, name)

    def list(self, kind: str, namespace: str | None = None) -> Iterable[Obj]:
        if namespace is None:
            return self._source.list(kind)
        grouped = self._by_namespace.get(kind)
        if grouped is None:
            grouped = {}
            for obj in self._source.list(kind):
                grouped.setdefault(meta(obj).get("namespace") or "", []).append(obj)
            self._by_namespace[kind] = grouped
        return grouped.get(namespace, ())
