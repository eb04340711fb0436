"""The health findings kept per subject from the Store's change feed, and the merged, sorted
list of every finding kept up to date from them.

``olmtui check`` computes :func:`olmtui.model.health.health_findings` once; the screens need
the same list after every change, and recomputing it walked every CSV (copies included) on
each model version. Here each rule's findings are kept per subject, keyed by exactly the
inputs the rule reads, and a change marks only the subjects it can move:

* ``("catalog", ns, name)``: one CatalogSource's own health (R-SUB-8); that CatalogSource.
* ``("ns", ns)``: the Subscription and InstallPlan rules of one namespace (R-SUB-*,
  R-IP-2, R-DOC-6), whether its Subscriptions' CatalogSources are missing or unhealthy
  (R-SUB-8; the CatalogSource may sit in the global catalog namespace) and the upgrade rules
  (R-UPG-*); it reads the namespace's Subscriptions, InstallPlans, non-copied CSVs and
  OperatorGroup count, the CatalogSources its Subscriptions target, whether any InstallPlan
  exists, and the catalog content.
* ``("csv", ns)``: the phase of each non-copied CSV of one namespace (R-CSV-*); it
  reads the namespace's non-copied CSVs, InstallPlans and Subscriptions (their times).
* ``("left", ns)``: the leftovers of one namespace (R-DOC-14/15) and the objects its
  resolution failure names (R-SUB-7); it reads the namespace's non-copied CSVs,
  Subscriptions and InstallPlans, and which CatalogSources exist.
* ``("pkg", package)``, ``("crd", name)``, ``("req", ns, name)``, ``("upgrade-deps",)``:
  multitenancy limits and dependencies (R-DOC-1, R-DOC-2, R-DOC-4, R-DOC-5), partitioned by
  the group each finding reads (``olmtui.model.cluster_index``). Copies never feed them (R-COPY-1).
* ``("content",)``: the catalog content's own findings, and content without a CatalogSource.
* ``("max-ocp",)``: installed CSVs' ``olm.maxOpenShiftVersion`` against the ClusterVersion
  (R-DOC-16); it reads the non-copied CSVs' properties annotations and the ClusterVersion, so
  a CSV change marks it only when that annotation moved.
* ``("cluster-operator",)``: OLM's ClusterOperator Upgradeable condition (R-DOC-16).
* ``("webhooks",)``: CRD conversion webhooks whose Service is missing (R-DOC-17); it reads
  the CRDs' conversion Services and which Services exist (names only).
* ``("ce", name)``: one ClusterExtension's conditions and what it would resolve to (R-V1-4,
  R-V1-5, R-V1-20); it reads that extension, every ClusterCatalog and the catalog content.
* ``("cc", name)``: one ClusterCatalog's serving and progress (R-V1-7, R-V1-9); it reads that
  catalog and every ClusterExtension (which of them select it).
* ``("malformed", kind, ns, name)``: one object's wrong-typed fields (R-SRC-4); it reads that
  object's record in ``Store.malformed``, which moves only with a change of that object.

A copied CSV feeds no health rule, so the change of a copy costs one dict lookup here. The
catalog content (``--catalog``, PackageManifests, ClusterCatalog content fetched live: a
``CATALOG_CONTENT`` change) changes rarely: every subject is then recomputed. Reading
:meth:`HealthIndex.findings` settles the marked subjects and patches the merged list (loader
findings, the engine's, then the health findings the engine does not already report, as
:func:`olmtui.model.health.merged_findings` builds it) in place, so reading findings after
one change costs O(changed findings), not O(cluster). The engine's own findings are taken by
difference from ``model.findings()``: the engine keeps the findings of unchanged subjects as
the same objects.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from olmtui.model.access import no_access_findings, readable_findings
from olmtui.model.approval_index import ApprovalIndex
from olmtui.model.bundle_properties import PROPERTIES_ANNOTATION
from olmtui.model.catalog import Catalog
from olmtui.model.catalog_health import CatalogHealth, health_of
from olmtui.model.cluster_index import UPGRADE_DEPS, ClusterRules
from olmtui.model.cluster_upgrade import cluster_operator_findings, max_version_findings
from olmtui.model.conversion_webhooks import conversion_service, conversion_webhook_findings
from olmtui.model.csv_phase_findings import csv_phase_findings
from olmtui.model.dependencies import upgrade_dependency_findings
from olmtui.model.findings import malformed_object
from olmtui.model.health import (
    catalog_source_findings,
    catalog_target,
    content_findings,
    finding_order,
    leftover_findings,
    namespace_health_findings,
    next_bundles,
)
from olmtui.model.installplans import PendingApproval
from olmtui.model.scope import out_of_scope, scope_findings, scoped_findings
from olmtui.model.types import SEVERITY_ORDER, Finding, SubscriptionState
from olmtui.model.v1.findings import catalog_findings, extension_findings
from olmtui.model.v1.resolve import content_by_catalog
from olmtui.store import ACCESS, CATALOG_CONTENT, Change, Key, Obj, Store, is_copied_csv

NSKey = tuple[str, str]
#: How far a live session's clock moves before CSV ages are measured again.
_TICK_SECONDS = 60
Subject = tuple[str, ...]
#: What makes a model finding hide a health finding: one code on one object.
DuplicateKey = tuple[str, str, str, str]
CONTENT: Subject = ("content",)
MAX_OCP: Subject = ("max-ocp",)
CLUSTER_OPERATOR: Subject = ("cluster-operator",)
WEBHOOKS: Subject = ("webhooks",)


class FindingsModel(Protocol):
    """What the index reads from the reconciliation model (``olmtui.model.engine.Model``)."""

    @property
    def version(self) -> int: ...

    def findings(self) -> list[Finding]: ...

    def subscriptions(self) -> list[SubscriptionState]: ...


def _duplicate_key(finding: Finding) -> DuplicateKey:
    return (finding.code, finding.kind, finding.namespace, finding.name)


def _properties(obj: Obj | None) -> str | None:
    """The properties annotation of an installed CSV (what R-DOC-16 reads of it)."""
    if obj is None:
        return None
    return ((obj.get("metadata") or {}).get("annotations") or {}).get(PROPERTIES_ANNOTATION)


def _malformed_subject(key: Key) -> Subject:
    return ("malformed", key.kind, key.namespace, key.name)


def _slot(obj: Obj) -> NSKey:
    meta = obj.get("metadata") or {}
    return (meta.get("namespace") or "", meta.get("name") or "")


class _SortedFindings:
    """Findings in :func:`finding_order`, patched one at a time (bisect on kept keys), with
    a count per severity and a generation that moves with every change, so readers can
    keep what they derive from the list until it moves."""

    def __init__(self) -> None:
        self.items: list[Finding] = []
        self._keys: list[tuple[Any, ...]] = []
        self.counts: Counter[str] = Counter()
        self.generation = 0

    def reset(self, findings: Iterable[Finding]) -> None:
        self.generation += 1
        self.items = sorted(findings, key=finding_order)
        self._keys = [finding_order(f) for f in self.items]
        self.counts = Counter(f.severity for f in self.items)

    def add(self, finding: Finding) -> None:
        self.generation += 1
        key = finding_order(finding)
        at = bisect_right(self._keys, key)
        self._keys.insert(at, key)
        self.items.insert(at, finding)
        self.counts[finding.severity] += 1

    def remove(self, finding: Finding) -> None:
        key = finding_order(finding)
        at = bisect_left(self._keys, key)
        end = bisect_right(self._keys, key, lo=at)
        # The very object first; an equal one will do (equal findings are interchangeable).
        hit = next((i for i in range(at, end) if self.items[i] is finding), at)
        if hit >= end:
            raise KeyError(finding)
        self.generation += 1
        del self._keys[hit]
        del self.items[hit]
        self.counts[finding.severity] -= 1


class HealthIndex:
    """Health findings per subject plus the merged finding list, kept from the change feed.

    ``catalogs`` returns the catalog content known now (``--catalog``, then PackageManifests,
    then ClusterCatalog content fetched live); it is called again only after a PackageManifest
    or that content changed. ``load_findings`` are the loader's, fixed for the session.
    """

    def __init__(
        self,
        store: Store,
        model: FindingsModel,
        catalogs: Callable[[], Sequence[Catalog]],
        load_findings: Sequence[Finding] = (),
        *,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self._store = store
        #: A live session's wall clock: CSV ages are measured against it, so the
        #: CSV subjects are recomputed when it has moved on (see ``_tick``); snapshots have
        #: none and stay clock-free.
        self._clock = clock
        self._ticked: dt.datetime | None = None
        self._model = model
        self._catalog_source = catalogs
        self._load_findings = tuple(load_findings)
        # -- the objects the rules read, by namespace (Store.list with a namespace scans a
        #    whole kind)
        self._subs: dict[str, dict[str, Obj]] = {}
        self._plans: dict[str, dict[str, Obj]] = {}
        self._installed: dict[str, dict[str, Obj]] = {}
        self._deployments: dict[str, dict[str, Obj]] = {}
        self._conditions: dict[str, dict[str, Obj]] = {}
        self._groups: Counter[str] = Counter()
        self._sources: dict[NSKey, Obj] = {}
        self._healths: dict[NSKey, CatalogHealth] = {}
        #: CatalogSource -> namespaces whose Subscriptions target it, with how many.
        self._source_users: dict[NSKey, Counter[str]] = {}
        self._catalogs: list[Catalog] = []
        self._content: list[Catalog] = []
        self._cluster = ClusterRules()
        self._cluster_versions: dict[str, Obj] = {}
        self._cluster_operators: dict[str, Obj] = {}
        #: Service names by namespace (R-DOC-17 reads only which exist).
        self._services: dict[str, set[str]] = {}
        self._approvals = ApprovalIndex()
        #: OLM v1 objects by name (cluster-scoped, R-V1-1).
        self._extensions: dict[str, Obj] = {}
        self._cluster_catalogs: dict[str, Obj] = {}
        # -- per subject
        self._health: dict[Subject, tuple[Finding, ...]] = {}
        self._dirty: set[Subject] = set()
        self._catalogs_dirty = True
        #: Bumped when an input of the Subscription-level derivations (approvals, metrics,
        #: Subscriptions behind their head) changes: anything but a copy or a CatalogSource.
        self.operators_generation = 0
        #: Bumped when a CatalogSource changes.
        self.catalog_sources_generation = 0
        #: Bumped when a PackageManifest changes (the content may have changed).
        self.manifests_generation = 0
        # -- the merged list
        self._merged = _SortedFindings()
        self._model_findings: list[Finding] = []
        self._model_version: int | None = None
        self._model_keys: Counter[DuplicateKey] = Counter()
        self._health_by_key: dict[DuplicateKey, list[Finding]] = {}
        self._rebuild = True
        self._dirty |= {UPGRADE_DEPS, CONTENT, MAX_OCP, CLUSTER_OPERATOR, WEBHOOKS}
        #: The objects whose malformed subject (R-SRC-4) holds a finding now.
        self._malformed: set[Key] = set()
        self._dirty |= {_malformed_subject(key) for key in store.malformed}
        self._on_changes(
            [
                Change("ADDED", key, None, obj)
                for kind in (
                    "ClusterVersion",
                    "ClusterOperator",
                    "Service",
                    "CustomResourceDefinition",
                    "ClusterServiceVersion",
                    "Subscription",
                    "InstallPlan",
                    "OperatorGroup",
                    "CatalogSource",
                    "Deployment",
                    "OperatorCondition",
                    "ClusterExtension",
                    "ClusterCatalog",
                )
                for key, obj in store.items(kind)
            ]
        )
        store.subscribe(self._on_changes)

    def close(self) -> None:
        """Stop following the Store."""
        self._store.unsubscribe(self._on_changes)

    # -- reading ----------------------------------------------------------------------------
    def findings(self) -> Sequence[Finding]:
        """Every finding once, in :func:`finding_order`: what ``merged_findings`` gives for
        the same objects. The list is patched in place by later reads: copy it to keep it."""
        self._settle()
        return self._merged.items

    def findings_generation(self) -> int:
        """A number that changes whenever :meth:`findings` does: a stamp for what screens
        derive from the findings (``ui/derived.py``)."""
        self._settle()
        return self._merged.generation

    def severity_counts(self) -> dict[str, int]:
        """How many findings of each severity :meth:`findings` holds."""
        self._settle()
        return {s: self._merged.counts[s] for s in SEVERITY_ORDER}

    def catalogs(self) -> list[Catalog]:
        """The catalog content as last read (after the last PackageManifest or content
        change)."""
        self._settle_catalogs()
        return self._catalogs

    def approvals(self) -> list[PendingApproval]:
        """What ``pending_approvals`` gives over :meth:`install_plans`, :meth:`subscriptions`
        and :meth:`installed_csvs`, recomputed only for the namespaces a change reached."""
        return self._approvals.approvals(self._plans, self._subs)

    def installed_csvs(self) -> Iterable[Obj]:
        """The non-copied CSVs (R-COPY-1), without a pass over the copies."""
        return (csv for csvs in self._installed.values() for csv in csvs.values())

    def subscriptions(self) -> Iterable[Obj]:
        return (sub for subs in self._subs.values() for sub in subs.values())

    def install_plans(self) -> Iterable[Obj]:
        return (plan for plans in self._plans.values() for plan in plans.values())

    # -- the change feed --------------------------------------------------------------------
    def _on_changes(self, changes: list[Change]) -> None:
        malformed = self._store.malformed
        for change in changes:
            if (malformed or self._malformed) and (
                change.key in malformed or change.key in self._malformed
            ):
                self._dirty.add(_malformed_subject(change.key))
            handler = self._handlers.get(change.key.kind)
            if handler is not None:
                handler(self, change)

    @staticmethod
    def _put(index: dict[str, dict[str, Obj]], change: Change, keep: bool) -> None:
        namespace, name = change.key.namespace, change.key.name
        if keep and change.new is not None:
            index.setdefault(namespace, {})[name] = change.new
            return
        held = index.get(namespace)
        if held is not None and held.pop(name, None) is not None and not held:
            del index[namespace]

    def _on_csv(self, change: Change) -> None:
        old_installed = change.old is not None and not is_copied_csv(change.old)
        new_installed = change.new is not None and not is_copied_csv(change.new)
        if not (old_installed or new_installed):
            return  # a copy: no health rule reads copies (R-COPY-1)
        self._put(self._installed, change, new_installed)
        new = change.new if new_installed else None
        old = change.old if old_installed else None
        if _properties(old) != _properties(new):
            self._dirty.add(MAX_OCP)
        self._cluster.csv_changed((change.key.namespace, change.key.name), new)
        self._approvals.csv_changed(change.key.namespace, change.key.name, new)
        self._dirty |= {("ns", change.key.namespace), ("csv", change.key.namespace)}
        self._dirty.add(("left", change.key.namespace))
        self._upgrades_moved()
        self.operators_generation += 1

    def _upgrades_moved(self) -> None:
        """An input of the upgrade dependency rules changed; without catalog content they
        find nothing (R-UPG-2) and loading content marks them anyway."""
        if self._content:
            self._dirty.add(UPGRADE_DEPS)

    def _on_subscription(self, change: Change) -> None:
        namespace = change.key.namespace
        for obj, step in ((change.old, -1), (change.new, 1)):
            if obj is None:
                continue
            target = catalog_target(obj)
            users = self._source_users.setdefault(target, Counter())
            users[namespace] += step
            if users[namespace] <= 0:
                del users[namespace]
            if not users:
                del self._source_users[target]
        known_before = bool(self._subs)
        self._put(self._subs, change, True)
        if bool(self._subs) != known_before:
            # R-DOC-14: CSVs are judged unreferenced only when Subscriptions are known at all
            self._dirty |= {("left", ns) for ns in self._installed}
        self._cluster.subscriptions_changed(namespace)
        self._approvals.namespace_changed(namespace)
        self._dirty |= {("ns", namespace), ("csv", namespace), ("left", namespace)}
        self._upgrades_moved()
        self.operators_generation += 1

    def _on_install_plan(self, change: Change) -> None:
        known_before = bool(self._plans)
        self._put(self._plans, change, True)
        self._approvals.plan_changed(change.key.namespace, change.old, change.new)
        self._dirty |= {("ns", change.key.namespace), ("csv", change.key.namespace)}
        self._dirty.add(("left", change.key.namespace))
        if bool(self._plans) != known_before:
            # InstallPlanMissing is only judged when InstallPlans are known at all (R-SUB-6), and
            # whether a gone InstallPlan heals an UpgradePending Subscription (R-SUB-6).
            self._dirty |= {("ns", ns) for ns in self._subs} | {("left", ns) for ns in self._subs}
        self.operators_generation += 1

    def _on_operator_group(self, change: Change) -> None:
        step = (change.new is not None) - (change.old is not None)
        if step:
            self._groups[change.key.namespace] += step
            if self._groups[change.key.namespace] <= 0:
                del self._groups[change.key.namespace]
            self._dirty.add(("ns", change.key.namespace))  # R-SUB-9 notes on upgrades

    def _on_csv_input(self, change: Change) -> None:
        """A Deployment (R-CSV-I) or an OperatorCondition (R-CSV-P 1): the CSV findings of
        its namespace read it."""
        index = self._deployments if change.key.kind == "Deployment" else self._conditions
        self._put(index, change, True)
        self._dirty.add(("csv", change.key.namespace))

    def _on_catalog_source(self, change: Change) -> None:
        slot = (change.key.namespace, change.key.name)
        if change.new is None:
            self._sources.pop(slot, None)
            self._healths.pop(slot, None)
        else:
            self._sources[slot] = change.new
            self._healths[slot] = health_of(change.new)
        self._dirty |= {("catalog", *slot), CONTENT}
        self._dirty |= {("ns", ns) for ns in self._source_users.get(slot, ())}
        if change.old is None or change.new is None:
            # A resolution failure's clause may name any CatalogSource (R-SUB-7).
            self._dirty |= {("left", ns) for ns in self._subs}
        self.catalog_sources_generation += 1

    def _on_crd(self, change: Change) -> None:
        self._cluster.crd_changed(change.old, change.new)
        self._upgrades_moved()
        old = None if change.old is None else conversion_service(change.old)
        new = None if change.new is None else conversion_service(change.new)
        if old is not None or new is not None:
            self._dirty.add(WEBHOOKS)

    def _on_cluster_version(self, change: Change) -> None:
        self._keep_cluster_scoped(self._cluster_versions, change)
        self._dirty.add(MAX_OCP)

    def _on_cluster_operator(self, change: Change) -> None:
        self._keep_cluster_scoped(self._cluster_operators, change)
        self._dirty.add(CLUSTER_OPERATOR)

    @staticmethod
    def _keep_cluster_scoped(held: dict[str, Obj], change: Change) -> None:
        if change.new is None:
            held.pop(change.key.name, None)
        else:
            held[change.key.name] = change.new

    def _on_service(self, change: Change) -> None:
        if (change.old is None) == (change.new is None):
            return  # a Service that stays: R-DOC-17 reads only that it exists
        namespace, name = change.key.namespace, change.key.name
        if change.new is not None:
            self._services.setdefault(namespace, set()).add(name)
        else:
            names = self._services.get(namespace, set())
            names.discard(name)
            if not names:
                self._services.pop(namespace, None)
        self._dirty.add(WEBHOOKS)

    def _on_cluster_extension(self, change: Change) -> None:
        """R-V1-*: the extension's own subject, and every ClusterCatalog's (which
        extensions select it)."""
        self._keep_cluster_scoped(self._extensions, change)
        self._dirty.add(("ce", change.key.name))
        self._dirty |= {("cc", name) for name in self._cluster_catalogs}

    def _on_cluster_catalog(self, change: Change) -> None:
        """R-V1-*: the catalog's own subject, and every extension's (its resolution reads
        every ClusterCatalog)."""
        self._keep_cluster_scoped(self._cluster_catalogs, change)
        self._dirty.add(("cc", change.key.name))
        self._dirty |= {("ce", name) for name in self._extensions}

    def _on_package_manifest(self, change: Change) -> None:
        self._catalogs_dirty = True
        self.manifests_generation += 1
        self.operators_generation += 1

    def _on_catalog_content(self, change: Change) -> None:
        """ClusterCatalog content fetched live arrived or changed (R-V1-21): the catalogs
        are read again, and every ClusterExtension subject with them when the content moved
        (``_settle_catalogs``); no Subscription reads a ClusterCatalog's content."""
        self._catalogs_dirty = True
        self.manifests_generation += 1

    def _on_access(self, change: Change) -> None:
        self._rebuild = True
        self.operators_generation += 1
        self.catalog_sources_generation += 1

    _handlers: dict[str, Callable[[HealthIndex, Change], None]] = {
        "ClusterServiceVersion": _on_csv,
        "Subscription": _on_subscription,
        "InstallPlan": _on_install_plan,
        "OperatorGroup": _on_operator_group,
        "CatalogSource": _on_catalog_source,
        "CustomResourceDefinition": _on_crd,
        "ClusterVersion": _on_cluster_version,
        "ClusterOperator": _on_cluster_operator,
        "Service": _on_service,
        "Deployment": _on_csv_input,
        "OperatorCondition": _on_csv_input,
        "PackageManifest": _on_package_manifest,
        CATALOG_CONTENT: _on_catalog_content,
        "ClusterExtension": _on_cluster_extension,
        "ClusterCatalog": _on_cluster_catalog,
        ACCESS: _on_access,
    }

    # -- recomputation ----------------------------------------------------------------------
    def _settle_catalogs(self) -> None:
        if not self._catalogs_dirty:
            return
        self._catalogs_dirty = False
        self._catalogs = list(self._catalog_source())
        content = [c for c in self._catalogs if c.graph == "catalog"]
        # Content is compared by identity: PackageManifests make new Catalog objects each
        # time, and a rare full recompute beats comparing whole package graphs.
        if len(content) != len(self._content) or any(
            a is not b for a, b in zip(content, self._content, strict=True)
        ):
            self._content = content
            self._dirty |= {("ns", ns) for ns in self._subs} | {UPGRADE_DEPS}
            self._dirty |= {("ce", name) for name in self._extensions}
        self._dirty.add(CONTENT)

    def _compute(self, subject: Subject) -> list[Finding]:
        kind = subject[0]
        if kind == "catalog":
            source = self._sources.get((subject[1], subject[2]))
            return [] if source is None else catalog_source_findings(source)
        if kind == "ns":
            namespace = subject[1]
            subs = list(self._subs.get(namespace, {}).values())
            if not subs:
                return []
            targets = {catalog_target(s) for s in subs}
            return namespace_health_findings(
                namespace,
                subs,
                self._plans.get(namespace, {}).values(),
                self._installed.get(namespace, {}),
                healths=[h for t in targets if (h := self._healths.get(t)) is not None],
                install_plans_known=bool(self._plans),
                content=self._content,
                groups=self._groups.get(namespace, 0),
            )
        if kind == "csv":
            namespace = subject[1]
            return csv_phase_findings(
                namespace,
                self._installed.get(namespace, {}),
                self._plans.get(namespace, {}).values(),
                self._subs.get(namespace, {}).values(),
                deployments=self._deployments.get(namespace, {}),
                conditions=self._conditions.get(namespace, {}),
                now=self._ticked,
            )
        if kind == "left":
            namespace = subject[1]
            return leftover_findings(
                namespace,
                list(self._subs.get(namespace, {}).values()),
                self._plans.get(namespace, {}).values(),
                self._installed.get(namespace, {}),
                self._sources.keys(),
                subs_known=bool(self._subs),
                plans_known=bool(self._plans),
            )
        if kind in ("pkg", "crd", "req"):
            return self._cluster.compute(subject)
        if kind == "upgrade-deps":
            if not self._content:
                return []  # the upgrade rules need catalog edges (R-UPG-2)
            return upgrade_dependency_findings(
                list(self.installed_csvs()),
                self._store.list("CustomResourceDefinition"),
                next_bundles(self._content, self._model.subscriptions()),
            )
        if kind in ("ce", "cc"):
            return self._compute_v1(subject)
        if kind == "malformed":
            return self._compute_malformed(Key(subject[1], subject[2], subject[3]))
        if subject == MAX_OCP:
            return max_version_findings(self.installed_csvs(), self._cluster_versions.values())
        if subject == CLUSTER_OPERATOR:
            return cluster_operator_findings(self._cluster_operators.values())
        if subject == WEBHOOKS:
            return conversion_webhook_findings(
                self._store.list("CustomResourceDefinition"), self._services
            )
        return content_findings(self._catalogs, self._sources.values())

    def _compute_malformed(self, key: Key) -> list[Finding]:
        """One object's wrong-typed fields (R-SRC-4), as ``Store.malformed`` holds them."""
        record = self._store.malformed.get(key)
        if record is None:
            self._malformed.discard(key)
            return []
        self._malformed.add(key)
        return [malformed_object(key.kind, key.namespace, key.name, record)]

    def _compute_v1(self, subject: Subject) -> list[Finding]:
        """One ClusterExtension's or ClusterCatalog's findings (R-V1-*)."""
        if subject[0] == "cc":
            catalog = self._cluster_catalogs.get(subject[1])
            return [] if catalog is None else catalog_findings(catalog, self._extensions.values())
        extension = self._extensions.get(subject[1])
        if extension is None:
            return []
        catalogs = list(self._cluster_catalogs.values())
        return extension_findings(extension, catalogs, content_by_catalog(self._content, catalogs))

    def _tick(self) -> None:
        """Live sessions: once the clock has moved a minute on, every CSV subject is
        recomputed against it (ages, and the severities they set, follow the wall clock)."""
        if self._clock is None:
            return
        now = self._clock()
        if self._ticked is None or (now - self._ticked).total_seconds() >= _TICK_SECONDS:
            self._ticked = now
            self._dirty |= {("csv", ns) for ns in self._installed}

    def _settle(self) -> None:
        self._tick()
        self._settle_catalogs()
        unreadable = self._store.unreadable
        self._dirty |= self._cluster.settle(self._installed, self._subs)
        dirty, self._dirty = self._dirty, set()
        for subject in dirty:
            found = tuple(self._compute(subject))
            old = self._health.get(subject, ())
            if found == old:
                continue
            if found:
                self._health[subject] = found
            else:
                self._health.pop(subject, None)
            for finding in old:
                self._unkeep_health(finding, unreadable)
            for finding in found:
                self._keep_health(finding, unreadable)
        if self._model.version != self._model_version:
            self._model_version = self._model.version
            self._take_model_findings(self._model.findings(), unreadable)
        if self._rebuild:
            self._rebuild = False
            self._merged.reset(self._visible(unreadable))

    def _visible(self, unreadable: Any) -> list[Finding]:
        """The merged list from scratch (``merged_findings``), for a change of access."""
        health = [
            f
            for found in self._health.values()
            for f in found
            if not self._model_keys[_duplicate_key(f)]
        ]
        merged = [*self._load_findings, *self._model_findings, *health]
        if unreadable:
            merged = readable_findings(merged, unreadable) + no_access_findings(unreadable)
        read = self._store.read_namespaces
        if read is not None:
            merged = scoped_findings(merged, read) + scope_findings(read)
        return merged

    def _shown(self, finding: Finding, unreadable: Any) -> bool:
        """Whether the finding survives ``readable_findings`` and ``scoped_findings`` (a
        per-finding test; the read namespaces are fixed for the session)."""
        if out_of_scope(finding, self._store.read_namespaces):
            return False
        return not unreadable or bool(readable_findings([finding], unreadable))

    def _keep_health(self, finding: Finding, unreadable: Any) -> None:
        key = _duplicate_key(finding)
        self._health_by_key.setdefault(key, []).append(finding)
        if not self._model_keys[key] and not self._rebuild and self._shown(finding, unreadable):
            self._merged.add(finding)

    def _unkeep_health(self, finding: Finding, unreadable: Any) -> None:
        key = _duplicate_key(finding)
        held = self._health_by_key[key]
        held.remove(finding)
        if not held:
            del self._health_by_key[key]
        if not self._model_keys[key] and not self._rebuild and self._shown(finding, unreadable):
            self._merged.remove(finding)

    def _take_model_findings(self, findings: list[Finding], unreadable: Any) -> None:
        """Patch the merged list with the difference between the engine's last list and this
        one (its unchanged subjects keep the same Finding objects)."""
        before = {id(f): f for f in self._model_findings}
        now = {id(f): f for f in findings}
        self._model_findings = findings
        for gone in [f for i, f in before.items() if i not in now]:
            self._model_finding(gone, -1, unreadable)
        for new in [f for i, f in now.items() if i not in before]:
            self._model_finding(new, 1, unreadable)

    def _model_finding(self, finding: Finding, step: int, unreadable: Any) -> None:
        key = _duplicate_key(finding)
        was_hiding = bool(self._model_keys[key])
        self._model_keys[key] += step
        if self._model_keys[key] <= 0:
            del self._model_keys[key]
        if self._rebuild:
            return
        hiding = bool(self._model_keys[key])
        if hiding != was_hiding:
            for health in self._health_by_key.get(key, ()):
                if self._shown(health, unreadable):
                    (self._merged.remove if hiding else self._merged.add)(health)
        if self._shown(finding, unreadable):
            (self._merged.add if step > 0 else self._merged.remove)(finding)
