"""InstallPlans as the ``:ip`` view lists and explains them: one row per plan with its
health, every step of ``status.plan``, and what approving it would do.

The summary facts come from :mod:`olmtui.model.rules.installplans.summaries`; this module adds
only what a reader of one plan needs beside them: all the steps (the summary keeps the failed ones),
the health a row is coloured by, and the approval in words, with the namespace-wide reason a plan
is Manual (R-SUB-4) that the plan itself never states.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence

from olmtui.frozen import frozen
from olmtui.kinds import INSTALL_PLAN
from olmtui.model.records.types import Finding, Severity
from olmtui.model.rules.csvs.csv_phase_findings import age_text
from olmtui.model.rules.installplans.summaries import (
    InstallPlanSummary,
    StepState,
    pending_approval,
    replaces_by_namespace,
    step_state,
    summarize_install_plan,
)
from olmtui.model.rules.subscriptions.state import approval
from olmtui.model.viewmodels.views import worst
from olmtui.objects import Obj, meta, parse_time, status


@frozen
class InstallPlanRow:
    """What the ``:ip`` list shows of one plan."""

    summary: InstallPlanSummary
    #: ``error`` (Failed), ``warning`` (waiting for approval) or ``None`` (R-IP-2, R-IP-3);
    #: worsened by the findings about the plan.
    severity: Severity | None
    #: ``3d 4h`` against the clock, or the creation time when there is no clock (a snapshot).
    age: str
    steps: tuple[StepState, ...]


def plan_steps(ip: Obj) -> tuple[StepState, ...]:
    """Every step of ``status.plan`` in OLM's order (R-IP-1), whatever its status."""
    return tuple(step_state(step) for step in status(ip).get("plan") or ())


def phase_severity(summary: InstallPlanSummary) -> Severity | None:
    """A Failed plan is not retried (R-IP-3): error. One waiting for approval holds its
    namespace's upgrades (R-IP-2): warning. Anything else: none from the phase alone."""
    if summary.phase == "Failed":
        return "error"
    if summary.waiting_for_approval:
        return "warning"
    return None


def age_of(obj: Obj, now: dt.datetime | None) -> str:
    """Age from ``metadata.creationTimestamp`` in its largest unit (``45s``, ``5m``, ``3h``,
    ``2d``, as ``kubectl get`` shows an old object), so a list that follows the clock needs
    redrawing only every few seconds; without a clock the timestamp itself, as a snapshot's
    age would only be measured against the reader's own clock."""
    stamp = meta(obj).get("creationTimestamp")
    created = parse_time(stamp)
    if created is None:
        return str(stamp) if stamp else "-"
    if now is None:
        return created.strftime("%Y-%m-%d %H:%M")
    return age_text((now - created).total_seconds()).split(" ")[0]


def install_plan_rows(
    ips: Iterable[Obj],
    findings: Mapping[tuple[str, str, str], Sequence[Finding]],
    now: dt.datetime | None = None,
) -> list[InstallPlanRow]:
    """One row per InstallPlan, by namespace and name; ``findings`` by subject key."""
    rows = []
    for ip in ips:
        summary = summarize_install_plan(ip)
        about = findings.get((INSTALL_PLAN, summary.namespace, summary.name), ())
        severity = worst([phase_severity(summary), *(f.severity for f in about)])
        rows.append(InstallPlanRow(summary, severity, age_of(ip, now), plan_steps(ip)))
    rows.sort(key=lambda r: (r.summary.namespace, r.summary.name))
    return rows


def approval_lines(ip: Obj, subs: Sequence[Obj], csvs: Iterable[Obj] = ()) -> list[str]:
    """The approval of one plan in words: Automatic or Manual and why (R-SUB-4: one Manual
    Subscription of the namespace makes every plan there Manual), whether it is approved, and
    for a plan waiting for approval what approving it installs and which Subscriptions it
    moves (R-IP-2). ``subs`` are the Subscriptions of the plan's namespace."""
    summary = summarize_install_plan(ip)
    manual = sorted(meta(s).get("name", "") for s in subs if approval(s) == "Manual")
    out = []
    if summary.approval == "Manual":
        why = (
            f"Manual Subscriptions in {summary.namespace}: {', '.join(manual)}; one Manual "
            "Subscription makes every InstallPlan of its namespace Manual (R-SUB-4)"
            if manual
            else "no Subscription of the namespace is Manual now (it was when OLM made the plan)"
        )
        out.append(f"Manual: {why}")
    else:
        out.append("Automatic: OLM approves it itself (no Subscription of the namespace is Manual)")
    if summary.waiting_for_approval:
        pending = pending_approval(ip, subs, replaces_by_namespace(csvs))
        what = ", ".join(p.name for p in summary.csvs) or "no CSV"
        out.append(f"waiting for approval (R-IP-2): approving it installs {what}")
        if pending is not None and pending.subscriptions:
            out.append(f"approving it moves the Subscriptions {', '.join(pending.subscriptions)}")
    elif summary.approved:
        out.append("approved (spec.approved is true)")
    else:
        out.append("not approved (spec.approved is false)")
    return out
