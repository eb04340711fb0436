"""The findings beyond the group rules: catalogs, Subscriptions, InstallPlans, upgrades,
multitenancy limits and dependencies.

The engine keeps the group rules incrementally; the health rules (CatalogSource health
R-SUB-8, Subscription conditions §12, InstallPlans and approval R-SUB-4/R-IP-2, upgrade
graphs §9, the multitenancy limits of seeds 000/002 and the dependency checks of seed 001
§2.2) are pure functions over the cached objects and the catalog content. The `check`
report and the screens both take their findings from :func:`merged_findings`, so they
always say the same thing; where a rule and the engine report the same code on the same
object, the engine's finding is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from olmtui.model.access import no_access_findings, readable_findings
from olmtui.model.catalog import Bundle, Catalog
from olmtui.model.catalog_health import catalog_content_without_source, catalog_findings
from olmtui.model.dependencies import dependency_findings
from olmtui.model.multitenancy import multitenancy_findings
from olmtui.model.objects import Obj, meta
from olmtui.model.subscription_health import namespace_subscription_findings
from olmtui.model.types import Finding, SubscriptionState
from olmtui.model.upgrades import upgrade_findings
from olmtui.store import Store, Unreadable, is_copied_csv


def _by_namespace(objs: Iterable[Obj]) -> dict[str, list[Obj]]:
    """Objects grouped by namespace in one pass (``Store.list`` with a namespace scans the
    whole kind, once per namespace)."""
    by_ns: dict[str, list[Obj]] = {}
    for obj in objs:
        by_ns.setdefault(meta(obj).get("namespace") or "", []).append(obj)
    return by_ns


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


def health_findings(
    store: Store, catalogs: Sequence[Catalog] = (), subscriptions: Iterable[SubscriptionState] = ()
) -> list[Finding]:
    """Catalog, Subscription, InstallPlan, upgrade, multitenancy and dependency findings for
    the cached objects.

    ``catalogs`` is the catalog content known (``--catalog`` and PackageManifests); its load
    problems are findings too. Upgrade rules need edges, so only catalog content (not
    PackageManifests) feeds them. ``subscriptions`` (the engine's records, with their next
    bundle) let the dependency rules look at what an upgrade would change.
    """
    subs = list(store.list("Subscription"))
    found = catalog_findings(store.list("CatalogSource"), subs)
    by_ns = _csvs_by_namespace(store)
    subs_by_ns = _by_namespace(subs)
    plans_by_ns = _by_namespace(store.list("InstallPlan"))
    plans_known = store.count("InstallPlan") > 0
    for namespace in sorted(subs_by_ns):
        found += namespace_subscription_findings(
            namespace,
            subs_by_ns[namespace],
            plans_by_ns.get(namespace, ()),
            by_ns.get(namespace, {}).values(),
            install_plans_known=plans_known,
        )
    content = [c for c in catalogs if c.graph == "catalog"]
    if content:
        groups = {ns: len(ogs) for ns, ogs in _by_namespace(store.list("OperatorGroup")).items()}
        found += upgrade_findings(content, subs, by_ns, groups)
        found += catalog_content_without_source(content, store.list("CatalogSource"))
    installed = [csv for csvs in by_ns.values() for csv in csvs.values()]
    crds = list(store.list("CustomResourceDefinition"))
    found += multitenancy_findings(installed, subs, crds)
    found += dependency_findings(installed, crds, next_bundles(content, subscriptions))
    for catalog in catalogs:
        found += catalog.findings
    return found


def _key(finding: Finding) -> tuple[str, str, str, str]:
    return (finding.code, finding.kind, finding.namespace, finding.name)


def without_model_duplicates(health: Iterable[Finding], model: Iterable[Finding]) -> list[Finding]:
    """The health findings the model has not already reported: when both speak of one code on
    one object, the model's wording stays (as on the screens)."""
    known = {_key(f) for f in model}
    return [f for f in health if _key(f) not in known]


def merged_findings(
    *groups: Iterable[Finding],
    model: Iterable[Finding] = (),
    health: Iterable[Finding] = (),
    unreadable: Mapping[str, Unreadable] | None = None,
) -> list[Finding]:
    """Every finding once, worst first: ``groups`` (e.g. the loader's), the engine's, then
    the health rules' that the engine has not already reported. For each kind in
    ``unreadable`` (``Store.unreadable``), the findings resting on the absence of its
    objects are dropped and one warning says so instead (``olmtui.model.access``)."""
    model = list(model)
    merged = [f for group in groups for f in group]
    merged += model
    merged += without_model_duplicates(health, model)
    if unreadable:
        merged = readable_findings(merged, unreadable) + no_access_findings(unreadable)
    return sorted(merged, key=lambda f: f.sort_key)
