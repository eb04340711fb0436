"""Plans for the chapter "From the OLM documentation" (R-DOC-*): leftovers of uninstalls
and failed installs (R-DOC-14, R-DOC-15), CRD upgrades (R-DOC-5), dependencies (R-DOC-4),
several instances of one operator (R-DOC-1, R-DOC-2), operators that hold cluster upgrades
(R-DOC-16) and conversion webhooks (R-DOC-17)."""

from __future__ import annotations

import re

from olmtui.kinds import CRD, CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.installplans import cause_steps, stored_version_steps
from olmtui.model.diagnosis.remedies.planner import Plans, advise
from olmtui.model.diagnosis.remedies.reinstall import reinstall
from olmtui.model.diagnosis.remedies.steps import delete, other, plan, wait
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.documented.leftovers import csv_package
from olmtui.model.rules.installplans.summaries import plan_error
from olmtui.objects import meta, spec


def orphan_remedy(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-DOC-14: a CSV no Subscription references goes; a Subscription that asks for its
    package then installs what it asks for. Creating a Subscription never adopts it."""
    csv = context.get(CSV, finding.namespace, finding.name)
    if csv is None:
        return None
    package = csv_package(csv)
    wanting = sorted(
        meta(s).get("name") or ""
        for s in context.list(SUBSCRIPTION, finding.namespace)
        if package and spec(s).get("name") == package
    )
    ref = ObjectRef(CSV, finding.namespace, finding.name)
    removal = delete(
        ref,
        f"Delete CSV {finding.name} (its custom resources and CRDs stay): OLM keeps a CSV no "
        "Subscription references, and a Subscription never adopts it (R-DOC-14).",
    )
    if wanting:
        return plan(
            removal,
            wait(
                f"Subscription {', '.join(wanting)} then resolves and installs what it asks "
                f"for; to stay on {finding.name}, set its spec.startingCSV first (only a "
                "Subscription without an installed CSV reads it).",
                ObjectRef(SUBSCRIPTION, finding.namespace, wanting[0]),
            ),
        )
    return plan(
        removal,
        other(
            f"To keep the operator managed instead, create a Subscription for package "
            f"{package or '(its package)'} with spec.startingCSV: {finding.name} once the CSV "
            "is gone (R-DOC-14).",
        ),
    )


def _csv_gone(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-DOC-14: OLM does not put a deleted CSV back; creating the Subscription again does,
    after any other CSV of its package goes (a new Subscription never adopts one)."""
    if finding.severity == "info":
        return None  # UpgradePending with the plan gone: OLM resolves again by itself
    sub = context.get(SUBSCRIPTION, finding.namespace, finding.name)
    return plan(*reinstall(context, sub)) if sub is not None else None


_FAILED = re.compile(r"Failed InstallPlans of Subscription \S+ \(([^)]*)\)")


def _failing_again(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-DOC-15: fix what the newest failed plan says, then delete the failed plans."""
    found = _FAILED.search(finding.message)
    names = [n.strip() for n in found.group(1).split(",")] if found else []
    plans = [p for n in names if (p := context.get(INSTALL_PLAN, finding.namespace, n)) is not None]
    if not plans:
        return None
    newest = max(plans, key=lambda p: meta(p).get("creationTimestamp") or "")
    newest_name = meta(newest).get("name") or ""
    steps = cause_steps(context, finding.namespace, newest_name, plan_error(newest))
    steps += [
        delete(
            ObjectRef(INSTALL_PLAN, finding.namespace, meta(p).get("name") or ""),
            f"Delete the Failed InstallPlan {meta(p).get('name')}: OLM never retries it (R-IP-3).",
        )
        for p in plans
    ]
    return plan(*steps)


def _stored_version(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-DOC-5: the cause is the CRD's ``status.storedVersions``."""
    crds = [r for r in finding.related if r.kind == CRD]
    gone = re.search(r" (?:drops|neither serves nor stores) (.+?) of CRD ", finding.message)
    if not crds or not gone:
        return None
    steps = []
    for version in gone.group(1).split(", "):
        steps += stored_version_steps(context, crds[0].name, version)
    return plan(*steps)


PLANS: Plans = {
    "UnreferencedCSV": orphan_remedy,
    "InstalledCSVGone": _csv_gone,
    "InstallPlansFailingAgain": _failing_again,
    "InstallPlansPilingUp": advise(
        "other",
        "Check that OLM's catalog operator runs (it keeps at most five plans per namespace), "
        "then delete the old Complete and Failed plans no Subscription references (R-DOC-15).",
    ),
    "CRDStoredVersionRemoved": _stored_version,
    "CRDServedVersionRemoved": advise(
        "contact-author",
        "Upgrade through a bundle that first sets the version to served: false, or ask the "
        "bundle's author for one (R-DOC-5).",
    ),
    "UpgradeDropsRequiredAPI": advise(
        "other",
        "Upgrade or remove the operators that require the API first, or install another "
        "provider of it (R-DOC-4).",
    ),
    "RequiredAPIMissing": advise(
        "other",
        "Install an operator that provides the required API (a Subscription to its package), "
        "or create its CRD (R-DOC-4).",
    ),
    "SharedCRDOwners": advise(
        "other", "Keep one owner of the CRD, or the same version of it everywhere (R-DOC-1)."
    ),
    "MultiInstanceCRDMismatch": advise(
        "other", "Move every instance of the operator to the same version (R-DOC-1)."
    ),
    "MultiInstanceVersionSkew": advise(
        "other", "Move every instance of the operator to the same version (R-DOC-2)."
    ),
    "MultiInstanceWithDependencies": advise(
        "other",
        "Install the dependencies once, cluster-wide, or keep a single global instance of "
        "the operator (R-DOC-2).",
    ),
    "MultiInstanceConversionWebhook": advise(
        "other", "Keep a single, global instance of this operator (R-DOC-2)."
    ),
    "MaxOpenShiftVersion": advise(
        "other",
        "Before the next cluster upgrade, upgrade this operator to a version that supports "
        "the next OpenShift minor, or uninstall it (its custom resources stay) (R-DOC-16).",
    ),
    "MaxOpenShiftVersionInvalid": advise(
        "contact-author",
        "Ask the bundle's author to give olm.maxOpenShiftVersion once, as <major>.<minor> "
        "(R-DOC-16).",
    ),
    "ClusterUpgradeBlocked": advise(
        "other",
        "Upgrade or uninstall the operators the condition names before the cluster upgrade "
        "(R-DOC-16).",
    ),
    "ConversionWebhookServiceMissing": advise(
        "other",
        "Reinstall the operator that owns the CRD (OLM creates its Service again), or, if it "
        "is gone for good, delete its remaining objects and the CRD (R-DOC-17).",
    ),
    "OLMClusterOperatorDegraded": advise(
        "other",
        "Read the ClusterOperator's Degraded message and the log of the OLM pod behind it "
        "(olm-operator, catalog-operator or packageserver), and fix the object it names "
        "(R-DOC-18).",
    ),
    "OLMClusterOperatorNotUpgradeable": advise(
        "other",
        "Resolve what the Upgradeable condition names before the cluster upgrade (R-DOC-18).",
    ),
}
