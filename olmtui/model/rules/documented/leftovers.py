"""What an uninstall or a failed install leaves behind in a namespace and what it blocks
(R-DOC-14, R-DOC-15).

* A CSV no Subscription references: OLM keeps it installed and never upgrades it, and the
  resolver treats it as mandatory, so a later Subscription for its package in the namespace
  cannot resolve. Copies never count (R-COPY-1); the release payload's CSVs (packageserver)
  and the CSV on its way out of an upgrade are not leftovers.
* A Subscription whose ``status.installedCSV`` is no longer in the namespace.
* InstallPlans piling up: OLM keeps at most :data:`OLM_KEPT_PLANS` per namespace, and does
  not retry a Failed plan (R-IP-3), so several Failed plans of one Subscription mean
  something keeps asking again.

Inputs: one namespace's Subscriptions, InstallPlans and non-copied CSVs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from olmtui.kinds import CSV, INSTALL_PLAN, NAMESPACE, SUBSCRIPTION
from olmtui.model.primitives import json_text
from olmtui.model.records.types import Finding, ObjectRef, Severity
from olmtui.model.rules.documented.platform import is_platform_owned
from olmtui.model.rules.resolution.failure_findings import orphans_named
from olmtui.objects import Obj, annotations_of, labels, meta, spec, status

#: The namespaces where OLM installs its own packageserver CSV without a Subscription.
OLM_NAMESPACES = frozenset({"openshift-operator-lifecycle-manager", "olm"})
#: OLM's catalog operator deletes the oldest InstallPlans of a namespace beyond this many
#: (its ``maxInstallPlanCount``), R-DOC-15.
OLM_KEPT_PLANS = 5
#: Failed InstallPlans of one Subscription from which olmtui calls it a loop.
FAILED_LOOP = 3
_LEAVING = ("Replacing", "Deleting")


def csv_package(csv: Obj) -> str:
    """The package a CSV belongs to: its ``olm.package`` property, else the package part of
    its ``operators.coreos.com/<package>.<namespace>`` label; "" when neither says."""
    raw = annotations_of(csv).get("operatorframework.io/properties") or ""
    try:
        properties = json_text.loads(raw).get("properties") or () if raw else ()
    except (ValueError, AttributeError):
        properties = ()
    for prop in properties:
        if isinstance(prop, dict) and prop.get("type") == "olm.package":
            value = prop.get("value") or {}
            if isinstance(value, dict) and value.get("packageName"):
                return str(value["packageName"])
    suffix = f".{meta(csv).get('namespace') or ''}"
    for key in labels(csv):
        if key.startswith("operators.coreos.com/") and key.endswith(suffix):
            return key.removeprefix("operators.coreos.com/").removesuffix(suffix)
    return ""


def _referenced(subs: Iterable[Obj]) -> set[str]:
    out = set()
    for sub in subs:
        sub_status = status(sub)
        out |= {sub_status.get("installedCSV") or "", sub_status.get("currentCSV") or ""}
    return out - {""}


def _is_leftover_candidate(csv: Obj, replaced: set[str]) -> bool:
    name = meta(csv).get("name") or ""
    return not (
        is_platform_owned(csv)  # R-DOC-7
        or (meta(csv).get("namespace") or "") in OLM_NAMESPACES
        or name in replaced  # the old CSV of an upgrade under way
        or status(csv).get("phase") in _LEAVING
    )


def unreferenced_csv_findings(
    namespace: str, csvs: Mapping[str, Obj], subs: list[Obj]
) -> list[Finding]:
    """R-DOC-14: installed CSVs no Subscription references (info; a warning when a
    Subscription of the namespace asks for the same package)."""
    referenced = _referenced(subs)
    replaced = {spec(c).get("replaces") or "" for c in csvs.values()}
    named = orphans_named(subs)  # OLM's own clause: failure_findings says it
    found = []
    for name, csv in sorted(csvs.items()):
        if name in referenced or name in named or not _is_leftover_candidate(csv, replaced):
            continue
        package = csv_package(csv)
        wanting = sorted(
            str(meta(s).get("name")) for s in subs if package and spec(s).get("name") == package
        )
        about = f" of package {package}" if package else ""
        if wanting:
            message = (
                f"CSV {name}{about} is installed but no Subscription references it, and "
                f"Subscription {', '.join(wanting)} asks for the same package: OLM keeps the "
                "unreferenced CSV and allows one operator per package in a namespace, so it "
                f"blocks that Subscription. Delete ClusterServiceVersion {namespace}/{name} "
                "(its custom resources and CRDs stay) so that OLM installs the package again."
            )
        else:
            message = (
                f"CSV {name}{about} is installed but no Subscription references it: OLM keeps "
                "it running but never upgrades it, and a new Subscription for its package in "
                "this namespace will not resolve while it is here. If it is a leftover, delete "
                f"ClusterServiceVersion {namespace}/{name} (its custom resources and CRDs "
                "stay); to keep it managed instead, delete it all the same and create a "
                f"Subscription for its package with spec.startingCSV: {name}."
            )
        found.append(
            Finding(
                "warning" if wanting else "info",
                "UnreferencedCSV",
                CSV,
                namespace,
                name,
                message,
                "R-DOC-14",
                tuple(ObjectRef(SUBSCRIPTION, namespace, s) for s in wanting),
            )
        )
    return found


def installed_csv_gone_findings(
    namespace: str,
    csvs: Mapping[str, Obj],
    subs: list[Obj],
    plans: Mapping[str, Obj],
    plans_known: bool = True,
) -> list[Finding]:
    """R-DOC-14: a Subscription whose ``status.installedCSV`` is not in the namespace.
    ``plans_known``: InstallPlans were read at all; when not, a plan missing from the input
    proves nothing (whether OLM heals by itself, R-SUB-6, turns on it)."""
    found = []
    for sub in subs:
        sub_status = status(sub)
        installed = sub_status.get("installedCSV") or ""
        current = sub_status.get("currentCSV") or ""
        if not installed or installed in csvs or (current != installed and current in csvs):
            continue  # present, or an upgrade whose new CSV is already there
        name = str(meta(sub).get("name") or "")
        plan = (sub_status.get("installPlanRef") or {}).get("name") or ""
        severity: Severity
        if sub_status.get("state") == "UpgradePending" and plan and not plans_known:
            severity, advice = (
                "info",
                f"the state is UpgradePending, and the input holds no InstallPlans: if its "
                f"InstallPlan {plan} is gone too, OLM clears the reference and resolves the "
                "Subscription again by itself (R-SUB-6); if the plan still exists, delete the "
                "Subscription and create it again (the operator's custom resources stay).",
            )
        elif sub_status.get("state") == "UpgradePending" and plan and plan not in plans:
            # R-SUB-6: OLM clears the reference and resolves again by itself.
            severity, advice = (
                "info",
                f"its InstallPlan {plan} is gone too and the state is UpgradePending, so OLM "
                "clears the reference and resolves the Subscription again by itself.",
            )
        else:
            severity, advice = (
                "warning",
                "OLM does not put a deleted CSV back by itself; creating the Subscription "
                "again reinstalls it once no other CSV of its package is left in the namespace "
                "(a new Subscription never adopts one), or delete the Subscription if the "
                "operator was meant to go.",
            )
        found.append(
            Finding(
                severity,
                "InstalledCSVGone",
                SUBSCRIPTION,
                namespace,
                name,
                f"Subscription {name} says CSV {installed} is installed, but there is no CSV "
                f"{installed} in namespace {namespace} (state {sub_status.get('state') or '?'}): "
                f"{advice}",
                "R-DOC-14",
                (ObjectRef(CSV, namespace, installed),),
            )
        )
    return found


def _owners(plan: Obj) -> list[str]:
    return [
        str(o.get("name"))
        for o in meta(plan).get("ownerReferences") or ()
        if isinstance(o, dict) and o.get("kind") == SUBSCRIPTION and o.get("name")
    ]


def piling_plan_findings(namespace: str, plans: Mapping[str, Obj]) -> list[Finding]:
    """R-DOC-15: more InstallPlans than OLM keeps in a namespace, and Subscriptions with
    :data:`FAILED_LOOP` or more Failed plans."""
    found = []
    failed: dict[str, list[str]] = {}
    for name, plan in sorted(plans.items()):
        if status(plan).get("phase") == "Failed":
            for owner in _owners(plan):
                failed.setdefault(owner, []).append(name)
    for sub, names in sorted(failed.items()):
        if len(names) < FAILED_LOOP:
            continue
        found.append(
            Finding(
                "warning",
                "InstallPlansFailingAgain",
                SUBSCRIPTION,
                namespace,
                sub,
                f"{len(names)} Failed InstallPlans of Subscription {sub} ({', '.join(names)}): "
                "OLM does not retry a Failed plan (R-IP-3), so each was a new attempt that "
                "failed again. Fix the cause the newest plan's message gives, then delete the "
                "Failed plans.",
                "R-DOC-15",
                tuple(ObjectRef(INSTALL_PLAN, namespace, n) for n in names),
            )
        )
    if len(plans) > OLM_KEPT_PLANS:
        found.append(
            Finding(
                "warning",
                "InstallPlansPilingUp",
                NAMESPACE,
                "",
                namespace,
                f"{len(plans)} InstallPlans in namespace {namespace}: OLM's catalog operator "
                f"keeps at most {OLM_KEPT_PLANS} per namespace and deletes the oldest when it "
                "syncs the namespace, so it has not cleaned this one up. Check that the "
                "catalog operator is running; delete the old Complete and Failed plans no "
                "Subscription references.",
                "R-DOC-15",
            )
        )
    return found


def namespace_leftover_findings(
    namespace: str,
    csvs: Mapping[str, Obj],
    subs: Iterable[Obj],
    plans: Mapping[str, Obj],
    *,
    subs_known: bool = True,
    plans_known: bool = True,
) -> list[Finding]:
    """Every leftover finding of one namespace. ``subs_known`` / ``plans_known``: the input
    holds Subscriptions / InstallPlans at all (a snapshot may leave a kind out); a CSV is
    judged unreferenced only when Subscriptions were read (R-DOC-14)."""
    subs = list(subs)
    unreferenced = unreferenced_csv_findings(namespace, csvs, subs) if subs_known else []
    return (
        unreferenced
        + installed_csv_gone_findings(namespace, csvs, subs, plans, plans_known)
        + piling_plan_findings(namespace, plans)
    )
