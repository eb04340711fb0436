"""The findings beyond the group rules: catalogs, Subscriptions, InstallPlans, upgrades,
multitenancy limits, dependencies, cluster upgrade readiness and conversion webhooks.

The engine keeps the group rules incrementally; the health rules (CatalogSource health
R-SUB-8, Subscription conditions R-SUB-*, InstallPlans and approval R-SUB-4/R-IP-2, upgrade
graphs R-UPG-*, the multitenancy limits R-DOC-1/R-DOC-2 and the dependency checks
R-DOC-4/R-DOC-5) are pure functions over the cached objects and the catalog content. The `check`
report and the screens both take their findings from :func:`merged_findings`, so they
always say the same thing; where a rule and the engine report the same code on the same
object, the engine's finding is kept.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from olmtui.model.access import no_access_findings, readable_findings
from olmtui.model.catalog import Bundle, Catalog
from olmtui.model.catalog_health import (
    CatalogHealth,
    catalog_content_without_source,
    catalog_health_findings,
    health_of,
    subscription_source_findings,
)
from olmtui.model.cluster_upgrade import cluster_operator_findings, max_version_findings
from olmtui.model.conversion_webhooks import conversion_webhook_findings
from olmtui.model.csv_phase_findings import csv_phase_findings
from olmtui.model.dependencies import dependency_findings
from olmtui.model.findings import malformed_findings
from olmtui.model.leftovers import namespace_leftover_findings
from olmtui.model.multitenancy import multitenancy_findings
from olmtui.model.resolution_findings import resolution_clause_findings
from olmtui.model.scope import scope_findings, scoped_findings
from olmtui.model.subscription_health import namespace_subscription_findings
from olmtui.model.types import SEVERITY_ORDER, Finding, SubscriptionState
from olmtui.model.upgrades import upgrade_findings
from olmtui.model.v1.findings import v1_findings
from olmtui.objects import Obj, meta
from olmtui.store import Store, Unreadable, is_copied_csv


def _by_namespace(objs: Iterable[Obj]) -> dict[str, list[Obj]]:
    """Objects grouped by namespace in one pass (``Store.list`` with a namespace scans the
    whole kind, once per namespace)."""
    by_ns: dict[str, list[Obj]] = {}
    for obj in objs:
        by_ns.setdefault(meta(obj).get("namespace") or "", []).append(obj)
    return by_ns


def _named_by_namespace(objs: Iterable[Obj]) -> dict[str, dict[str, Obj]]:
    """Objects by namespace and name."""
    return {
        ns: {meta(o).get("name") or "": o for o in held} for ns, held in _by_namespace(objs).items()
    }


def _csvs_by_namespace(store: Store) -> dict[str, dict[str, Obj]]:
    """Non-copied CSVs (R-COPY-1) by namespace and name: the installed ones."""
    by_ns: dict[str, dict[str, Obj]] = {}
    for csv in store.list("ClusterServiceVersion"):
        if not is_copied_csv(csv):
            csv_meta = meta(csv)
            by_ns.setdefault(csv_meta.get("namespace") or "", {})[csv_meta.get("name") or ""] = csv
    return by_ns


def next_bundles(
    catalogs: Sequence[Catalog], subscriptions: Iterable[SubscriptionState]
) -> dict[str, Bundle]:
    """``"namespace/installed CSV"`` -> the bundle its Subscription upgrades to next
    (R-UPG-2), looked up in the content serving the Subscription's CatalogSource (content
    for that CatalogSource first, then content that serves every source)."""
    found: dict[str, Bundle] = {}
    for sub in subscriptions:
        if not (sub.installed_csv and sub.upgrade.next):
            continue
        source = f"{sub.source_namespace}/{sub.source}"
        for catalog in sorted(catalogs, key=lambda c: c.ref != source):
            package = catalog.packages.get(sub.package)
            bundle = package.bundles.get(sub.upgrade.next) if package else None
            if bundle is not None and catalog.ref in (source, None):
                found[f"{sub.namespace}/{sub.installed_csv}"] = bundle
                break
    return found


def catalog_source_findings(catalog_source: Obj) -> list[Finding]:
    """The findings of one CatalogSource's own health (R-SUB-8): they read nothing else."""
    return catalog_health_findings([health_of(catalog_source)])


def catalog_target(sub: Obj) -> tuple[str, str]:
    """The CatalogSource a Subscription takes its bundles from (``spec.sourceNamespace``,
    ``spec.source``; R-SUB-8, R-UPG-2): its namespace's findings read that one's health."""
    spec = sub.get("spec") or {}
    return (spec.get("sourceNamespace") or "", spec.get("source") or "")


def namespace_health_findings(
    namespace: str,
    subs: Sequence[Obj],
    plans: Iterable[Obj],
    csvs: Mapping[str, Obj],
    *,
    healths: Iterable[CatalogHealth],
    install_plans_known: bool,
    content: Sequence[Catalog] = (),
    groups: int = 0,
) -> list[Finding]:
    """Every health finding about one namespace's Subscriptions and InstallPlans.

    Its inputs, all of the namespace except where said: the Subscriptions, the InstallPlans,
    the non-copied CSVs (R-COPY-1) by name, the OperatorGroup count (R-SUB-9), the health of
    the CatalogSources the Subscriptions target (R-SUB-8; possibly in the global catalog
    namespace), whether any InstallPlan is known at all, and the catalog content
    (``graph == "catalog"``) for the upgrade rules (R-UPG-*). Recompute it when one of these
    changes; nothing else moves it.
    """
    found = subscription_source_findings(subs, healths)
    found += namespace_subscription_findings(
        namespace, subs, plans, csvs.values(), install_plans_known=install_plans_known
    )
    if content:
        found += upgrade_findings(content, subs, {namespace: csvs}, {namespace: groups})
    return found


def leftover_findings(
    namespace: str,
    subs: Sequence[Obj],
    plans: Iterable[Obj],
    csvs: Mapping[str, Obj],
    catalog_sources: Collection[tuple[str, str]],
    *,
    subs_known: bool,
    plans_known: bool,
) -> list[Finding]:
    """The leftovers of one namespace (R-DOC-14/15) and the objects its resolution failure
    names (R-SUB-7). Inputs: the namespace's Subscriptions, InstallPlans and non-copied CSVs,
    which CatalogSources exist (namespace, name), and whether any Subscription / InstallPlan
    is known at all."""
    by_name = {meta(p).get("name") or "": p for p in plans}
    leftovers = namespace_leftover_findings(
        namespace, csvs, subs, by_name, subs_known=subs_known, plans_known=plans_known
    )
    return leftovers + resolution_clause_findings(namespace, subs, csvs, catalog_sources)


def content_findings(catalogs: Sequence[Catalog], catalog_sources: Iterable[Obj]) -> list[Finding]:
    """Findings about the catalog content itself: its load problems, and content given for a
    CatalogSource that does not exist (R-SUB-8). Inputs: the content and the CatalogSources."""
    content = [c for c in catalogs if c.graph == "catalog"]
    found = catalog_content_without_source(content, catalog_sources) if content else []
    for catalog in catalogs:
        found += catalog.findings
    return found


def cluster_health_findings(
    installed: Sequence[Obj],
    subs: Iterable[Obj],
    crds: Iterable[Obj],
    next_bundles: Mapping[str, Bundle],
) -> list[Finding]:
    """The cluster-wide rules: multitenancy limits (R-DOC-1, R-DOC-2) and dependencies
    (R-DOC-4, R-DOC-5). Inputs: the non-copied CSVs (copies never count, R-COPY-1), every
    Subscription, the CRDs and the next bundle of each upgrade (R-UPG-2)."""
    crds = list(crds)
    return multitenancy_findings(installed, subs, crds) + dependency_findings(
        installed, crds, next_bundles
    )


def services_by_namespace(services: Iterable[Obj]) -> dict[str, set[str]]:
    """Service names by namespace, for the namespaces whose Services are in the source: the
    conversion webhook rule (R-DOC-17) judges only those."""
    by_ns: dict[str, set[str]] = {}
    for service in services:
        service_meta = meta(service)
        by_ns.setdefault(service_meta.get("namespace") or "", set()).add(
            service_meta.get("name") or ""
        )
    return by_ns


def health_findings(
    store: Store,
    catalogs: Sequence[Catalog] = (),
    subscriptions: Iterable[SubscriptionState] = (),
    *,
    now: dt.datetime | None = None,
) -> list[Finding]:
    """Catalog, Subscription, InstallPlan, CSV phase, upgrade, multitenancy, dependency,
    cluster upgrade readiness (R-DOC-16), conversion webhook (R-DOC-17), OLM v1 (R-V1-*) and
    malformed object (R-SRC-4) findings for the
    cached objects, computed from scratch (``olmtui check``; the screens keep
    the same findings per subject in ``olmtui.model.health_index``).

    ``catalogs`` is the catalog content known (``--catalog`` and PackageManifests); its load
    problems are findings too. Upgrade rules need edges, so only catalog content (not
    PackageManifests) feeds them. ``subscriptions`` (the engine's records, with their next
    bundle) let the dependency rules look at what an upgrade would change. ``now`` is a live
    session's wall clock (CSV ages); snapshots have none.
    """
    subs = list(store.list("Subscription"))
    sources = list(store.list("CatalogSource"))
    found: list[Finding] = []
    for source in sources:
        found += catalog_source_findings(source)
    healths = [health_of(c) for c in sources]
    by_ns = _csvs_by_namespace(store)
    subs_by_ns = _by_namespace(subs)
    plans_by_ns = _by_namespace(store.list("InstallPlan"))
    plans_known = store.count("InstallPlan") > 0
    content = [c for c in catalogs if c.graph == "catalog"]
    groups = {ns: len(ogs) for ns, ogs in _by_namespace(store.list("OperatorGroup")).items()}
    for namespace in sorted(subs_by_ns):
        found += namespace_health_findings(
            namespace,
            subs_by_ns[namespace],
            plans_by_ns.get(namespace, ()),
            by_ns.get(namespace, {}),
            healths=healths,
            install_plans_known=plans_known,
            content=content,
            groups=groups.get(namespace, 0),
        )
    deployments = _named_by_namespace(store.list("Deployment"))
    conditions = _named_by_namespace(store.list("OperatorCondition"))
    for namespace in sorted(by_ns):
        found += csv_phase_findings(
            namespace,
            by_ns[namespace],
            plans_by_ns.get(namespace, ()),
            subs_by_ns.get(namespace, ()),
            deployments=deployments.get(namespace, {}),
            conditions=conditions.get(namespace, {}),
            now=now,
        )
    source_keys = {(meta(c).get("namespace") or "", meta(c).get("name") or "") for c in sources}
    for namespace in sorted(set(by_ns) | set(subs_by_ns) | set(plans_by_ns)):
        found += leftover_findings(
            namespace,
            subs_by_ns.get(namespace, ()),
            plans_by_ns.get(namespace, ()),
            by_ns.get(namespace, {}),
            source_keys,
            subs_known=bool(subs),
            plans_known=plans_known,
        )
    found += content_findings(catalogs, sources)
    installed = [csv for csvs in by_ns.values() for csv in csvs.values()]
    crds = store.list("CustomResourceDefinition")
    found += cluster_health_findings(installed, subs, crds, next_bundles(content, subscriptions))
    # R-DOC-16: cluster upgrade readiness; R-DOC-17: conversion webhooks without a Service.
    found += max_version_findings(installed, store.list("ClusterVersion"))
    found += cluster_operator_findings(store.list("ClusterOperator"))
    found += conversion_webhook_findings(
        store.list("CustomResourceDefinition"), services_by_namespace(store.list("Service"))
    )
    # R-V1-*: OLM v1's ClusterExtensions and ClusterCatalogs (none on a cluster without it).
    found += v1_findings(store.list("ClusterExtension"), store.list("ClusterCatalog"), catalogs)
    # R-SRC-4: the objects whose wrong-typed fields the cache read as absent.
    found += malformed_findings(store.malformed)
    return found


def finding_order(finding: Finding) -> tuple[Any, ...]:
    """The order findings are shown and reported in: worst first, then code, object and
    message (``Finding.sort_key``), then kind, rule and related objects, so that two
    findings equal in everything shown still have one order however they were gathered
    (the incremental list and a from-scratch one must agree). One flat tuple, the same
    order as ``(sort_key, kind, rule, related)``: a sort holds a key per finding at once."""
    return (
        SEVERITY_ORDER[finding.severity],
        finding.code,
        finding.namespace,
        finding.name,
        finding.message,
        finding.kind,
        finding.rule,
        tuple((r.kind, r.namespace, r.name) for r in finding.related),
    )


def _key(finding: Finding) -> tuple[str, str, str, str]:
    return (finding.code, finding.kind, finding.namespace, finding.name)


def without_model_duplicates(health: Iterable[Finding], model: Iterable[Finding]) -> list[Finding]:
    """The health findings the model has not already reported: when both speak of one code on
    one object, the model's wording stays (as on the screens). Only the health findings'
    keys are held: the model may have hundreds of thousands of findings."""
    health = list(health)
    if not health:
        return []
    asked = {_key(f) for f in health}
    known = {key for f in model if (key := _key(f)) in asked}
    return [f for f in health if _key(f) not in known]


def merged_findings(
    *groups: Iterable[Finding],
    model: Iterable[Finding] = (),
    health: Iterable[Finding] = (),
    unreadable: Mapping[str, Unreadable] | None = None,
    read_namespaces: frozenset[str] | None = None,
) -> list[Finding]:
    """Every finding once, worst first: ``groups`` (e.g. the loader's), the engine's, then
    the health rules' that the engine has not already reported. For each kind in
    ``unreadable`` (``Store.unreadable``), the findings resting on the absence of its
    objects are dropped and one warning says so instead (``olmtui.model.access``); with
    ``read_namespaces`` (``Store.read_namespaces``), so are those resting on the absence of
    objects in namespaces not read, and one info says what was read (``olmtui.model.scope``)."""
    model = list(model)
    merged = [f for group in groups for f in group]
    merged += model
    merged += without_model_duplicates(health, model)
    if unreadable:
        merged = readable_findings(merged, unreadable) + no_access_findings(unreadable)
    if read_namespaces is not None:
        merged = scoped_findings(merged, read_namespaces) + scope_findings(read_namespaces)
    return sorted(merged, key=finding_order)
