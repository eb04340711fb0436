"""The objects a timeline (``timeline.py``) is made of (R-EVD-11), gathered from the
cache: those of one namespace, or those an incident names, with the Events about them.

A namespace's timeline holds every object the cache keeps in it (its own Namespace too) but
copied CSVs (one per namespace an operator watches: they repeat their original's times) and
PackageManifests (catalog content, not something that happened there). An incident's holds
the objects its findings are about and the objects it affects, up to ``INCIDENT_OBJECTS``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain, islice
from typing import Any, Protocol

from olmtui.kinds import EVENT, NAMESPACE, PACKAGE_MANIFEST
from olmtui.model.records.types import ObjectRef
from olmtui.model.viewmodels.timeline import NAMESPACE_LIMIT, Timeline, timeline
from olmtui.store import NAMESPACE_INDEXED, Store
from olmtui.store_evidence import event_subject

Obj = dict[str, Any]

#: The objects of one incident read for its timeline (a blast radius may name thousands).
INCIDENT_OBJECTS = 200
#: Where the Events about cluster-scoped objects are recorded.
_CLUSTER_EVENTS_NAMESPACE = "default"
#: Kinds whose objects are no part of what happened in a namespace.
_LEFT_OUT = frozenset({PACKAGE_MANIFEST, EVENT})


class NamespaceIndexes(Protocol):
    """Where the kinds the model indexes by namespace are read (``Model``): the store indexes
    the others (``store.NAMESPACE_INDEXED``)."""

    def installed_csvs_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]: ...

    def subscriptions_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]: ...

    def operator_groups_in(self, namespace: str) -> Mapping[str, Obj]: ...


def _namespace_objects(store: Store, namespace: str, indexes: NamespaceIndexes) -> Iterator[Obj]:
    """Every object of the namespace a timeline holds, each read from an index of that
    namespace: a pass over a kind would cost every namespace's objects (100,000 Events)."""
    own = store.get(NAMESPACE, "", namespace)
    if own is not None:
        yield own
    yield from indexes.installed_csvs_by_namespace().get(namespace, {}).values()
    yield from indexes.subscriptions_by_namespace().get(namespace, {}).values()
    yield from indexes.operator_groups_in(namespace).values()
    for kind in sorted(NAMESPACE_INDEXED - _LEFT_OUT):
        yield from store.list(kind, namespace)
    yield from store.list(EVENT, namespace)


def namespace_timeline(
    store: Store,
    namespace: str,
    limit: int = NAMESPACE_LIMIT,
    *,
    indexes: NamespaceIndexes,
) -> Timeline:
    """What happened in ``namespace``, from what the cache holds now (``indexes``: the
    model following that cache)."""
    return timeline(_namespace_objects(store, namespace, indexes), limit)


#: The Events the cache keeps, by the object they are about.
EventsBySubject = dict[ObjectRef, list[Obj]]


def events_by_subject(store: Store) -> EventsBySubject:
    """Every Event the cache keeps, by its involved object: made once for many timelines
    (``check`` writes one per incident)."""
    found: EventsBySubject = {}
    for event in store.list(EVENT):
        subject = event_subject(event)
        if subject is not None:
            found.setdefault(ObjectRef(*subject), []).append(event)
    return found


def _events_about(store: Store, refs: set[ObjectRef]) -> Iterator[Obj]:
    namespaces = {r.namespace or _CLUSTER_EVENTS_NAMESPACE for r in refs}
    for namespace in sorted(namespaces):
        for event in store.list(EVENT, namespace):
            subject = event_subject(event)
            if subject is not None and ObjectRef(*subject) in refs:
                yield event


def refs_timeline(
    store: Store, refs: Iterable[ObjectRef], limit: int, events: EventsBySubject | None = None
) -> Timeline:
    """What happened to the objects ``refs`` name (the first ``INCIDENT_OBJECTS`` of
    them) and the Events about them (from ``events`` when given, else read from the cache);
    an object not in the cache gives nothing."""
    chosen: dict[ObjectRef, None] = {}
    for ref in refs:
        if len(chosen) >= INCIDENT_OBJECTS:
            break
        chosen.setdefault(ref)
    found = [
        obj for ref in chosen if (obj := store.get(ref.kind, ref.namespace, ref.name)) is not None
    ]
    if events is None:
        about = list(_events_about(store, set(chosen)))
    else:
        about = [e for ref in chosen for e in events.get(ref, ())]
    return timeline([*found, *about], limit)


def incident_refs(
    subjects: Sequence[tuple[str, str, str]], affected: Iterable[ObjectRef]
) -> list[ObjectRef]:
    """The objects of an incident: its findings' ``(kind, namespace, name)`` (root first),
    then what it affects; the first ``INCIDENT_OBJECTS`` (a blast radius may name 400,000,
    never copied whole)."""
    refs = (ObjectRef(kind, ns, name) for kind, ns, name in subjects if kind and name)
    return list(islice(chain(refs, affected), INCIDENT_OBJECTS))
