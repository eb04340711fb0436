"""Which objects relate to which, for "jump to" in the object detail:
Subscription -> InstallPlan -> CSV -> copies; CSV -> group -> other groups; and back.
Read from the cache, the model's records and the v1 state, when the detail asks
(``Analysis.related``)."""

from __future__ import annotations

from collections.abc import Callable

from olmtui.frozen import frozen
from olmtui.kinds import (
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CLUSTER_EXTENSION_REVISION,
    CLUSTER_OBJECT_SET,
)
from olmtui.model.incremental.engine import Model
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.v1.state import V1State
from olmtui.model.viewmodels.views import watching_groups
from olmtui.store import Store, is_copied_csv

Relation = tuple[str, ObjectRef]
#: Copies listed one by one in the detail, at most (the CSV view counts the rest).
COPY_LIMIT = 200


@frozen
class Reads:
    """What the relations are read from: the cache, the model and the v1 state now."""

    store: Store
    model: Model
    v1_state: Callable[[], V1State]


def _split(reference: str | None) -> tuple[str, str]:
    namespace, _, name = (reference or "").rpartition("/")
    return namespace, name


def _og(reference: str) -> ObjectRef:
    return ObjectRef("OperatorGroup", *_split(reference))


def _subscription(reads: Reads, target: ObjectRef) -> list[Relation]:
    sub = next(
        (
            s
            for s in reads.model.subscriptions()
            if (s.namespace, s.name) == (target.namespace, target.name)
        ),
        None,
    )
    if sub is None:
        return []
    out: list[Relation] = []
    if sub.install_plan is not None:
        out.append(("InstallPlan", ObjectRef("InstallPlan", sub.namespace, sub.install_plan.name)))
    for what, name in (("installed CSV", sub.installed_csv), ("current CSV", sub.current_csv)):
        if name and (what == "installed CSV" or name != sub.installed_csv):
            out.append((what, ObjectRef("ClusterServiceVersion", sub.namespace, name)))
    out.append(("catalog", ObjectRef("CatalogSource", sub.source_namespace, sub.source)))
    out.extend(
        ("OperatorGroup", ObjectRef("OperatorGroup", og.namespace, og.name))
        for og in reads.model.operator_groups()
        if og.namespace == sub.namespace
    )
    return out


def _csv(reads: Reads, target: ObjectRef) -> list[Relation]:
    obj = reads.store.get("ClusterServiceVersion", target.namespace, target.name)
    if obj is not None and is_copied_csv(obj):
        source = ((obj.get("metadata") or {}).get("annotations") or {}).get(
            "olm.operatorNamespace"
        ) or ((obj.get("metadata") or {}).get("labels") or {}).get("olm.copiedFrom")
        return (
            [("copied from", ObjectRef("ClusterServiceVersion", source, target.name))]
            if source
            else []
        )
    out: list[Relation] = []
    state = reads.model.csv(target.namespace, target.name)
    if state is not None:
        if state.operator_group:
            out.append(("its OperatorGroup", _og(state.operator_group)))
        for conflict in state.conflicts:
            out.append((f"conflicts: {', '.join(conflict.apis)}", _og(conflict.operator_group)))
        if state.replaces:
            out.append(
                ("replaces", ObjectRef("ClusterServiceVersion", target.namespace, state.replaces))
            )
    for sub in reads.model.subscriptions():
        if sub.namespace == target.namespace and target.name in (
            sub.installed_csv,
            sub.current_csv,
        ):
            out.append(("Subscription", ObjectRef("Subscription", sub.namespace, sub.name)))
    for plan in reads.store.list("InstallPlan", target.namespace):
        if target.name in ((plan.get("spec") or {}).get("clusterServiceVersionNames") or []):
            out.append(
                (
                    "InstallPlan",
                    ObjectRef("InstallPlan", target.namespace, plan["metadata"]["name"]),
                )
            )
    copies = reads.model.copies_of(target.namespace, target.name)
    out.extend(
        ("copy", ObjectRef("ClusterServiceVersion", ns, target.name)) for ns in copies[:COPY_LIMIT]
    )
    return out


def _operator_group(reads: Reads, target: ObjectRef) -> list[Relation]:
    og = reads.model.operator_group(target.namespace, target.name)
    if og is None:
        return []
    out: list[Relation] = [
        ("member", ObjectRef("ClusterServiceVersion", og.namespace, name)) for name in og.members
    ]
    for other in og.intersecting:
        out.append(
            (f"intersects in {', '.join(other.namespaces) or 'all'}", _og(other.operator_group))
        )
    for csv in reads.model.csvs():
        for conflict in csv.conflicts:
            if conflict.operator_group == og.ref:
                out.append(
                    (
                        f"conflicting CSV ({', '.join(conflict.apis)})",
                        ObjectRef("ClusterServiceVersion", csv.namespace, csv.name),
                    )
                )
    return out


def _install_plan(reads: Reads, target: ObjectRef) -> list[Relation]:
    plan = reads.store.get("InstallPlan", target.namespace, target.name)
    if plan is None:
        return []
    out: list[Relation] = [
        ("CSV", ObjectRef("ClusterServiceVersion", target.namespace, name))
        for name in (plan.get("spec") or {}).get("clusterServiceVersionNames") or []
    ]
    for owner in (plan.get("metadata") or {}).get("ownerReferences") or []:
        if owner.get("kind") == "Subscription":
            out.append(("owner", ObjectRef("Subscription", target.namespace, owner["name"])))
    return out


def _catalog_source(reads: Reads, target: ObjectRef) -> list[Relation]:
    return [
        ("Subscription", ObjectRef("Subscription", s.namespace, s.name))
        for s in reads.model.subscriptions()
        if (s.source_namespace, s.source) == (target.namespace, target.name)
    ]


def _namespace(reads: Reads, target: ObjectRef) -> list[Relation]:
    name = target.name
    out: list[Relation] = [
        ("OperatorGroup", ObjectRef("OperatorGroup", og.namespace, og.name))
        for og in reads.model.operator_groups()
        if og.namespace == name
    ]
    out.extend(
        ("CSV", ObjectRef("ClusterServiceVersion", c.namespace, c.name))
        for c in reads.model.csvs()
        if c.namespace == name
    )
    out.extend(
        ("Subscription", ObjectRef("Subscription", s.namespace, s.name))
        for s in reads.model.subscriptions()
        if s.namespace == name
    )
    out.extend(
        ("watched by", ObjectRef("OperatorGroup", og.namespace, og.name))
        for og in watching_groups(reads.model.operator_groups(), name)
        if og.namespace != name
    )
    return out


def _cluster_extension(reads: Reads, target: ObjectRef) -> list[Relation]:
    """A ClusterExtension's selected ClusterCatalogs (R-V1-9) and its revisions (R-V1-24)."""
    state = reads.v1_state()
    extension = state.extensions.get(target.name)
    if extension is None:
        return []
    catalogs: list[Relation] = [
        ("catalog", ObjectRef(CLUSTER_CATALOG, "", c.name)) for c in state.selected(extension)
    ]
    revisions = state.revisions.get(target.name)
    return catalogs + [
        ("revision", ObjectRef(r.kind, "", r.name))
        for r in (revisions.revisions if revisions is not None else ())
    ]


def _revision(reads: Reads, target: ObjectRef) -> list[Relation]:
    """The ClusterExtension a revision belongs to (R-V1-24)."""
    return [
        ("revision of", ObjectRef(CLUSTER_EXTENSION, "", name))
        for name, revisions in reads.v1_state().revisions.items()
        if any((r.kind, r.name) == (target.kind, target.name) for r in revisions.revisions)
    ]


def _cluster_catalog(reads: Reads, target: ObjectRef) -> list[Relation]:
    """The ClusterExtensions whose selector takes this ClusterCatalog."""
    return [
        ("selected by", ObjectRef(CLUSTER_EXTENSION, "", name))
        for name in reads.v1_state().users(target.name)
    ]


_BY_KIND = {
    "Subscription": _subscription,
    "ClusterServiceVersion": _csv,
    "OperatorGroup": _operator_group,
    "InstallPlan": _install_plan,
    "CatalogSource": _catalog_source,
    "Namespace": _namespace,
    CLUSTER_EXTENSION: _cluster_extension,
    CLUSTER_CATALOG: _cluster_catalog,
    CLUSTER_OBJECT_SET: _revision,
    CLUSTER_EXTENSION_REVISION: _revision,
}


def related(reads: Reads, target: ObjectRef) -> list[Relation]:
    """``(how it relates, object)`` pairs for the object detail, in a stable order."""
    build = _BY_KIND.get(target.kind)
    return build(reads, target) if build else []
