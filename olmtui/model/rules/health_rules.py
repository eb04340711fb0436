"""The health rule families, each declared once
(:class:`olmtui.model.rules.rule_family.RuleFamily`).

``olmtui check`` computes every family from scratch (``olmtui.model.incremental.health``); the
screens keep each family's findings per subject from the change feed
(``olmtui.model.incremental.health_index``). Both read only :data:`FAMILIES`: a new rule is its
module, its ``docs/rules.md`` entry, its test, and one declaration here. The order of
:data:`FAMILIES` is the order of the from-scratch pass (the reports sort findings anyway,
``finding_order``).

Subjects (the first element is the family's tag):

* ``("catalog", ns, name)``: one CatalogSource's own health (R-SUB-8).
* ``("ns", ns)``: the Subscription and InstallPlan rules of one namespace (R-SUB-*, R-IP-2),
  its Subscriptions' CatalogSources missing or unhealthy (R-SUB-8; possibly in the global
  catalog namespace) and the upgrade rules (R-UPG-*).
* ``("csv", ns)``: the phase of each non-copied CSV of one namespace (R-CSV-*).
* ``("install-pods", ns)``: the troubled pods of the Deployments that one namespace's waiting
  CSVs install (R-EVD-9).
* ``("left", ns)``: the leftovers of one namespace (R-DOC-14/15) and the objects its
  resolution failure names (R-SUB-7).
* ``("content",)``: the catalog content's own findings, and content without a CatalogSource.
* ``("pkg", package)``, ``("crd", name)``, ``("req", ns, name)``: multitenancy limits and
  missing requirements, partitioned by ``olmtui.model.incremental.cluster_index`` (R-COPY-1: copies
  never feed them); ``("upgrade-deps",)``: what the next bundles would drop (R-UPG-2).
* ``("max-ocp",)``, ``("cluster-operator",)``: cluster upgrade readiness (R-DOC-16).
* ``("lifecycle",)``: the installed operators' support lifecycle (R-LCY-*).
* ``("max-ocp",)``, ``("cluster-operator",)``: cluster upgrade readiness (R-DOC-16);
  ``("extension-caps",)``: OLM v1's installed bundles that cap it (R-CUP-2..R-CUP-5).
* ``("webhooks",)``: conversion webhooks without their Service (R-DOC-17).
* ``("cc", name)``, ``("ce", name)``: one ClusterCatalog's / ClusterExtension's findings
  (R-V1-*).
* ``("malformed", kind, ns, name)``: one object's wrong-typed fields (R-SRC-4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CLUSTER_EXTENSION_REVISION,
    CLUSTER_OBJECT_SET,
    CLUSTER_OPERATOR,
    CLUSTER_VERSION,
    CRD,
    CSV,
    DEPLOYMENT,
    EVENT,
    INSTALL_PLAN,
    JOB,
    NAMESPACE,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    POD,
    SERVICE,
    SUBSCRIPTION,
)
from olmtui.model.primitives.bundle_properties import PROPERTIES_ANNOTATION
from olmtui.model.records.catalog import Bundle, Catalog
from olmtui.model.records.findings import malformed_object
from olmtui.model.records.types import Finding, SubscriptionState
from olmtui.model.rules.catalog.health import (
    catalog_content_without_source,
    catalog_source_findings,
    health_of,
    subscription_source_findings,
)
from olmtui.model.rules.cluster_readiness.extension_caps import (
    extension_cap_findings,
    extension_caps,
)
from olmtui.model.rules.cluster_readiness.olm_condition import (
    OLM_V1_CLUSTER_OPERATOR,
    installed_operators_upgradeable,
)
from olmtui.model.rules.csvs.csv_phase_findings import csv_phase_findings
from olmtui.model.rules.dependencies.multitenancy import multitenancy_findings
from olmtui.model.rules.dependencies.required_apis import (
    missing_requirement_findings,
    upgrade_dependency_findings,
)
from olmtui.model.rules.documented.cluster_upgrade import (
    cluster_version,
    max_version_findings,
)
from olmtui.model.rules.documented.conversion_webhooks import (
    conversion_service,
    conversion_webhook_findings,
)
from olmtui.model.rules.documented.leftovers import namespace_leftover_findings
from olmtui.model.rules.documented.olm_cluster_operators import cluster_operator_health
from olmtui.model.rules.evidence.bundle_unpack import unpack_failed, unpack_findings
from olmtui.model.rules.evidence.catalog_pods import catalog_pod_findings
from olmtui.model.rules.evidence.copied_installed import copied_installed_findings
from olmtui.model.rules.evidence.crd_owners import crd_findings, owned_crds
from olmtui.model.rules.evidence.install_pods import install_pod_findings, waits_on_deployments
from olmtui.model.rules.evidence.platform_orphans import PLATFORM_PREFIX, platform_orphan_findings
from olmtui.model.rules.evidence.terminating_namespaces import (
    OLM_NAMESPACED_KINDS,
    finalizers_of,
    terminating,
    terminating_namespace_findings,
)
from olmtui.model.rules.lifecycle.findings import lifecycle_findings, lifecycle_views
from olmtui.model.rules.resolution.catalog_view import Visibility
from olmtui.model.rules.resolution.failure_findings import resolution_clause_findings
from olmtui.model.rules.rule_family import (
    ANY_KIND,
    CATALOGS,
    CLOCK,
    CONTENT,
    HealthInputs,
    RuleFamily,
    Seen,
    SlotsOf,
    Subject,
    malformed_record,
    per_object,
    single,
)
from olmtui.model.rules.subscriptions.subscription_health import namespace_subscription_findings
from olmtui.model.rules.upgrades.graph import upgrade_findings
from olmtui.model.rules.v1.findings import catalog_findings, extension_findings
from olmtui.model.rules.v1.resolve import content_by_catalog
from olmtui.model.rules.v1.revision_findings import revision_findings
from olmtui.model.rules.v1.revisions import has_revision_fields, owner_of
from olmtui.objects import Obj, is_copied_csv, name_of


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


def catalog_target(sub: Obj) -> tuple[str, str]:
    """The CatalogSource a Subscription takes its bundles from (``spec.sourceNamespace``,
    ``spec.source``; R-SUB-8, R-UPG-2): its namespace's findings read that one's health."""
    spec = sub.get("spec") or {}
    return (spec.get("sourceNamespace") or "", spec.get("source") or "")


def _namespaces(index: Mapping[str, object], tag: str) -> list[Subject]:
    return [(tag, ns) for ns in sorted(index)]


# -- one namespace's Subscriptions and InstallPlans (R-SUB-*, R-IP-2, R-SUB-8, R-UPG-*) ----
def _ns_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    """Reads the namespace's Subscriptions, InstallPlans, non-copied CSVs (R-COPY-1) and
    OperatorGroup count (R-SUB-9), the CatalogSources its Subscriptions target, whether any
    InstallPlan is known at all, and the catalog content (the upgrade rules)."""
    namespace = subject[1]
    subs = list(inputs.subs.get(namespace, {}).values())
    if not subs:
        return []
    csvs = inputs.installed.get(namespace, {})
    targets = {catalog_target(s) for s in subs}
    sources = (inputs.objects.get(CATALOG_SOURCE, *t) for t in sorted(targets))
    found = subscription_source_findings(subs, [health_of(s) for s in sources if s is not None])
    found += namespace_subscription_findings(
        namespace,
        subs,
        inputs.plans.get(namespace, {}).values(),
        csvs.values(),
        install_plans_known=bool(inputs.plans),
        catalogs=inputs.content,
        visibility=_visibility(inputs, namespace),
    )
    if inputs.content:
        groups = {namespace: inputs.groups.get(namespace, 0)}
        found += upgrade_findings(inputs.content, subs, {namespace: csvs}, groups)
    return found


def _ns_marks(seen: Seen) -> Iterable[Subject]:
    kind, namespace = seen.key.kind, seen.key.namespace
    if kind == CATALOG_SOURCE:
        return [("ns", ns) for ns in seen.users]
    if kind == OPERATOR_GROUP and not seen.added_or_removed:
        # R-SUB-9 reads only how many there are; R-RES-3 its exclusion annotation
        return [("ns", namespace)]
    if seen.plans_known_moved:  # InstallPlanMissing is judged only when any is known
        return [("ns", namespace), *_namespaces(seen.inputs.subs, "ns")]
    return [("ns", namespace)]


# -- R-CSV-*: the phase of one namespace's non-copied CSVs -----------------------------------
def _csv_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    """Reads the namespace's non-copied CSVs, InstallPlans, Subscriptions (their times),
    Deployments (R-CSV-I) and OperatorConditions, and the clock."""
    namespace = subject[1]
    return csv_phase_findings(
        namespace,
        inputs.installed.get(namespace, {}),
        inputs.plans.get(namespace, {}).values(),
        inputs.subs.get(namespace, {}).values(),
        deployments=inputs.deployments.get(namespace, {}),
        conditions=inputs.conditions.get(namespace, {}),
        now=inputs.now,
    )


def _csv_marks(seen: Seen) -> Iterable[Subject]:
    return [("csv", seen.key.namespace)]


# -- R-DOC-14/15 leftovers and R-SUB-7 resolution clauses of one namespace -------------------
def _left_subjects(inputs: HealthInputs) -> Iterable[Subject]:
    held = set(inputs.installed) | set(inputs.subs) | set(inputs.plans)
    return [("left", ns) for ns in sorted(held)]


def _left_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    """Reads the namespace's Subscriptions, InstallPlans and non-copied CSVs, which
    CatalogSources exist, and whether any Subscription / InstallPlan is known at all."""
    namespace = subject[1]
    subs = list(inputs.subs.get(namespace, {}).values())
    plans = inputs.plans.get(namespace, {})
    csvs = inputs.installed.get(namespace, {})
    leftovers = namespace_leftover_findings(
        namespace,
        csvs,
        subs,
        plans,
        subs_known=bool(inputs.subs),
        plans_known=bool(inputs.plans),
    )
    sources = SlotsOf(inputs.objects, CATALOG_SOURCE)
    visibility = _visibility(inputs, namespace)
    return leftovers + resolution_clause_findings(namespace, subs, csvs, sources, visibility)


def _visibility(inputs: HealthInputs, namespace: str) -> Visibility | None:
    """R-RES-3: which catalog namespaces ``namespace`` resolves from, when it has exactly
    one OperatorGroup (else OLM resolves nothing there, R-SUB-9)."""
    groups = list(inputs.objects.list(OPERATOR_GROUP, namespace))
    if len(groups) != 1:
        return None
    return Visibility(groups[0])


def _left_marks(seen: Seen) -> Iterable[Subject]:
    kind, own = seen.key.kind, [("left", seen.key.namespace)]
    if kind == CATALOG_SOURCE:
        # A resolution failure's clause may name any CatalogSource (R-SUB-7).
        return _namespaces(seen.inputs.subs, "left") if seen.added_or_removed else []
    if seen.subs_known_moved:
        # R-DOC-14: CSVs are judged unreferenced only when Subscriptions are known at all.
        return own + _namespaces(seen.inputs.installed, "left")
    if seen.plans_known_moved:
        # Whether a gone InstallPlan heals an UpgradePending Subscription (R-SUB-6).
        return own + _namespaces(seen.inputs.subs, "left")
    return own


# -- the catalog content's own findings (R-SUB-8: content without a CatalogSource) ----------
def _content_findings(inputs: HealthInputs) -> list[Finding]:
    """The content's load problems, and content given for no CatalogSource (R-SUB-8)."""
    sources = inputs.objects.list(CATALOG_SOURCE)
    found = catalog_content_without_source(inputs.content, sources) if inputs.content else []
    for catalog in inputs.catalogs:
        found += catalog.findings
    return found


# -- multitenancy limits and missing requirements, by partition (R-API-1, R-COPY-1) ---------
def _partition_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    return [] if inputs.partitions is None else inputs.partitions.compute(subject)


def _partitions_whole(inputs: HealthInputs) -> list[Finding]:
    installed = [csv for csvs in inputs.installed.values() for csv in csvs.values()]
    subs = [sub for subs in inputs.subs.values() for sub in subs.values()]
    crds = list(inputs.objects.list(CRD))
    return multitenancy_findings(installed, subs, crds) + missing_requirement_findings(
        installed, crds
    )


# -- R-UPG-2: what the next bundles would drop -----------------------------------------------
def _upgrade_dependency_findings(inputs: HealthInputs) -> list[Finding]:
    if not inputs.content:
        return []  # the upgrade rules need catalog edges (R-UPG-2)
    return upgrade_dependency_findings(
        [csv for csvs in inputs.installed.values() for csv in csvs.values()],
        inputs.objects.list(CRD),
        next_bundles(inputs.content, inputs.subscription_states()),
    )


def _with_content(seen: Seen) -> bool:
    """Without catalog content the upgrade rules find nothing, and loading content marks
    them anyway."""
    return bool(seen.inputs.content)


# -- R-DOC-16: cluster upgrade readiness ------------------------------------------------------
def _properties(obj: Obj | None) -> str | None:
    """The properties annotation of an installed CSV (what R-DOC-16 reads of it)."""
    if obj is None:
        return None
    return ((obj.get("metadata") or {}).get("annotations") or {}).get(PROPERTIES_ANNOTATION)


def _max_version_findings(inputs: HealthInputs) -> list[Finding]:
    installed = (csv for csvs in inputs.installed.values() for csv in csvs.values())
    return max_version_findings(installed, inputs.objects.list(CLUSTER_VERSION))


def _max_version_moved(seen: Seen) -> bool:
    """A CSV moves it only when its properties annotation did."""
    return seen.key.kind != CSV or _properties(seen.old) != _properties(seen.new)


# -- R-LCY-2..6: support lifecycle of the installed operators -----------------------------------
def _has_lifecycles(inputs: HealthInputs) -> bool:
    return any(p.lifecycles for c in inputs.catalogs for p in c.packages.values())


def _lifecycle_findings(inputs: HealthInputs) -> list[Finding]:
    """Reads the non-copied CSVs, Subscriptions, ClusterExtensions, the ClusterVersion, the
    catalog content's lifecycle documents, and the clock."""
    if not _has_lifecycles(inputs):
        return []
    objects = inputs.objects
    views = lifecycle_views(
        (csv for csvs in inputs.installed.values() for csv in csvs.values()),
        (sub for subs in inputs.subs.values() for sub in subs.values()),
        objects.list(CLUSTER_EXTENSION),
        inputs.catalogs,
        inputs.now,
    )
    return lifecycle_findings(views, cluster_version(objects.list(CLUSTER_VERSION)))


# -- R-CUP-2..R-CUP-5: OLM v1's installed bundles that cap the OpenShift version ------------
def _extension_cap_findings(inputs: HealthInputs) -> list[Finding]:
    """Reads the ClusterExtensions, ClusterCatalogs, the ClusterVersion, the ``olm``
    ClusterOperator and the catalog content."""
    objects = inputs.objects
    operators = list(objects.list(CLUSTER_OPERATOR))
    versions = list(objects.list(CLUSTER_VERSION))
    current = cluster_version(versions)
    caps = extension_caps(
        objects.list(CLUSTER_EXTENSION),
        list(objects.list(CLUSTER_CATALOG)),
        inputs.catalogs,
        current,
    )
    # R-CUP-5: a cap means something only on OpenShift
    openshift = bool(versions) or any(name_of(co) == OLM_V1_CLUSTER_OPERATOR for co in operators)
    return extension_cap_findings(
        caps, current, installed_operators_upgradeable(operators), openshift
    )


def _extension_caps_moved(seen: Seen) -> bool:
    """A ClusterExtension moves it only when what it has installed or where it looks for it
    did (or it came or went holding one); a ClusterCatalog only when its labels did (what
    selectors read)."""

    def held(obj: Obj | None, *path: str) -> object:
        value: object = obj
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        return value

    if seen.key.kind == CLUSTER_EXTENSION:
        # one that comes or goes holding nothing installed moves nothing
        paths = [("status", "install")] + ([] if seen.added_or_removed else [("spec", "source")])
        return any(held(seen.old, *path) != held(seen.new, *path) for path in paths)
    if seen.key.kind == CLUSTER_CATALOG:
        return held(seen.old, "metadata", "labels") != held(seen.new, "metadata", "labels")
    return True


# -- R-DOC-17: conversion webhooks without their Service --------------------------------------
def _webhook_findings(inputs: HealthInputs) -> list[Finding]:
    return conversion_webhook_findings(inputs.objects.list(CRD), inputs.services)


def _webhooks_moved(seen: Seen) -> bool:
    """A Service moves it when it comes or goes (R-DOC-17 reads only that it exists); a CRD
    when it has, or had, a conversion webhook."""
    if seen.key.kind == SERVICE:
        return seen.added_or_removed
    old = None if seen.old is None else conversion_service(seen.old)
    new = None if seen.new is None else conversion_service(seen.new)
    return old is not None or new is not None


# -- R-EVD-2: why a catalog does not serve, from its pod --------------------------------------
def _catalog_pod_findings(inputs: HealthInputs) -> list[Finding]:
    objects = inputs.objects
    return catalog_pod_findings(
        objects.list(CATALOG_SOURCE), objects.list(POD), objects.events_in_order
    )


# -- R-EVD-9: why an installing CSV waits, from its Deployments' pods -------------------------
def _install_pods_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    """Reads the namespace's non-copied CSVs and, when one waits on its Deployments, the
    namespace's Deployments, Pods and Events."""
    return install_pod_findings(inputs.installed.get(subject[1], {}).values(), inputs.objects)


def _install_pods_marks(seen: Seen) -> Iterable[Subject]:
    """A CSV change marks its namespace when the CSV waits, or waited, on its Deployments; a
    Deployment, Pod or Event only a namespace where a CSV waits on them (most pods are of
    operators long installed)."""
    namespace = seen.key.namespace
    if seen.key.kind == CSV:
        moved = any(o is not None and waits_on_deployments(o) for o in (seen.old, seen.new))
    else:
        csvs = seen.inputs.installed.get(namespace, {}).values()
        moved = any(waits_on_deployments(c) for c in csvs)
    return [("install-pods", namespace)] if moved else []


# -- R-EVD-3: a failed bundle unpack, its Job or what is left of it ---------------------------
def _unpack_findings(inputs: HealthInputs) -> list[Finding]:
    objects = inputs.objects
    return unpack_findings(objects.list(SUBSCRIPTION), objects.list(JOB), objects.events_in_order)


def _unpack_moved(seen: Seen) -> bool:
    """A Subscription moves it only when it has, or had, a failed unpack: the family reads
    every Subscription, and most changes are of Subscriptions without one."""
    if seen.key.kind != SUBSCRIPTION:
        return True
    return any(o is not None and unpack_failed(o) for o in (seen.old, seen.new))


# -- R-EVD-4, R-EVD-5: CRDs and the CSVs that own them ---------------------------------------
def _crd_findings(inputs: HealthInputs) -> list[Finding]:
    installed = (csv for csvs in inputs.installed.values() for csv in csvs.values())
    return crd_findings(inputs.objects.list(CRD), installed)


def _crd_moved(seen: Seen) -> bool:
    """An installed CSV moves it only when the CRDs it owns did (a copy never does)."""
    return seen.key.kind != CSV or owned_crds(seen.old or {}) != owned_crds(seen.new or {})


# -- R-EVD-6: namespaces stuck Terminating on OLM's objects ----------------------------------
def _terminating_findings(inputs: HealthInputs) -> list[Finding]:
    objects = inputs.objects
    return terminating_namespace_findings(
        objects.list(NAMESPACE), lambda kind, namespace: objects.list(kind, namespace)
    )


def _terminating_moved(seen: Seen) -> bool:
    """A namespace that is, or was, Terminating; OLM's objects only in a Terminating
    namespace, when they carry, or carried, finalizers (every CSV carries OLM's)."""
    if seen.key.kind == NAMESPACE:
        return any(o is not None and terminating(o) for o in (seen.old, seen.new))
    held = seen.inputs.objects.get(NAMESPACE, "", seen.key.namespace)
    return (
        held is not None
        and terminating(held)
        and any(o is not None and finalizers_of(o) for o in (seen.old, seen.new))
    )


# -- R-EVD-7: a Subscription whose installed CSV is a copy -----------------------------------
COPIED_INSTALLED = "copied-installed"


def installed_csv(subscription: Obj) -> str:
    """The Subscription's ``status.installedCSV``, "" when it names none."""
    return str((subscription.get("status") or {}).get("installedCSV") or "")


def _copied_installed_findings(inputs: HealthInputs) -> list[Finding]:
    objects = inputs.objects
    return copied_installed_findings(
        objects.list(SUBSCRIPTION), lambda namespace, name: objects.get(CSV, namespace, name)
    )


def _copied_installed_moved(seen: Seen) -> bool:
    """A Subscription whose installed CSV is a copy, or any while the family holds a finding;
    a copy (seen as neither state installed, handed to the families that read every change)
    or a CSV that came or went, when a Subscription of its namespace names it."""
    objects = seen.inputs.objects
    if seen.key.kind == SUBSCRIPTION:
        if (COPIED_INSTALLED,) in seen.held:
            return True
        named = {installed_csv(o) for o in (seen.old, seen.new) if o is not None} - {""}
        found = (objects.get(CSV, seen.key.namespace, n) for n in named)
        return any(csv is not None and is_copied_csv(csv) for csv in found)
    if seen.key.kind != CSV or not (
        seen.added_or_removed or (seen.old is None and seen.new is None)
    ):
        return False
    subs = seen.inputs.subs.get(seen.key.namespace, {}).values()
    return any(installed_csv(sub) == seen.key.name for sub in subs)


# -- R-EVD-8: Subscriptions orphaned by platform operators that left OLM ---------------------
def _platform_orphan_findings(inputs: HealthInputs) -> list[Finding]:
    objects = inputs.objects
    return platform_orphan_findings(
        objects.list(SUBSCRIPTION),
        lambda namespace: inputs.installed.get(namespace, {}).values(),
        lambda namespace, name: objects.get(CSV, namespace, name),
        objects.list(CLUSTER_OPERATOR),
    )


def _platform_orphans_moved(seen: Seen) -> bool:
    """ClusterOperators, and Subscriptions and CSVs of ``openshift-*`` namespaces, copies
    included (a copy of the named CSV is no orphan's): the family reads every change, as
    a copy's is handed only to those."""
    if seen.key.kind == CLUSTER_OPERATOR:
        return True
    return seen.key.kind in (SUBSCRIPTION, CSV) and seen.key.namespace.startswith(PLATFORM_PREFIX)


# -- R-V1-*: OLM v1's ClusterCatalogs and ClusterExtensions ----------------------------------
def _names(inputs: HealthInputs, kind: str, tag: str) -> list[Subject]:
    return [(tag, name) for (_, name), _ in inputs.objects.slots(kind)]


def _cc_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    """Reads the ClusterCatalog and every ClusterExtension (which of them select it)."""
    catalog = inputs.objects.get(CLUSTER_CATALOG, "", subject[1])
    if catalog is None:
        return []
    return catalog_findings(catalog, inputs.objects.list(CLUSTER_EXTENSION))


def _cc_marks(seen: Seen) -> Iterable[Subject]:
    if seen.key.kind == CLUSTER_CATALOG:
        return [("cc", seen.key.name)]
    return _names(seen.inputs, CLUSTER_CATALOG, "cc")


def _ce_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    """Reads the ClusterExtension, every ClusterCatalog and the content bound to them."""
    extension = inputs.objects.get(CLUSTER_EXTENSION, "", subject[1])
    if extension is None:
        return []
    catalogs = list(inputs.objects.list(CLUSTER_CATALOG))
    return extension_findings(extension, catalogs, content_by_catalog(inputs.content, catalogs))


def _ce_marks(seen: Seen) -> Iterable[Subject]:
    if seen.key.kind == CLUSTER_EXTENSION:
        return [("ce", seen.key.name)]
    return _names(seen.inputs, CLUSTER_EXTENSION, "ce")


# -- R-V1-25..27: a ClusterExtension's revisions --------------------------------------------
def _revision_findings(inputs: HealthInputs) -> list[Finding]:
    objects = inputs.objects
    revisions = [*objects.list(CLUSTER_OBJECT_SET), *objects.list(CLUSTER_EXTENSION_REVISION)]
    return revision_findings(objects.list(CLUSTER_EXTENSION), revisions)


def _revisions_moved(seen: Seen) -> bool:
    """A ClusterExtension moves it only when it has, or had, what R-V1-25 reads (a deadline,
    active revisions, a Progressing past the deadline) or owns a revision read: most
    extensions run without the revisions API."""
    if seen.key.kind != CLUSTER_EXTENSION:
        return True
    if any(o is not None and has_revision_fields(o) for o in (seen.old, seen.new)):
        return True
    objects = seen.inputs.objects
    return any(
        owner_of(o) == seen.key.name
        for kind in (CLUSTER_OBJECT_SET, CLUSTER_EXTENSION_REVISION)
        for o in objects.list(kind)
    )


# -- R-SRC-4: one object's wrong-typed fields ---------------------------------------------------
def _malformed_subjects(inputs: HealthInputs) -> Iterable[Subject]:
    return [("malformed", k.kind, k.namespace, k.name) for k in inputs.objects.malformed]


def _malformed_compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
    """Reads the object's record in ``Store.malformed``, which moves only with a change of
    that object."""
    _, kind, namespace, name = subject
    record = malformed_record(inputs.objects, kind, namespace, name)
    return [] if record is None else [malformed_object(kind, namespace, name, record)]


def _malformed_marks(seen: Seen) -> Iterable[Subject]:
    subject = ("malformed", seen.key.kind, seen.key.namespace, seen.key.name)
    if seen.key in seen.inputs.objects.malformed or subject in seen.held:
        return [subject]
    return []


def _never(seen: Seen) -> Iterable[Subject]:
    """No change marks it by itself: an event it follows, or its own index, does."""
    return []


_OPERATOR_KINDS = frozenset({CSV, SUBSCRIPTION, INSTALL_PLAN})

#: Every health rule family, in the order of the from-scratch pass.
FAMILIES: tuple[RuleFamily, ...] = (
    per_object("catalog", "R-SUB-8", CATALOG_SOURCE, catalog_source_findings),
    RuleFamily(
        "ns",
        "R-SUB-*, R-IP-2, R-SUB-8, R-SUB-9, R-UPG-*",
        _OPERATOR_KINDS | {OPERATOR_GROUP, CATALOG_SOURCE},
        lambda inputs: _namespaces(inputs.subs, "ns"),
        _ns_compute,
        _ns_marks,
        follows=frozenset({CONTENT}),
    ),
    RuleFamily(
        "csv",
        "R-CSV-*",
        _OPERATOR_KINDS | {DEPLOYMENT, OPERATOR_CONDITION},
        lambda inputs: _namespaces(inputs.installed, "csv"),
        _csv_compute,
        _csv_marks,
        follows=frozenset({CLOCK}),
    ),
    RuleFamily(
        "left",
        "R-DOC-14, R-DOC-15, R-SUB-7, R-RES-3",
        _OPERATOR_KINDS | {CATALOG_SOURCE, OPERATOR_GROUP},
        _left_subjects,
        _left_compute,
        _left_marks,
    ),
    single("content", "R-SUB-8", {CATALOG_SOURCE}, _content_findings, follows={CATALOGS}),
    # Its subjects ("pkg", "crd", "req") come from its own partition index, which the index
    # feeds with every non-copied CSV, Subscription and CRD change (cluster_index).
    RuleFamily(
        "partitions",
        "R-DOC-1, R-DOC-2, R-API-1, R-COPY-1",
        frozenset({CSV, SUBSCRIPTION, CRD}),
        lambda inputs: [],
        _partition_compute,
        _never,
        whole=_partitions_whole,
        subject_tags=("pkg", "crd", "req"),
    ),
    single(
        "upgrade-deps",
        "R-UPG-2",
        {CSV, SUBSCRIPTION, CRD},
        _upgrade_dependency_findings,
        moves=_with_content,
        follows={CONTENT},
    ),
    single(
        "max-ocp",
        "R-DOC-16",
        {CSV, CLUSTER_VERSION},
        _max_version_findings,
        moves=_max_version_moved,
    ),
    single(
        "cluster-operator",
        "R-DOC-16, R-DOC-18",
        {CLUSTER_OPERATOR},
        lambda inputs: cluster_operator_health(inputs.objects.list(CLUSTER_OPERATOR)),
    ),
    single(
        "lifecycle",
        "R-LCY-2, R-LCY-3, R-LCY-4, R-LCY-5, R-LCY-6",
        {CSV, SUBSCRIPTION, CLUSTER_EXTENSION, CLUSTER_VERSION},
        _lifecycle_findings,
        # without a lifecycle document in the content it finds nothing (R-LCY-2)
        moves=lambda seen: _has_lifecycles(seen.inputs),
        follows={CATALOGS, CLOCK},
    ),
    single(
        "extension-caps",
        "R-CUP-2, R-CUP-3, R-CUP-4, R-CUP-5",
        {CLUSTER_EXTENSION, CLUSTER_CATALOG, CLUSTER_VERSION, CLUSTER_OPERATOR},
        _extension_cap_findings,
        moves=_extension_caps_moved,
        follows={CATALOGS},
    ),
    single("webhooks", "R-DOC-17", {CRD, SERVICE}, _webhook_findings, moves=_webhooks_moved),
    single("catalog-pods", "R-EVD-2", {CATALOG_SOURCE, POD, EVENT}, _catalog_pod_findings),
    RuleFamily(
        "install-pods",
        "R-EVD-9",
        frozenset({CSV, DEPLOYMENT, POD, EVENT}),
        lambda inputs: _namespaces(inputs.installed, "install-pods"),
        _install_pods_compute,
        _install_pods_marks,
    ),
    single("unpack", "R-EVD-3", {SUBSCRIPTION, JOB, EVENT}, _unpack_findings, moves=_unpack_moved),
    single("crd-owners", "R-EVD-4, R-EVD-5", {CRD, CSV}, _crd_findings, moves=_crd_moved),
    single(
        "terminating",
        "R-EVD-6",
        {NAMESPACE, *OLM_NAMESPACED_KINDS},
        _terminating_findings,
        moves=_terminating_moved,
    ),
    single(
        COPIED_INSTALLED,
        "R-EVD-7",
        {ANY_KIND},
        _copied_installed_findings,
        moves=_copied_installed_moved,
    ),
    single(
        "platform-orphans",
        "R-EVD-8",
        {ANY_KIND},
        _platform_orphan_findings,
        moves=_platform_orphans_moved,
    ),
    RuleFamily(
        "cc",
        "R-V1-7, R-V1-9",
        frozenset({CLUSTER_CATALOG, CLUSTER_EXTENSION}),
        lambda inputs: _names(inputs, CLUSTER_CATALOG, "cc"),
        _cc_compute,
        _cc_marks,
    ),
    RuleFamily(
        "ce",
        "R-V1-4, R-V1-5, R-V1-20, R-V1-22",
        frozenset({CLUSTER_EXTENSION, CLUSTER_CATALOG}),
        lambda inputs: _names(inputs, CLUSTER_EXTENSION, "ce"),
        _ce_compute,
        _ce_marks,
        follows=frozenset({CONTENT}),
    ),
    single(
        "revisions",
        "R-V1-25, R-V1-26, R-V1-27",
        {CLUSTER_EXTENSION, CLUSTER_OBJECT_SET, CLUSTER_EXTENSION_REVISION},
        _revision_findings,
        moves=_revisions_moved,
    ),
    RuleFamily(
        "malformed",
        "R-SRC-4",
        frozenset({ANY_KIND}),
        _malformed_subjects,
        _malformed_compute,
        _malformed_marks,
    ),
)
