"""The Migration view's rows: every operator's migration state (R-MIG-12), gathered from the
cache. The rules (``model/rules/migration``) read plain objects; this module finds them: for
each Subscription its namespace's OperatorGroups, its installed CSV and that CSV's
OperatorCondition, the InstallPlan its status names, every CatalogSource and ClusterCatalog,
and the content bound to each ClusterCatalog (R-V1-22)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CSV,
    INSTALL_PLAN,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.migration.checks import OperatorInputs
from olmtui.model.rules.migration.states import Migration, migrations
from olmtui.model.rules.v1.catalogs import decode_catalog
from olmtui.model.rules.v1.resolve import content_by_catalog
from olmtui.objects import Obj, name_of, namespace_of, status, text_of
from olmtui.store import Store


def _plan_of(store: Store, sub: Obj) -> Obj | None:
    """The InstallPlan ``status.installPlanRef`` (or the older ``status.install``) names."""
    sub_status = status(sub)
    ref = sub_status.get("installPlanRef") or sub_status.get("install")
    if not isinstance(ref, dict):
        return None
    name = text_of(ref.get("name"))
    ns = text_of(ref.get("namespace")) or namespace_of(sub)
    return None if name is None else store.get(INSTALL_PLAN, ns, name)


def migration_rows(
    store: Store, catalogs: Sequence[Catalog], only: Iterable[Obj] | None = None
) -> list[Migration]:
    """R-MIG-12: every operator's row, in the tool's section order; ``only``: the rows of
    these Subscriptions alone (one CSV's detail), which reads no other Subscription (rows of
    converted ClusterExtensions then stand beside them, whatever their Subscription)."""
    catalog_objs = sorted(store.list(CLUSTER_CATALOG), key=name_of)
    cluster_catalogs = [decode_catalog(o) for o in catalog_objs]
    content = content_by_catalog(catalogs, catalog_objs)
    sources = (
        {(namespace_of(s), name_of(s)): s for s in store.list(CATALOG_SOURCE)}
        if store.count(CATALOG_SOURCE)
        else None
    )
    groups: dict[str, list[Obj]] = {}
    for (ns, _), group in store.slots(OPERATOR_GROUP):  # once, not once per Subscription
        groups.setdefault(ns, []).append(group)
    unreadable = frozenset(store.unreadable)
    conditions_read = store.count(OPERATOR_CONDITION) > 0

    def inputs_of(sub: Obj) -> OperatorInputs:
        ns = namespace_of(sub)
        installed = text_of(status(sub).get("installedCSV"))
        csv = None if installed is None else store.get(CSV, ns, installed)
        return OperatorInputs(
            subscription=sub,
            groups=groups.get(ns, []),
            csv=csv,
            condition=None if installed is None else store.get(OPERATOR_CONDITION, ns, installed),
            catalog_sources=sources,
            install_plan=_plan_of(store, sub),
            cluster_catalogs=cluster_catalogs,
            content=content,
            unreadable=unreadable,
            read_namespaces=store.read_namespaces,
            conditions_read=conditions_read,
        )

    listed = store.list(SUBSCRIPTION) if only is None else only
    subs = sorted(listed, key=lambda s: (namespace_of(s), name_of(s)))
    return migrations(subs, store.list(CLUSTER_EXTENSION), inputs_of)
