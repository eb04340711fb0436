"""One cluster upgrade readiness: every blocker of the next OpenShift minor, v0 or v1
(R-CUP-1, R-CUP-6).

The cluster's version is the ClusterVersion's (R-DOC-16), its next minor the one OpenShift
upgrades to (4.23 and 5.0 both go to 5.1). A blocker is an installed CSV whose cap holds that
minor (``v0``, R-DOC-16), an installed ClusterExtension whose bundle's cap does (``v1``,
R-CUP-2..R-CUP-4), or one of OLM's ClusterOperators saying ``Upgradeable=False`` for a reason
no v0 or v1 blocker read here explains (``clusteroperator``). Each says its operator, its cap
and the way out: the version to upgrade to, named when the catalog content shows one, or
uninstalling it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from olmtui.frozen import frozen
from olmtui.kinds import CLUSTER_EXTENSION, CLUSTER_OPERATOR, CSV
from olmtui.model.records.catalog import Catalog, Package
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.cluster_readiness.extension_caps import (
    ExtensionCap,
    way_out_words,
)
from olmtui.model.rules.cluster_readiness.olm_condition import (
    OLM_V1_CLUSTER_OPERATOR,
    installed_operators_upgradeable,
)
from olmtui.model.rules.documented.cluster_upgrade import (
    MAX_OCP_PROPERTY,
    OLM_CLUSTER_OPERATOR,
    Minor,
    blocks_next_minor,
    cluster_version,
    max_openshift_version,
    next_minor,
    openshift_version,
    shown_minor,
)
from olmtui.model.rules.documented.olm_cluster_operators import OLM_CLUSTER_OPERATORS
from olmtui.objects import Obj, meta, name_of, spec, status

BlockerSource = Literal["v0", "v1", "clusteroperator"]
_ORDER = {"v0": 0, "v1": 1, "clusteroperator": 2}


@frozen
class Blocker:
    """One thing that holds the next minor: where it was read, its object, its cap
    (``major.minor``, ``None`` when not known or not readable) and what it says, the way out
    included."""

    source: BlockerSource
    object: ObjectRef
    max_openshift_version: str | None
    message: str


@frozen
class UpgradeReadiness:
    """R-CUP-1: the version the cluster runs (``None``: no ClusterVersion in the source), its
    next minor, the blockers, and the installed extensions whose cap is not known."""

    current_version: str | None
    next_minor: str | None
    blockers: tuple[Blocker, ...]
    unknown: tuple[ObjectRef, ...]


def _v0_package(
    csv: Obj, subscriptions: Sequence[Obj], catalogs: Sequence[Catalog]
) -> Package | None:
    """The package of the Subscription that installed ``csv``, in the content serving its
    CatalogSource (or content that serves every source)."""
    csv_meta = meta(csv)
    for sub in subscriptions:
        if meta(sub).get("namespace") != csv_meta.get("namespace"):
            continue
        if status(sub).get("installedCSV") != csv_meta.get("name"):
            continue
        sub_spec = spec(sub)
        source = f"{sub_spec.get('sourceNamespace')}/{sub_spec.get('source')}"
        for catalog in sorted(catalogs, key=lambda c: c.ref != source):
            if catalog.graph == "catalog" and catalog.ref in (source, None):
                package = catalog.packages.get(str(sub_spec.get("name") or ""))
                if package is not None:
                    return package
    return None


def _v0_blockers(
    installed: Iterable[Obj],
    current: Minor,
    subscriptions: Sequence[Obj],
    catalogs: Sequence[Catalog],
) -> list[Blocker]:
    target = shown_minor(next_minor(current))
    out: list[Blocker] = []
    for csv in installed:
        maximum, invalid = max_openshift_version(csv)
        csv_meta = meta(csv)
        ref = ObjectRef(CSV, str(csv_meta.get("namespace") or ""), str(csv_meta.get("name") or ""))
        version = str(spec(csv).get("version") or "") or None
        way = way_out_words(_v0_package(csv, subscriptions, catalogs), version, current)
        if invalid is not None:
            out.append(
                Blocker(
                    "v0",
                    ref,
                    None,
                    f"Its {MAX_OCP_PROPERTY} cannot be read ({invalid}); OLM treats that as "
                    f"incompatible and holds the upgrade to {target}. {way}",
                )
            )
        elif maximum is not None and blocks_next_minor(maximum, current):
            out.append(
                Blocker(
                    "v0",
                    ref,
                    shown_minor(maximum),
                    f"Capped at OpenShift {shown_minor(maximum)} ({MAX_OCP_PROPERTY}): OLM "
                    f"holds the upgrade to {target}. {way}",
                )
            )
    return out


def _v1_blockers(
    caps: Iterable[ExtensionCap], current: Minor, blocking: Sequence[str], failing: Sequence[str]
) -> list[Blocker]:
    target = shown_minor(next_minor(current))
    out: list[Blocker] = []
    for cap in caps:
        ref = ObjectRef(CLUSTER_EXTENSION, "", cap.extension)
        bundle = f"bundle {cap.bundle}"
        if cap.catalog is None:
            if cap.extension in blocking or cap.extension in failing:
                said = "names" if cap.extension in blocking else "cannot read"
                out.append(
                    Blocker(
                        "v1",
                        ref,
                        None,
                        f"The {OLM_V1_CLUSTER_OPERATOR} ClusterOperator {said} its {bundle} "
                        f"and holds the upgrade to {target}; its cap is in no catalog content "
                        f"given. {way_out_words(None, cap.version, current)}",
                    )
                )
            continue
        if cap.invalid is not None:
            out.append(
                Blocker(
                    "v1",
                    ref,
                    None,
                    f"The {MAX_OCP_PROPERTY} of its {bundle} cannot be read ({cap.invalid}); "
                    f"cluster-olm-operator holds the upgrade to {target}. "
                    + cap.way_out_words(current),
                )
            )
        elif cap.maximum is not None and blocks_next_minor(cap.maximum, current):
            out.append(
                Blocker(
                    "v1",
                    ref,
                    shown_minor(cap.maximum),
                    f"Its {bundle} is capped at OpenShift {shown_minor(cap.maximum)} "
                    f"({MAX_OCP_PROPERTY}): cluster-olm-operator holds the upgrade to {target}. "
                    + cap.way_out_words(current),
                )
            )
    return out


def _cluster_operator_blockers(
    cluster_operators: Iterable[Obj], explained: set[str]
) -> list[Blocker]:
    """OLM's ClusterOperators at ``Upgradeable=False`` whose blockers were not read here."""
    out: list[Blocker] = []
    for co in cluster_operators:
        name = name_of(co)
        if name not in OLM_CLUSTER_OPERATORS or name in explained:
            continue
        for cond in status(co).get("conditions") or ():
            if not isinstance(cond, dict) or cond.get("type") != "Upgradeable":
                continue
            if cond.get("status") != "False":
                continue
            reason = str(cond.get("reason") or "no reason")
            message = " ".join(str(cond.get("message") or "").split()) or "no message"
            out.append(
                Blocker(
                    "clusteroperator",
                    ObjectRef(CLUSTER_OPERATOR, "", name),
                    None,
                    f"Upgradeable=False ({reason}): {message}. The operators it names are not "
                    "read as blockers here (their caps are not in the input); upgrade or "
                    "uninstall them as it says.",
                )
            )
    return out


def upgrade_readiness(
    *,
    installed_csvs: Iterable[Obj],
    subscriptions: Iterable[Obj],
    cluster_versions: Iterable[Obj],
    cluster_operators: Iterable[Obj],
    caps: Sequence[ExtensionCap],
    catalogs: Sequence[Catalog],
) -> UpgradeReadiness:
    """R-CUP-6: the blockers of the next minor, v0 then v1 then OLM's ClusterOperators, each
    in name order. Without the cluster's version no cap is known to block: only what the
    ClusterOperators say is listed, and every extension with a cap is ``unknown``."""
    versions = list(cluster_versions)
    operators = list(cluster_operators)
    current = cluster_version(versions)
    condition = installed_operators_upgradeable(operators)
    blocking = condition.blocking if condition is not None else ()
    failing = condition.failing if condition is not None else ()
    blockers: list[Blocker] = []
    if current is not None:
        blockers += _v0_blockers(installed_csvs, current, list(subscriptions), catalogs)
        blockers += _v1_blockers(caps, current, blocking, failing)
    explained = set()
    if any(b.source == "v0" for b in blockers):
        explained.add(OLM_CLUSTER_OPERATOR)
    if any(b.source == "v1" for b in blockers):
        explained.add(OLM_V1_CLUSTER_OPERATOR)
    blockers += _cluster_operator_blockers(operators, explained)
    unknown = tuple(
        ObjectRef(CLUSTER_EXTENSION, "", c.extension)
        for c in caps
        if (c.catalog is None and condition is None) or (current is None and c.maximum is not None)
    )
    return UpgradeReadiness(
        openshift_version(versions),
        shown_minor(next_minor(current)) if current is not None else None,
        tuple(
            sorted(blockers, key=lambda b: (_ORDER[b.source], b.object.namespace, b.object.name))
        ),
        unknown,
    )
