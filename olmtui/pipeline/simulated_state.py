"""The state a simulation tries changes on (``pipeline/simulation.py``): the session's cache
copied (or the session's own, in place), with a model and a health index following it, the
objects a resolution reads kept by namespace, and the findings and resolutions at rest."""

from __future__ import annotations

import datetime as dt
from bisect import insort
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import (
    finding_order,
    findings_read,
    without_model_duplicates,
)
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.diagnosis import Change, finding_key
from olmtui.model.records.types import Finding
from olmtui.model.rules.resolution.outcome_findings import resolution_outcome_findings
from olmtui.model.rules.resolution.resolve import CatalogContent, resolve_namespace
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.model.rules.upgrades.decided import decided_findings, decided_subscriptions
from olmtui.model.rules.upgrades.graph import upgrade_hook
from olmtui.pipeline.resolution_inputs import (
    OWN_INPUTS,
    default_global_namespace,
    namespace_objects,
)
from olmtui.store import Change as StoreChange
from olmtui.store import Obj, Store

if TYPE_CHECKING:
    from olmtui.pipeline.simulation_outcome import Outcome


class SimulationSource(Protocol):
    """What the simulation reads of its session (``pipeline/session.py``)."""

    @property
    def store(self) -> Store: ...
    @property
    def model(self) -> Model: ...
    @property
    def catalogs(self) -> Callable[[], list[Catalog]]: ...
    @property
    def load_findings(self) -> list[Finding]: ...
    @property
    def clock(self) -> Callable[[], dt.datetime] | None: ...
    @property
    def global_namespace(self) -> str | None: ...


#: The kinds one namespace's resolution reads (R-RES-22), kept by namespace for the trials.
_RESOLUTION_KINDS = ("OperatorGroup", "Subscription", "ClusterServiceVersion", "CatalogSource")


class ObjectsByNamespace:
    """The objects a resolution reads, by kind, namespace and name, kept from the copy's
    change feed: resolving the one namespace a trial changed must not pass over every
    copied CSV of the cluster (``resolve.cluster_objects`` does, once per call)."""

    def __init__(self, store: Store) -> None:
        self._held: dict[str, dict[str, dict[str, Obj]]] = {k: {} for k in _RESOLUTION_KINDS}
        for kind in _RESOLUTION_KINDS:
            held = self._held[kind]
            for (namespace, name), obj in store.slots(kind):
                held.setdefault(namespace, {})[name] = obj
        self._store = store
        store.subscribe(self.follow)

    def close(self) -> None:
        self._store.unsubscribe(self.follow)

    def follow(self, changes: list[StoreChange]) -> None:
        """Take the cache's changes (a trial's too, while the others' feed is held)."""
        for change in changes:
            held = self._held.get(change.key.kind)
            if held is None:
                continue
            key = change.key
            if change.new is not None:
                held.setdefault(key.namespace, {})[key.name] = change.new
                continue
            objs = held.get(key.namespace)
            if objs is not None:
                objs.pop(key.name, None)
                if not objs:
                    del held[key.namespace]

    def objects(self, kind: str, namespace: str) -> list[Obj]:
        """Sorted by name, as OLM lists them (R-RES-1)."""
        objs = self._held[kind].get(namespace, {})
        return [objs[name] for name in sorted(objs)]

    def held(self, kind: str) -> bool:
        return kind in self._held

    def in_namespace(self, kind: str, namespace: str) -> Iterator[Obj]:
        return iter(list(self._held[kind].get(namespace, {}).values()))

    def namespaces(self, kind: str) -> set[str]:
        return set(self._held[kind])

    def catalog_sources(self) -> dict[str, list[Obj]]:
        return {ns: list(objs.values()) for ns, objs in self._held["CatalogSource"].items()}


class ReactionReader:
    """What the reactions read (``reactions.StateReader``): the cache, with one namespace's
    Subscriptions or groups from the objects kept by namespace (``Store.list`` with a
    namespace passes over the whole kind)."""

    def __init__(self, store: Store, by_namespace: ObjectsByNamespace) -> None:
        self._store = store
        self._by_namespace = by_namespace

    def get(self, kind: str, namespace: str, name: str) -> Obj | None:
        return self._store.get(kind, namespace, name)

    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]:
        if namespace is not None and self._by_namespace.held(kind):
            return self._by_namespace.in_namespace(kind, namespace)
        return self._store.list(kind, namespace)


class SimulatedState:
    """The session's state copied once: a cache, its model, health index and objects by
    namespace, and the resolutions and findings of the state at rest."""

    def __init__(
        self,
        source: SimulationSource,
        in_place: bool,
        index: HealthIndex | None = None,
        resolutions: Sequence[NamespaceResolution] | None = None,
    ) -> None:
        """``resolutions``: what :meth:`resolve` gives of every namespace now, when the
        caller resolved them on this very state (in place: ``check``'s report did)."""
        catalogs = source.catalogs()
        self.catalogs = catalogs
        self.content = CatalogContent(catalogs)
        if in_place:
            self.store, self.model = source.store, source.model
        else:
            self.store = source.store.copy()
            self.model = Model(self.store, upgrades=upgrade_hook(catalogs))
        #: In place, the session's own index when given: it follows the same cache and
        #: model, so a second one would compute every finding again (``check``'s remedy
        #: proofs: a second of CPU at 1,000 namespaces, half of it its first ``findings()``)
        #: and follow every trial's changes twice.
        self._own_index = not (in_place and index is not None)
        self.index = (
            index
            if index is not None and in_place
            else HealthIndex(
                self.store, self.model, lambda: catalogs, source.load_findings, clock=source.clock
            )
        )
        self.by_namespace = ObjectsByNamespace(self.store)
        self.reader = ReactionReader(self.store, self.by_namespace)
        self.global_namespace = source.global_namespace
        self.catalog_content = any(c.graph == "catalog" for c in catalogs)
        at_rest = self.resolve(None) if resolutions is None else resolutions
        self.resolutions = {r.namespace: r for r in at_rest}
        self.resolutions_sorted = tuple(self.resolutions[n] for n in sorted(self.resolutions))
        self.predicted = self.predicted_findings(self.resolutions.values(), None)
        self.findings = self.all_findings(self.predicted, self.resolutions)
        self.before_by_id = {id(f): f for f in self.findings}
        self.before_keys = frozenset(finding_key(f) for f in self.findings)
        #: How many findings at rest the last trial's index no longer held by identity.
        self.churn = 0
        #: Outcomes of the changes tried on this state (see ``Simulator._outcome``).
        self.outcomes: dict[tuple[Change, ...], Outcome] = {}

    def refresh(self) -> None:
        """After a trial is put back: when the subjects it recomputed hold findings equal
        to, but not the same objects as, those at rest, take the index's as the findings
        at rest again, so that the next trial's diff stays in proportion to its change."""
        if self.churn * 4 <= len(self.findings) + 64:
            return
        self.findings = self.all_findings(self.predicted, self.resolutions)
        self.before_by_id = {id(f): f for f in self.findings}
        self.churn = 0

    def close(self) -> None:
        if self._own_index:
            self.index.close()
        self.by_namespace.close()

    def subscription_namespaces(self) -> set[str]:
        return self.by_namespace.namespaces("Subscription")

    def resolve(self, only: Collection[str] | None) -> list[NamespaceResolution]:
        """What OLM's next sync decides in ``only`` (None: every namespace holding a
        Subscription, R-RES-1), as ``resolution_inputs.resolve_cluster`` reads the cache."""
        store, index = self.store, self.by_namespace
        global_ns = self.global_namespace or default_global_namespace(store)
        namespaces = self.subscription_namespaces()
        if only is not None:
            namespaces &= set(only)
        sources = index.catalog_sources()
        return [
            resolve_namespace(
                namespace_objects(
                    store, ns, {k: index.objects(k, ns) for k in OWN_INPUTS}, sources
                ),
                self.content,
                global_ns,
            )
            for ns in sorted(namespaces)
        ]

    def predicted_findings(
        self, resolutions: Iterable[NamespaceResolution], namespaces: set[str] | None
    ) -> dict[str, list[Finding]]:
        """The findings ``check`` draws from the resolutions (``Analysis.report``), by
        namespace; a namespace's depend on its resolution and its own Subscriptions'
        findings only. ``namespaces``: those to compute (None: all)."""
        held = self.index.findings()
        known = [f for f in held if namespaces is None or f.namespace in namespaces]
        found: dict[str, list[Finding]] = {}
        for finding in resolution_outcome_findings(
            resolutions, catalog_content=self.catalog_content, known=known
        ):
            # a namespace's own finding names it as its object (kind Namespace)
            where = finding.namespace or finding.name
            found.setdefault(where, []).append(finding)
        return found

    def all_findings(
        self,
        predicted: dict[str, list[Finding]],
        resolutions: Mapping[str, NamespaceResolution],
    ) -> tuple[Finding, ...]:
        """Every finding ``check`` reports for the copy now (``Analysis.report``): the
        index's (loader, model, health, in order) with each next bundle told from the
        resolver's pick where it decided (R-RES-17), and those drawn from the resolutions
        but for any resting on objects not read."""
        channel = self.model.subscriptions()
        decided = decided_subscriptions(channel, list(resolutions.values()))
        merged = sorted(
            decided_findings(self.index.findings(), channel, decided), key=finding_order
        )
        store = self.store
        extra = findings_read(
            (f for found in predicted.values() for f in found),
            store.unreadable,
            store.read_namespaces,
        )
        for finding in without_model_duplicates(extra, self.model.findings()):
            insort(merged, finding, key=finding_order)
        return tuple(merged)
