"""Plans for the InstallPlans chapter of docs/rules.md (R-IP-*, R-DOC-6, R-DOC-15), and the
plan for a failed InstallPlan that the Subscription and CSV findings share.

A Failed InstallPlan is never retried (R-IP-3). What gets a new one depends on the state:

* with fail-forward (R-OG-9, R-UPG-8) or while the Subscription is ``UpgradePending`` and
  the plan created no CSV, deleting the plan makes OLM resolve again (R-SUB-6);
* otherwise deleting only the plan gives ``InstallPlanMissing``: the Subscription is created
  again, after every CSV of its package goes (R-DOC-14, ``reinstall``).

Before the retry, the plan names the cause the error shows: a CRD version still in
``status.storedVersions`` (R-DOC-5), or the error itself. It says "an OLM defect" only when
no other plan of the namespace shows the same OLM doing that step right.
"""

from __future__ import annotations

import json
import re
import shlex

from olmtui.kinds import CRD, CSV, INSTALL_PLAN, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.planner import Plans, advise, subject
from olmtui.model.diagnosis.remedies.reinstall import reinstall
from olmtui.model.diagnosis.remedies.steps import (
    approve,
    delete,
    other,
    plan,
    upgrade_cluster,
    wait,
)
from olmtui.model.records.diagnosis import Remedy, Step
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.installplans.summaries import (
    OWNER_REF_DEFECT,
    is_olm_defect,
    plan_error,
    rbac_created_elsewhere,
)
from olmtui.model.rules.operatorgroups.targets import FAIL_FORWARD, upgrade_strategy
from olmtui.model.rules.subscriptions.state import install_plan_name
from olmtui.objects import Obj, spec, status

#: OLM's refusal of a CRD update that drops a stored version (pkg/lib/crd/storage.go).
_STORED = re.compile(
    r'risk of data loss updating "?(?P<crd>[^":\s]+)"?:.*?removes version (?P<version>[^\s,]+) '
    r"that is listed as a stored version"
)


def fail_forward(context: RemedyContext, namespace: str) -> bool:
    """R-OG-9: the namespace's OperatorGroup turns on fail-forward."""
    return any(
        upgrade_strategy(og) == FAIL_FORWARD for og in context.list(OPERATOR_GROUP, namespace)
    )


def stored_version_steps(context: RemedyContext, crd_name: str, version: str) -> list[Step]:
    """R-DOC-5: the cause is the CRD's ``status.storedVersions``, not the retry."""
    crd = context.get(CRD, "", crd_name)
    stored = [str(v) for v in status(crd).get("storedVersions") or ()] if crd else []
    kept = [v for v in stored if v != version]
    command = None
    if crd is not None and kept:
        body = json.dumps({"status": {"storedVersions": kept}}, separators=(",", ":"))
        command = (
            f"oc patch crd {shlex.quote(crd_name)} --subresource=status --type merge "
            f"-p {shlex.quote(body)}"
        )
    return [
        other(
            f"The new CRD drops version {version}, which CRD {crd_name} still lists in "
            "status.storedVersions, and OLM refuses that update as a risk of data loss "
            f"(R-DOC-5). Migrate the objects stored as {version} to the storage version "
            f"(read and write each one back), then remove {version} from the CRD's "
            "status.storedVersions"
            + (f" (leaving {', '.join(kept)})" if kept else "")
            + "; or ask the bundle's author to keep serving it.",
            ObjectRef(CRD, "", crd_name),
            command,
        )
    ]


def cause_steps(context: RemedyContext, namespace: str, plan_name: str, error: str) -> list[Step]:
    """What to fix before the failed plan is tried again, from its error."""
    ip_ref = ObjectRef(INSTALL_PLAN, namespace, plan_name)
    stored = _STORED.search(error)
    if stored:
        return stored_version_steps(context, stored["crd"], stored["version"])
    if OWNER_REF_DEFECT in error:
        elsewhere = rbac_created_elsewhere(context.list(INSTALL_PLAN, namespace), plan_name)
        if is_olm_defect(error, elsewhere):
            return []  # OLM's own: there is nothing of the user's to fix before the retry
        return [
            other(
                f"OLM created the Roles of InstallPlan {', '.join(elsewhere)} in this namespace "
                f"but not those of {plan_name}: compare the two bundles' permissions before "
                "the retry; the state does not show OLM to be at fault.",
                ip_ref,
            )
        ]
    if not error:
        return [
            other(
                f"Find why InstallPlan {plan_name} failed (its Installed condition) and fix it.",
                ip_ref,
                f"oc get installplan {shlex.quote(plan_name)} -n {shlex.quote(namespace)} -o yaml",
            )
        ]
    return [other(f"Fix what the error names first: {error.rstrip('.')}.", ip_ref)]


def _created(context: RemedyContext, namespace: str, ip: Obj | None) -> list[str]:
    """The CSVs the plan was to install that exist (R-SUB-1)."""
    names = spec(ip).get("clusterServiceVersionNames") or () if ip is not None else ()
    return [str(n) for n in names if context.get(CSV, namespace, str(n)) is not None]


def _subscription_of(context: RemedyContext, namespace: str, plan_name: str) -> Obj | None:
    for sub in context.list(SUBSCRIPTION, namespace):
        found = install_plan_name(sub)
        if found and found[1] == plan_name:
            return sub
    return None


def failed_plan_steps(
    context: RemedyContext, namespace: str, plan_name: str, sub: Obj | None
) -> list[Step]:
    """The cause to fix, then the retry that works in the state observed (R-IP-3)."""
    ip = context.get(INSTALL_PLAN, namespace, plan_name)
    error = plan_error(ip) if ip is not None else ""
    steps = cause_steps(context, namespace, plan_name, error)
    created = _created(context, namespace, ip)
    state = status(sub).get("state") or "" if sub is not None else ""
    ip_ref = ObjectRef(INSTALL_PLAN, namespace, plan_name)
    if fail_forward(context, namespace):
        steps.append(
            delete(
                ip_ref,
                f"Delete InstallPlan {plan_name}: with fail-forward (R-OG-9, R-UPG-8) OLM then "
                "goes UpgradePending and resolves again.",
            )
        )
        failed = ", ".join(created)
        steps.append(
            wait(
                "OLM makes a new InstallPlan (R-SUB-6)"
                + (
                    f"; a newer bundle of the channel can replace CSV {failed} (R-RES-21)."
                    if failed
                    else "."
                )
            )
        )
    elif sub is not None and state in ("UpgradePending", "UpgradeFailed") and not created:
        steps.append(
            delete(
                ip_ref,
                f"Delete InstallPlan {plan_name}: the Subscription is {state} and the plan "
                "created no CSV, so OLM clears the reference and resolves again (R-SUB-6).",
            )
        )
        steps.append(wait("OLM makes a new InstallPlan (R-SUB-3)."))
    elif sub is not None:
        steps += reinstall(context, sub, created)
    else:
        steps.append(
            other(
                f"Find the Subscription that made InstallPlan {plan_name}: deleting only the "
                "plan gives InstallPlanMissing unless the Subscription is UpgradePending "
                "(R-SUB-6); create that Subscription again.",
                ip_ref,
            )
        )
    if OWNER_REF_DEFECT in error and is_olm_defect(
        error, rbac_created_elsewhere(context.list(INSTALL_PLAN, namespace), plan_name)
    ):
        steps.append(
            upgrade_cluster(
                "If the same error returns, the fix is an OLM (cluster) update: the error is "
                "OLM's own."
            )
        )
    return steps


def failed_plan_remedy(
    context: RemedyContext, namespace: str, plan_name: str, sub: Obj | None
) -> Remedy:
    return plan(*failed_plan_steps(context, namespace, plan_name, sub))


def _plan_of_subscription(finding: Finding, context: RemedyContext) -> tuple[str, Obj | None]:
    sub = context.get(SUBSCRIPTION, finding.namespace, finding.name)
    found = install_plan_name(sub) if sub is not None else None
    if found:
        return found[1], sub
    named = [r.name for r in finding.related if r.kind == INSTALL_PLAN]
    return (named[0] if named else ""), sub


def install_plan_failed(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-SUB-5 ``InstallPlanFailed`` on a Subscription."""
    plan_name, sub = _plan_of_subscription(finding, context)
    if not plan_name:
        return None
    return failed_plan_remedy(context, finding.namespace, plan_name, sub)


def failed_plan_of_csv(finding: Finding, context: RemedyContext) -> Remedy | None:
    """A CSV a Failed InstallPlan left behind (it names the plan among its related)."""
    plans = [r.name for r in finding.related if r.kind == INSTALL_PLAN]
    if not plans:
        return None
    return failed_plan_remedy(
        context, finding.namespace, plans[0], _subscription_of(context, finding.namespace, plans[0])
    )


def _approval(finding: Finding, _context: RemedyContext) -> Remedy | None:
    """R-IP-2: review the plan, then approve it (it moves every operator it carries, R-DOC-6)."""
    ref = subject(finding)
    if ref is None:
        return None
    return plan(
        other(
            f"Review what InstallPlan {ref.name} installs (spec.clusterServiceVersionNames, "
            "status.plan): approving it approves every operator it carries (R-DOC-6).",
            ref,
            f"oc get installplan {shlex.quote(ref.name)} -n {shlex.quote(ref.namespace)} -o yaml",
        ),
        approve(ref, f"Approve InstallPlan {ref.name} (R-IP-2)."),
    )


PLANS: Plans = {
    "InstallPlanRequiresApproval": _approval,
    "SharedInstallPlan": advise(
        "other",
        "Approve or fix this InstallPlan knowing it moves every Subscription it names "
        "(R-DOC-6); to upgrade them apart, put the operators in separate namespaces.",
    ),
}
