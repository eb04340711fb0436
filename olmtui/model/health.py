"""The findings beyond the group rules: catalogs, Subscriptions, InstallPlans, upgrades.

The engine keeps the group rules incrementally; the health rules (CatalogSource health
R-SUB-8, Subscription conditions §12, InstallPlans and approval R-SUB-4/R-IP-2, upgrade
graphs §9) are pure functions over the cached objects and the catalog content. The `check`
report and the screens both take their findings from :func:`merged_findings`, so they
always say the same thing; where a rule and the engine report the same code on the same
object, the engine's finding is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from olmtui.model.catalog import Catalog
from olmtui.model.catalog_health import catalog_findings
from olmtui.model.subscription_health import namespace_subscription_findings
from olmtui.model.types import Finding
from olmtui.model.upgrades import upgrade_findings
from olmtui.store import Obj, Store, is_copied_csv


def _by_namespace(objs: Iterable[Obj]) -> dict[str, list[Obj]]:
    """Objects grouped by namespace in one pass (``Store.list`` with a namespace scans the
    whole kind, once per namespace)."""
    by_ns: dict[str, list[Obj]] = {}
    for obj in objs:
        by_ns.setdefault((obj.get("metadata") or {}).get("namespace") or "", []).append(obj)
    return by_ns


def _csvs_by_namespace(store: Store) -> dict[str, dict[str, Obj]]:
    """Non-copied CSVs (R-COPY-1) by namespace and name: the installed ones."""
    by_ns: dict[str, dict[str, Obj]] = {}
    for csv in store.list("ClusterServiceVersion"):
        if not is_copied_csv(csv):
            meta = csv.get("metadata") or {}
            by_ns.setdefault(meta.get("namespace") or "", {})[meta.get("name") or ""] = csv
    return by_ns


def health_findings(store: Store, catalogs: Sequence[Catalog] = ()) -> list[Finding]:
    """Catalog, Subscription, InstallPlan and upgrade findings for the cached objects.

    ``catalogs`` is the catalog content known (``--catalog`` and PackageManifests); its load
    problems are findings too. Upgrade rules need edges, so only catalog content (not
    PackageManifests) feeds them.
    """
    subs = list(store.list("Subscription"))
    found = catalog_findings(store.list("CatalogSource"), subs)
    by_ns = _csvs_by_namespace(store)
    subs_by_ns = _by_namespace(subs)
    plans_by_ns = _by_namespace(store.list("InstallPlan"))
    plans_known = store.count("InstallPlan") > 0
    for namespace in sorted(subs_by_ns):
        found += namespace_subscription_findings(
            namespace, subs_by_ns[namespace], plans_by_ns.get(namespace, ()),
            by_ns.get(namespace, {}).values(), install_plans_known=plans_known,
        )
    content = [c for c in catalogs if c.graph == "catalog"]
    if content:
        found += upgrade_findings(content, subs, by_ns)
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


def merged_findings(*groups: Iterable[Finding], model: Iterable[Finding] = (),
                    health: Iterable[Finding] = ()) -> list[Finding]:
    """Every finding once, worst first: ``groups`` (e.g. the loader's), the engine's, then
    the health rules' that the engine has not already reported."""
    model = list(model)
    merged = [f for group in groups for f in group]
    merged += model
    merged += without_model_duplicates(health, model)
    return sorted(merged, key=lambda f: f.sort_key)
