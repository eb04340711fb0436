"""What a namespace's resolution reads, gathered from the cache on the UI thread (the cache
is only read there) so that the resolver, which reads no Store, can resolve it in a worker
while the cache moves on.

Resolving reads the namespace's objects and the catalog content; the content's snapshots
are the slow part (a large catalog takes most of a second), so the Analysis keeps one
:class:`CatalogContent` per list of catalogs the session hands out (the list is replaced
when the catalogs change) and every resolution reuses the entries it built.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, CSV, NAMESPACE, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.resolution.catalog_namespaces import OPENSHIFT_GLOBAL
from olmtui.model.rules.resolution.resolve import (
    CatalogContent,
    NamespaceObjects,
    global_catalog_namespace,
    resolve_namespace,
    resolve_namespaces,
)
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.pipeline.memo import same_objects
from olmtui.store import Obj, Store


@frozen
class ResolutionInputs:
    """Everything one namespace's resolution reads, taken from the cache at one moment, so
    that a worker thread can resolve it while the cache moves on."""

    objects: NamespaceObjects
    content: CatalogContent
    global_namespace: str
    has_content: bool

    def same_as(self, other: ResolutionInputs | None) -> bool:
        """Whether ``other`` holds the very same objects (the cache replaces an object
        when it changes, so identity says nothing moved) and content."""
        if other is None or other.content is not self.content:
            return False
        if other.global_namespace != self.global_namespace:
            return False
        a, b = self.objects, other.objects
        return (
            a.catalog_sources_read == b.catalog_sources_read
            and a.unread == b.unread
            # a bare group is rebuilt on each read of the cache (its compact form): equal,
            # not the same object; list equality still tries identity first
            and list(a.operator_groups) == list(b.operator_groups)
            and same_objects(a.subscriptions, b.subscriptions)
            and same_objects(a.csvs, b.csvs)
            and a.catalog_sources.keys() == b.catalog_sources.keys()
            and all(same_objects(v, b.catalog_sources[k]) for k, v in a.catalog_sources.items())
        )

    def resolve(self) -> NamespaceResolution:
        """Slow with a large catalog: call it off the UI thread."""
        return resolve_namespace(self.objects, self.content, self.global_namespace)


def default_global_namespace(store: Store) -> str:
    """OLM's global catalog namespace for the objects read (R-RES-3): whether OpenShift's
    marketplace namespace, or a CatalogSource in it, is cached."""
    marketplace_seen = store.get(NAMESPACE, "", OPENSHIFT_GLOBAL) is not None or any(
        True for _ in store.list(CATALOG_SOURCE, OPENSHIFT_GLOBAL)
    )
    return global_catalog_namespace(marketplace_seen)


def subscription_namespaces(store: Store) -> set[str]:
    """The namespaces holding a Subscription: those OLM resolves (R-RES-1)."""
    return {namespace for (namespace, _), _ in store.slots(SUBSCRIPTION)}


def _by_namespace(store: Store, kind: str, wanted: set[str]) -> dict[str, list[Obj]]:
    """The objects of ``kind`` in the ``wanted`` namespaces, sorted by name: one pass over
    the kind, however many namespaces (a cluster may hold 100,000 copied CSVs)."""
    named: dict[str, list[tuple[str, Obj]]] = {}
    for (namespace, name), obj in store.slots(kind):
        if namespace in wanted:
            named.setdefault(namespace, []).append((name, obj))
    # The cache key's name is the object's ``metadata.name`` (one per namespace and kind).
    return {ns: [obj for _, obj in sorted(objs, key=_first)] for ns, objs in named.items()}


def _first(pair: tuple[str, Obj]) -> str:
    return pair[0]


def cluster_objects(store: Store, namespaces: Iterable[str]) -> list[NamespaceObjects]:
    """What the resolution of each of ``namespaces`` reads, from the cache, sorted by
    namespace (:func:`namespace_objects`)."""
    wanted = set(namespaces)
    by_kind = {kind: _by_namespace(store, kind, wanted) for kind in OWN_INPUTS}
    sources: dict[str, list[Obj]] = {}
    for (namespace, _), source in store.slots(CATALOG_SOURCE):
        sources.setdefault(namespace, []).append(source)
    return [
        namespace_objects(store, ns, {k: by_kind[k].get(ns, []) for k in OWN_INPUTS}, sources)
        for ns in sorted(wanted)
    ]


def namespace_objects(
    store: Store,
    namespace: str,
    own: Mapping[str, Sequence[Obj]],
    catalog_sources: Mapping[str, Sequence[Obj]],
) -> NamespaceObjects:
    """What the resolution of ``namespace`` reads: its own inputs by kind (``own``,
    each sorted by name, R-RES-1), every CatalogSource, and what the source could not
    read (R-RES-22: CatalogSources, the namespace's own inputs; R-DOC-10: which
    namespaces a ``--namespace`` session read). The one gathering of the resolver's
    inputs: ``check`` (:func:`cluster_objects`) and a trial (``simulated_state``) differ
    only in how they find a namespace's objects."""
    return NamespaceObjects(
        namespace=namespace,
        operator_groups=own[OPERATOR_GROUP],
        subscriptions=own[SUBSCRIPTION],
        csvs=own[CSV],
        catalog_sources=catalog_sources,
        catalog_sources_read=CATALOG_SOURCE not in store.unreadable,
        read_namespaces=store.read_namespaces,
        unread=unread_inputs(store, namespace),
    )


#: A namespace's own resolution inputs (R-RES-1): its OperatorGroups, Subscriptions, CSVs.
OWN_INPUTS = (OPERATOR_GROUP, SUBSCRIPTION, CSV)


def unread_inputs(store: Store, namespace: str) -> tuple[str, ...]:
    """The resources of a namespace's own resolution inputs (R-RES-1: its OperatorGroups,
    Subscriptions and CSVs) the source may not read there."""
    return tuple(
        why.resource
        for kind in OWN_INPUTS
        if (why := store.unreadable.get(kind)) is not None
        and (why.namespaces is None or namespace in why.namespaces)
    )


def resolve_cluster(
    store: Store,
    catalogs: Sequence[Catalog],
    global_namespace: str | None = None,
    only: Collection[str] | None = None,
) -> list[NamespaceResolution]:
    """One ``NamespaceResolution`` per namespace holding a Subscription (R-RES-1), of
    ``only`` those when given (``explain`` needs one), sorted by namespace. ``catalogs`` is
    the session's catalog content (``--catalog`` first, then PackageManifests);
    ``global_namespace`` None means OLM's default (R-RES-3)."""
    global_ns = global_namespace or default_global_namespace(store)
    namespaces = subscription_namespaces(store)
    if only is not None:
        namespaces &= set(only)
    return resolve_namespaces(cluster_objects(store, namespaces), catalogs, global_ns)
