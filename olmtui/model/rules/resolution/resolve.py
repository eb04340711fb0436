"""Resolve every namespace that holds a Subscription, as OLM's catalog operator would at its
next sync (R-RES-1): the entry point of the resolver for ``check``, ``explain`` and the
screens.

Per namespace: the one OperatorGroup (R-RES-2), the visible catalogs (R-RES-3, R-RES-4), their
content or why it is missing (R-RES-5, R-RES-22), the variables (R-RES-13), the solver, and
then the operators and changes of a solution (R-RES-20) or the explanation of a failure
(R-RES-18). What olmtui cannot know is ``not-evaluated``, never guessed.

The resolver reads plain inputs (:class:`NamespaceObjects`, the catalogs, the global catalog
namespace), never the cache: ``pipeline/resolution_inputs.py`` gathers them from the Store.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.operatorgroups.targets import FAIL_FORWARD, upgrade_strategy
from olmtui.model.rules.resolution.catalog_namespaces import (
    EXCLUDE_GLOBAL,
    OPENSHIFT_GLOBAL,
    UPSTREAM_GLOBAL,
)
from olmtui.model.rules.resolution.channel_order import ResolutionError
from olmtui.model.rules.resolution.constraints import Variable
from olmtui.model.rules.resolution.entries import EXISTING, CatalogKey, catalog_entries
from olmtui.model.rules.resolution.existing import SourceError, existing_entries
from olmtui.model.rules.resolution.explanation import ExplainFacts, Offer, explain
from olmtui.model.rules.resolution.held_back import held_back
from olmtui.model.rules.resolution.invariants import invariants
from olmtui.model.rules.resolution.operators import operators_of
from olmtui.model.rules.resolution.predicates import NotEvaluated
from olmtui.model.rules.resolution.result import NamespaceResolution, ResolutionStatus
from olmtui.model.rules.resolution.solver import NotSatisfiable, solve
from olmtui.model.rules.resolution.sources import Snapshot, Sources
from olmtui.model.rules.resolution.variables import Builder, SubscriptionSpec
from olmtui.objects import annotations_of, name_of, namespace_of, spec, status

Obj = dict[str, Any]


def _ref(obj: Obj) -> str:
    return f"{namespace_of(obj)}/{name_of(obj)}"


def global_catalog_namespace(marketplace_seen: bool) -> str:
    """R-RES-3: OLM's ``-namespace`` flag is not visible; OpenShift's when its marketplace
    namespace (the Namespace, or a CatalogSource in it) is among the objects read, else
    upstream's ``olm``."""
    return OPENSHIFT_GLOBAL if marketplace_seen else UPSTREAM_GLOBAL


class CatalogContent:
    """The catalog content given, as the snapshots of CatalogSources: made once per source
    and shared by every namespace that sees it."""

    def __init__(self, catalogs: Sequence[Catalog]) -> None:
        self._catalogs = catalogs
        self._snapshots: dict[tuple[str, int], Snapshot] = {}

    def find(self, ref: str) -> Catalog | None:
        """The content for CatalogSource ``ref`` (``ns/name``): content bound to it, else
        content given for every CatalogSource, else what only PackageManifests hold."""
        bound = [c for c in self._catalogs if c.ref == ref and c.graph == "catalog"]
        unbound = [c for c in self._catalogs if c.ref is None and c.graph == "catalog"]
        listed = [c for c in self._catalogs if c.ref == ref]
        return next(iter(bound or unbound or listed), None)

    def known_absent(self, ref: str, package: str) -> bool:
        """Whether ``package`` is known to be missing from CatalogSource ``ref``: the
        PackageManifests listed live hold every package it serves (R-DOC-8)."""
        return any(
            c.ref == ref and c.graph == "packagemanifest" and c.whole and package not in c.packages
            for c in self._catalogs
        )

    def snapshot(self, source: Obj, catalog: Catalog) -> Snapshot:
        priority = spec(source).get("priority")
        priority = priority if isinstance(priority, int) else 0  # R-RES-4: default 0
        cached = self._snapshots.get((_ref(source), priority))
        if cached is None or cached.catalog is not catalog:
            key = CatalogKey(name_of(source), namespace_of(source))
            cached = Snapshot(key, tuple(catalog_entries(catalog, key)), priority, catalog)
            self._snapshots[(_ref(source), priority)] = cached
        return cached


@frozen
class NamespaceObjects:
    """What one namespace's resolution reads from the cluster (R-RES-22)."""

    namespace: str
    operator_groups: Sequence[Obj]
    #: Sorted by name: OLM takes them in API list order (R-RES-1).
    subscriptions: Sequence[Obj]
    csvs: Sequence[Obj]
    #: Every CatalogSource read, by namespace.
    catalog_sources: Mapping[str, Sequence[Obj]]
    #: Whether CatalogSources could be read at all.
    catalog_sources_read: bool = True
    #: The namespaces a ``--namespace`` session read (``Store.read_namespaces``); None: all.
    read_namespaces: Collection[str] | None = None
    #: The resources of the namespace's own inputs (groups, Subscriptions, CSVs) that could
    #: not be read there: their absence proves nothing.
    unread: tuple[str, ...] = ()


@dataclass(slots=True)
class _Stop(Exception):
    """Resolution ends before solving: ``failed`` (OLM's error) or ``not-evaluated``."""

    status: ResolutionStatus
    reason: str


def _aggregate(errors: Sequence[str]) -> str:
    """``utilerrors.NewAggregate(...).Error()``: one message alone, several in brackets."""
    return errors[0] if len(errors) == 1 else f"[{', '.join(errors)}]"


def _visible_namespaces(objects: NamespaceObjects, global_namespace: str) -> list[str]:
    """R-RES-3: the namespace, then the global catalog namespace unless the OperatorGroup
    opts out."""
    annotations = annotations_of(objects.operator_groups[0])
    namespaces = [objects.namespace]
    if annotations.get(EXCLUDE_GLOBAL) != "true" and global_namespace != objects.namespace:
        namespaces.append(global_namespace)
    return namespaces


def _visible_sources(objects: NamespaceObjects, global_namespace: str) -> list[Obj]:
    """R-RES-4: every CatalogSource of the visible namespaces."""
    return [
        source
        for ns in _visible_namespaces(objects, global_namespace)
        for source in sorted(objects.catalog_sources.get(ns, ()), key=name_of)
    ]


def _never_connected(source: Obj) -> bool:
    """R-RES-5: OLM has no registry client for a source that never connected."""
    state = status(source).get("connectionState") or {}
    observed = state.get("lastObservedState")
    return bool(observed) and observed != "READY" and not state.get("lastConnect")


def _unknown_sources(objects: NamespaceObjects, global_namespace: str) -> str | None:
    """R-RES-22, R-DOC-10: CatalogSources that exist for all olmtui knows but were not read:
    no access, a namespace a ``--namespace`` session did not read, or one a Subscription's
    ``status.catalogHealth`` names."""
    if not objects.catalog_sources_read:
        return "CatalogSources could not be read"
    if objects.read_namespaces is not None:
        unread = [
            ns
            for ns in _visible_namespaces(objects, global_namespace)
            if ns not in objects.read_namespaces
        ]
        if unread:
            return f"CatalogSources in {', '.join(unread)} were not read (--namespace session)"
    for sub in objects.subscriptions:
        for health in status(sub).get("catalogHealth") or ():
            ref = (health or {}).get("catalogSourceRef") or {}
            ns, name = str(ref.get("namespace") or ""), str(ref.get("name") or "")
            if name and not any(name_of(s) == name for s in objects.catalog_sources.get(ns, ())):
                return f"CatalogSource {ns}/{name} is not among the objects read"
    return None


def _snapshots(
    objects: NamespaceObjects, content: CatalogContent, global_namespace: str
) -> list[Snapshot]:
    """The snapshot of every visible CatalogSource; raises ``_Stop``."""
    visible = _visible_sources(objects, global_namespace)
    broken = [
        f"CatalogSource {_ref(s)} has never connected (OLM: no registry client established "
        f"for catalogsource {_ref(s)})"
        for s in visible
        if _never_connected(s)
    ]
    if broken:
        raise _Stop("failed", "; ".join(broken))
    snapshots: list[Snapshot] = []
    missing: list[str] = []
    listed_only: list[str] = []
    for source in visible:
        catalog = content.find(_ref(source))
        if catalog is None:
            missing.append(_ref(source))
        elif catalog.graph != "catalog":
            listed_only.append(_ref(source))
        else:
            snapshots.append(content.snapshot(source, catalog))
    if missing:  # R-RES-5
        plural = "s" if len(missing) > 1 else ""
        raise _Stop(
            "not-evaluated", f"no catalog content for CatalogSource{plural} {', '.join(missing)}"
        )
    if listed_only:  # R-RES-22
        raise _Stop(
            "not-evaluated",
            f"only PackageManifests for CatalogSource {', '.join(listed_only)} (channel heads "
            "without upgrade edges or properties); give its content with --catalog",
        )
    return snapshots


def _uncovered(
    objects: NamespaceObjects, snapshots: Sequence[Snapshot], content: CatalogContent
) -> None:
    """R-DOC-8, R-RES-22: content given is never known to be the whole catalog, so a
    Subscription whose package it lacks altogether is not evaluated (a partial catalog proves
    nothing is missing), unless the source's live PackageManifests show the package is not
    served; raises ``_Stop``."""
    for sub in map(SubscriptionSpec.of, objects.subscriptions):
        named = CatalogKey(sub.source, sub.source_namespace)
        given = [
            s
            for s in snapshots
            if not s.key.virtual
            and (s.key == named or (not sub.source and not sub.source_namespace))
        ]
        if not given or any(s.by_package.get(sub.package) for s in given):
            continue
        if all(content.known_absent(s.key.ref, sub.package) for s in given):
            continue
        where = f"CatalogSource {given[0].key.ref}" if len(given) == 1 else "any CatalogSource"
        raise _Stop(
            "not-evaluated",
            f"package {sub.package} of Subscription {objects.namespace}/{sub.name} is not in "
            f"the catalog content given for {where}",
        )


def _existing(objects: NamespaceObjects) -> Snapshot:
    """R-RES-7 as a snapshot; its errors stop resolution as a source error (R-RES-5)."""
    try:
        entries = existing_entries(
            objects.namespace,
            objects.csvs,
            objects.subscriptions,
            # R-RES-21: OLM's value is TechPreviewUnsafeFailForward, read as R-OG-9 reads it
            upgrade_strategy(objects.operator_groups[0]) == FAIL_FORWARD,
        )
    except SourceError as exc:
        raise _Stop(
            "failed", f"error using catalogsource {objects.namespace}/{EXISTING}: {exc}"
        ) from exc
    return Snapshot(CatalogKey(EXISTING, objects.namespace), tuple(entries))


def _owners(objects: NamespaceObjects, existing: Snapshot) -> dict[str, str]:
    """R-RES-7.2: the first Subscription (by name) whose ``installedCSV`` names each CSV."""
    names = {e.name for e in existing.entries}
    owners: dict[str, str] = {}
    for sub in objects.subscriptions:
        installed = str(status(sub).get("installedCSV") or "")
        if installed in names:
            owners.setdefault(installed, name_of(sub))
    return owners


def _build(objects: NamespaceObjects, sources: Sources) -> tuple[Builder, list[Variable]]:
    """R-RES-13: variables in OLM's construction order; raises ``_Stop``."""
    builder = Builder(sources)
    try:
        builder.existing()
    except ResolutionError as exc:
        raise _Stop("failed", str(exc)) from exc
    errors: list[str] = []
    for sub in objects.subscriptions:
        try:
            builder.subscription(SubscriptionSpec.of(sub))
        except ResolutionError as exc:
            errors.append(str(exc))
    extra = invariants(builder.drafts.values(), sources)
    if errors:
        raise _Stop("failed", _aggregate(errors))
    return builder, extra


def _anchors(builder: Builder, extra: Iterable[Variable]) -> list[str]:
    """R-RES-17.4: Subscriptions by name, then unreferenced installed CSVs by name, then
    invariants by id."""
    subs = sorted(i for i in builder.drafts if i.startswith("subscription:"))
    owners = builder.sources.owners
    orphans = sorted(
        d.entry.name
        for d in builder.drafts.values()
        if d.entry is not None and d.entry.catalog.virtual and d.entry.name not in owners
    )
    existing = builder.sources.existing
    return [
        *subs,
        *(f"{existing.name}/{existing.namespace}//{n}" for n in orphans),
        *(v.id for v in extra if v.constraints),
    ]


def _facts(sources: Sources, objects: NamespaceObjects | None = None) -> ExplainFacts:
    """Every entry the resolver saw, per package, and the catalog each Subscription names,
    for the explanation's fixes."""
    packages: dict[str, list[Offer]] = {}
    for snapshot in sources.snapshots:
        for e in snapshot.entries:
            packages.setdefault(e.package, []).append(
                Offer(
                    e.name,
                    e.package,
                    str(e.version) if e.version is not None else None,
                    e.channel,
                    e.catalog.label,
                )
            )
    named = {}
    for sub in objects.subscriptions if objects is not None else ():
        wanted = SubscriptionSpec.of(sub)
        named[wanted.name] = f"{wanted.source_namespace}/{wanted.source}"
    groups = objects.operator_groups if objects is not None else []
    excluding = None
    if len(groups) == 1 and annotations_of(groups[0]).get(EXCLUDE_GLOBAL) == "true":
        excluding = name_of(groups[0])
    return ExplainFacts(packages, named, excluding)


def resolve_namespace(
    objects: NamespaceObjects, content: CatalogContent, global_namespace: str
) -> NamespaceResolution:
    """One namespace's resolution (R-RES-1..22)."""
    ns = objects.namespace
    try:
        if objects.unread:  # R-RES-22: an input not read is unknown, not absent
            raise _Stop("not-evaluated", f"{', '.join(objects.unread)} could not be read")
        if len(objects.operator_groups) != 1:  # R-RES-2
            raise _Stop(
                "failed",
                f"expected 1 OperatorGroup in the namespace, found {len(objects.operator_groups)}",
            )
        if (unknown := _unknown_sources(objects, global_namespace)) is not None:
            raise _Stop("not-evaluated", unknown)
        existing = _existing(objects)
        snapshots = [existing, *_snapshots(objects, content, global_namespace)]
        _uncovered(objects, snapshots, content)
        sources = Sources(ns, snapshots, _owners(objects, existing))
        builder, extra = _build(objects, sources)
    except _Stop as stop:
        return NamespaceResolution(ns, stop.status, stop.reason)
    except NotEvaluated as exc:  # R-RES-23: a CEL rule olmtui cannot evaluate
        return NamespaceResolution(ns, "not-evaluated", str(exc))
    variables = [d.frozen() for d in builder.drafts.values()] + extra
    result = solve(variables, _anchors(builder, extra))
    if isinstance(result, NotSatisfiable):
        return NamespaceResolution(
            ns, "unsatisfiable", explanation=explain(result, ns, _facts(sources, objects))
        )
    resolved = _resolved(objects, builder, result.selected)
    if resolved.status != "resolved":
        return resolved
    anchors = _anchors(builder, extra)
    # the facts (every entry seen) are gathered only for a Subscription held back
    why = held_back(
        builder, variables, anchors, result.selected, ns, lambda: _facts(sources, objects)
    )
    return replace(resolved, held_back=why) if why else resolved


def _resolved(
    objects: NamespaceObjects, builder: Builder, selected: Sequence[str]
) -> NamespaceResolution:
    """R-RES-20: a solution as operators and changes."""
    ns = objects.namespace
    chosen = [builder.drafts[i] for i in selected if i in builder.drafts]
    drafts = [d for d in chosen if d.entry is not None]
    for d in drafts:
        assert d.entry is not None
        if not d.entry.catalog.virtual:
            found = len(builder.sources.exactly(d.entry.catalog, d.entry.name, d.entry.channel))
            if found != 1:  # R-RES-19
                return NamespaceResolution(
                    ns, "failed", f"expected exactly one operator, got {found}"
                )
    specs = [SubscriptionSpec.of(s) for s in objects.subscriptions]
    current = {name_of(s): str(status(s).get("currentCSV") or "") for s in objects.subscriptions}
    operators, changes = operators_of(
        drafts,
        ns,
        specs,
        builder.subscription_ids,
        current,
        {name_of(c) for c in objects.csvs},
    )
    return NamespaceResolution(ns, "resolved", operators=operators, changes=changes)


def resolve_namespaces(
    namespaces: Iterable[NamespaceObjects], catalogs: Sequence[Catalog], global_namespace: str
) -> list[NamespaceResolution]:
    """One ``NamespaceResolution`` per namespace given, in their order, over one
    :class:`CatalogContent` (each catalog's snapshot made once for them all). ``catalogs``
    is the session's catalog content (``--catalog`` first, then PackageManifests)."""
    content = CatalogContent(catalogs)
    return [resolve_namespace(objects, content, global_namespace) for objects in namespaces]
