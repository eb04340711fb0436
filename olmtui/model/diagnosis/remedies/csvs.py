"""Plans for the CSV phases chapter of docs/rules.md (R-CSV-*).

A CSV left ``Pending`` by a Failed InstallPlan gets that plan's remedy (``installplans``).
One ``Pending`` on ``spec.minKubeVersion`` is fixed only by a newer cluster or by backing
out to a version that supports this one; nothing in the namespace can be created for it.
One whose completed plan's objects were deleted since is installed again (R-DOC-14).
Waiting phases need nothing but time.
"""

from __future__ import annotations

from olmtui.kinds import CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.installplans import fail_forward, failed_plan_of_csv
from olmtui.model.diagnosis.remedies.planner import Planner, Plans, advise, subject
from olmtui.model.diagnosis.remedies.reinstall import reinstall
from olmtui.model.diagnosis.remedies.steps import other, patch, plan, upgrade_cluster
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.csvs.csv_phase_findings import min_kube_version_unmet
from olmtui.model.rules.csvs.subscription_config import config_cause
from olmtui.objects import Obj, meta, status


def _subscription_at(context: RemedyContext, namespace: str, name: str) -> Obj | None:
    """The Subscription whose installed or current CSV is ``name`` (R-SUB-1)."""
    for sub in context.list(SUBSCRIPTION, namespace):
        sub_status = status(sub)
        if name in (sub_status.get("installedCSV"), sub_status.get("currentCSV")):
            return sub
    return None


def _pending(finding: Finding, context: RemedyContext) -> Remedy | None:
    if any(r.kind == INSTALL_PLAN for r in finding.related):
        return failed_plan_of_csv(finding, context)
    csv = context.get(CSV, finding.namespace, finding.name)
    if csv is None or status(csv).get("reason") != "RequirementsNotMet":
        return None
    too_old = min_kube_version_unmet(csv)
    sub = _subscription_at(context, finding.namespace, finding.name)
    if too_old is not None:
        # R-CSV-P: only the cluster meets minKubeVersion; never "something was deleted"
        return plan(
            upgrade_cluster(
                f"Upgrade the cluster to a Kubernetes version of at least {too_old} "
                "(the CSV's spec.minKubeVersion); OLM then installs it."
            ),
            other(
                "Or back out: delete the Subscription and this CSV, and subscribe again with "
                "spec.startingCSV set to a version whose minKubeVersion this cluster meets.",
                ObjectRef(SUBSCRIPTION, finding.namespace, meta(sub).get("name") or "")
                if sub is not None
                else subject(finding),
            ),
        )
    if "deleted since" in finding.message and sub is not None:
        # the plan that created the requirements is Complete: none creates them again
        return plan(*reinstall(context, sub))
    return None


def _failed(finding: Finding, context: RemedyContext) -> Remedy | None:
    csv = context.get(CSV, finding.namespace, finding.name)
    cause = (
        config_cause(csv, context.list(SUBSCRIPTION, finding.namespace))
        if csv is not None
        else None
    )
    if cause is not None:
        # R-CSV-IR: the bad value is the Subscription's; the CSV needs nothing of its own
        return plan(
            patch(
                ObjectRef(SUBSCRIPTION, finding.namespace, cause.subscription),
                f"spec.config.{cause.field}",
                None,
                f"Remove (or fix) spec.config.{cause.field} of Subscription "
                f"{cause.subscription}: OLM writes it into the CSV's Deployments, and the API "
                f"server refuses it ({cause.error}); OLM retries the install with the new "
                "value (R-CSV-IR).",
            )
        )
    said = str(status(csv).get("message") or "") if csv is not None else ""
    steps = [
        other(
            "Fix what the CSV's status names"
            + (f" ({said.rstrip('.')})" if said else "")
            + ": OLM retries a Failed CSV through its requirement and health checks (R-CSV-F).",
            subject(finding),
        )
    ]
    if fail_forward(context, finding.namespace):
        steps.append(
            other(
                "With fail-forward, a newer bundle of the channel that replaces this CSV can "
                "also take over from it (R-CSV-F, R-UPG-8).",
                subject(finding),
            )
        )
    return plan(*steps)


#: The planner of a CSV phase finding (code ``CSV<phase>``), by phase.
PHASES: dict[str, Planner | None] = {
    "CSVPending": _pending,
    "CSVFailed": _failed,
    "CSVNoPhase": None,
    "CSVInstallReady": None,
    "CSVInstalling": None,
    "CSVReplacing": None,
    "CSVDeleting": None,
    "CSVSucceeded": None,
}

PLANS: Plans = {
    **PHASES,
    "OwnerConflict": advise(
        "other",
        "Remove one of the operators that own the same CRD from this namespace, or install "
        "them in separate namespaces (R-CSV-O).",
    ),
    "ReplacementCycle": advise(
        "other", "Delete the CSV of the loop that should no longer be installed (R-CSV-R)."
    ),
    "BeingReplaced": None,
    "UpgradeHeld": advise(
        "wait",
        "The operator's OperatorCondition says it is not upgradeable: wait until it says it "
        "is, or, if the operator's author allows it, set spec.overrides on the "
        "OperatorCondition (R-CSV-P).",
    ),
}
