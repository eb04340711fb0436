"""Subscriptions left behind by platform operators that stopped using OLM (R-EVD-8).

Some OpenShift operators were once installed through OLM and now ship with the release
payload, reporting through a ClusterOperator. Their old Subscription in an ``openshift-*``
namespace can stay: its CSV is gone (the payload's operator replaced it), and OLM has nothing
to install for it. Claimed strictly: the Subscription is in an ``openshift-*`` namespace, it
names an installed or current CSV, no CSV of its package (nor the one it names) is in the
namespace, and a ClusterOperator of the input is named for its package or lists the namespace
among its ``status.relatedObjects``. It rests on the absence of CSVs, so it is withheld while
CSVs are read only in part (R-SRC-1). The operator is platform-owned (R-DOC-7): not the
admin's to change; only the Subscription is a leftover.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from olmtui.kinds import CLUSTER_OPERATOR, SUBSCRIPTION
from olmtui.model.records.types import Evidence, FieldEvidence, Finding, ObjectRef
from olmtui.model.rules.documented.leftovers import csv_package
from olmtui.model.rules.documented.platform import is_platform_owned
from olmtui.objects import Obj, name_of, namespace_of, spec, status

PLATFORM_PREFIX = "openshift-"
ORPHANED = "SubscriptionOrphanedByPlatform"
#: Namespaces where admins' operators live beside the platform's.
_SHARED_NAMESPACES = frozenset(
    {"openshift-operators", "openshift-marketplace", "openshift-operator-lifecycle-manager"}
)
#: OLM's and the marketplace's ClusterOperators list the namespaces they serve, not an
#: operator that took a package's place.
_OLM_OPERATORS = frozenset(
    {
        "operator-lifecycle-manager",
        "operator-lifecycle-manager-catalog",
        "operator-lifecycle-manager-packageserver",
        "olm",
        "marketplace",
    }
)


def _namespaces_of(cluster_operator: Obj) -> set[str]:
    """The namespaces a ClusterOperator lists among its related objects."""
    return {
        str(o.get("name"))
        for o in status(cluster_operator).get("relatedObjects") or ()
        if isinstance(o, dict) and o.get("resource") == "namespaces" and o.get("name")
    }


def _claiming(
    cluster_operators: list[Obj], package: str, namespace: str
) -> tuple[Obj, str, str] | None:
    """The ClusterOperator that takes the package's place, with the field and value that
    say so: its name is the package's, else it lists the namespace."""
    for co in cluster_operators:
        if name_of(co) == package:
            return co, "metadata.name", package
    if namespace in _SHARED_NAMESPACES:
        return None  # admins install their own operators there: a listing proves nothing
    for co in cluster_operators:
        if name_of(co) not in _OLM_OPERATORS and namespace in _namespaces_of(co):
            return co, "status.relatedObjects[namespaces]", namespace
    return None


def platform_orphan_findings(
    subscriptions: Iterable[Obj],
    installed_in: Callable[[str], Iterable[Obj]],
    get_csv: Callable[[str, str], Obj | None],
    cluster_operators: Iterable[Obj],
) -> list[Finding]:
    """R-EVD-8: Subscriptions in ``openshift-*`` namespaces whose package's CSV is gone and
    whose operator a ClusterOperator now reports. ``installed_in``: the non-copied CSVs of
    one namespace; ``get_csv``: any CSV (copies included) by namespace and name."""
    operators = list(cluster_operators)
    subs = [s for s in subscriptions if namespace_of(s).startswith(PLATFORM_PREFIX)]
    if not operators or not subs:
        return []
    packages = {
        (namespace, csv_package(csv))
        for namespace in {namespace_of(s) for s in subs}
        for csv in installed_in(namespace)
    }
    found: list[Finding] = []
    for sub in subs:
        namespace, name = namespace_of(sub), name_of(sub)
        package = str(spec(sub).get("name") or "")
        sub_status = status(sub)
        named = [sub_status.get(f) or "" for f in ("installedCSV", "currentCSV")]
        named = [n for n in dict.fromkeys(named) if n]
        if (
            not package
            or not named
            or (namespace, package) in packages
            or any(get_csv(namespace, n) is not None for n in named)
        ):
            continue
        claim = _claiming(operators, package, namespace)
        if claim is None:
            continue
        co, field, value = claim
        evidence: list[Evidence] = [
            FieldEvidence(SUBSCRIPTION, namespace, name, "status.installedCSV", ", ".join(named)),
            FieldEvidence(CLUSTER_OPERATOR, "", name_of(co), field, value),
        ]
        owned = is_platform_owned(sub)
        advice = (
            "The Subscription is itself part of the release payload: platform-owned, not the "
            "admin's to change (R-DOC-7)."
            if owned
            else "Delete the Subscription (and its old InstallPlans): it installs nothing, "
            "and deleting it leaves the payload's operator as it is."
        )
        found.append(
            Finding(
                "info" if owned else "warning",
                ORPHANED,
                SUBSCRIPTION,
                namespace,
                name,
                f"Subscription {name} of package {package} names CSV {', '.join(named)}, but "
                f"no CSV of its package is in namespace {namespace}, and ClusterOperator "
                f"{name_of(co)} now reports the operator: it moved to the OpenShift release "
                "payload and stopped using OLM. The operator is platform-owned: not the "
                f"admin's to change. {advice}",
                rule="R-EVD-8",
                related=(ObjectRef(CLUSTER_OPERATOR, "", name_of(co)),),
                evidence=tuple(evidence),
            )
        )
    return found
