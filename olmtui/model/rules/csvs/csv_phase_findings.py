"""One finding per installed CSV that is not Succeeded: what its phase means, what it
waits for, and for how long.

A CSV's phase says where OLM's phase machine holds it (R-CSV-N .. R-CSV-D); any phase but
``Succeeded`` is a finding here, its severity set by the phase and by how long the CSV has
been in it (``status.lastTransitionTime``):

* ``Failed`` (R-CSV-F): error.
* ``Pending``/``RequirementsNotMet`` (R-CSV-P): error after 10 minutes, or when an InstallPlan
  that installs this CSV failed (nothing else creates the missing objects; the finding names
  the plan, its error and the remedy for the Subscription's state); info before. The message
  decodes ``status.requirementStatus``.
* ``Pending`` (other reasons), ``InstallReady`` (R-CSV-IR), ``Installing`` (R-CSV-I, naming the
  Deployment it waits for), no phase (R-CSV-N): info under 10 minutes ("Installing for two
  minutes is news, for thirty it is a problem"), warning to 30, error after; a warning when the
  age is unknown; no status at all (no phase, no time): info, as nothing shows it has waited.
* ``Pending``/``OperatorConditionNotUpgradeable`` (R-CSV-P 1): told by ``operator_conditions``.
* ``Replacing`` (R-CSV-R), ``Deleting`` (R-CSV-D): info, warning after 30 minutes.

Copied CSVs never count (they mirror their parent, R-COPY-1): callers pass the non-copied
CSVs. CSVs whose reason another finding already explains (the group and API rules of the
engine: R-MEM-*, R-API-5, R-CSV-O, R-MEM-0) are left to that finding.

The age is measured against ``now`` when the caller knows it (a live cluster; a
must-gather's gather time, its ``timestamp`` file). Without it (a snapshot that does not
say when it was taken), against the newest time the namespace's own
objects record: the age is then a lower bound and the message says so. Only objects of the
namespace are read, so the findings can be kept per namespace.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.kinds import CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.records.types import Finding, ObjectRef, Severity
from olmtui.model.rules.csvs.deployments import deployments_text
from olmtui.model.rules.csvs.operator_conditions import held_findings, held_upgrades
from olmtui.model.rules.csvs.replacements import ReplacementIndex
from olmtui.model.rules.csvs.subscription_config import config_cause
from olmtui.model.rules.installplans.summaries import (
    olm_defect,
    plan_error,
    rbac_created_elsewhere,
)
from olmtui.model.rules.subscriptions.state import install_plan_name
from olmtui.objects import Obj, meta, parse_time, spec, status

#: Reasons another finding already explains: the group rules (R-MEM-1..6, R-API-5, static
#: groups), CRD owner conflicts (R-CSV-O) and the reason OLM skips (R-MEM-0).
EXPLAINED_REASONS = frozenset(
    {
        "NoOperatorGroup",
        "TooManyOperatorGroups",
        "NoTargetNamespaces",
        "UnsupportedOperatorGroup",
        "InvalidInstallModes",
        "InterOperatorGroupOwnerConflict",
        "CannotModifyStaticOperatorGroupProvidedAPIs",
        "OwnerConflict",
        "InstallComponentFailedNoRetry",
        "Copied",
    }
)

#: requirementStatus entries (and their dependents) that are fine.
_MET = frozenset({"Present", "Satisfied"})
_MINUTE = 60
_REQUIREMENTS_LIMIT = 10 * _MINUTE
_YOUNG_LIMIT = 10 * _MINUTE
_STUCK_LIMIT = 30 * _MINUTE
_TIME_KEYS = ("lastUpdateTime", "lastTransitionTime", "lastUpdated")


def newest_time(objs: Iterable[Obj]) -> dt.datetime | None:
    """The newest timestamp in the objects' status (its own times and its conditions')."""
    newest: dt.datetime | None = None
    for obj in objs:
        obj_status = status(obj)
        entries = [obj_status, *(c for c in obj_status.get("conditions") or () if c)]
        for entry in entries:
            for key in _TIME_KEYS:
                when = parse_time(entry.get(key))
                if when is not None and (newest is None or when > newest):
                    newest = when
    return newest


def age_text(seconds: float) -> str:
    """``3h 12m``, ``4m 10s``, ``2d 5h``: the two largest units."""
    total = int(max(seconds, 0))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    if minutes:
        return f"{minutes}m {secs}s"
    return f"{secs}s"


class _Age:
    """How long a CSV has been in its phase, as far as the input can tell."""

    def __init__(self, since: dt.datetime | None, reference: dt.datetime | None, live: bool):
        self.since = since
        self.seconds = (reference - since).total_seconds() if since and reference else None
        self.reference = reference
        self.live = live

    def over(self, limit: int) -> bool:
        return self.seconds is not None and self.seconds >= limit

    def text(self) -> str:
        if self.since is None:
            return " (status.lastTransitionTime is not set, so for how long is unknown)"
        stamp = self.since.strftime("%Y-%m-%dT%H:%M:%SZ")
        if self.seconds is None or self.reference is None:
            return f" since {stamp}"
        if self.seconds < 1:
            if self.live:
                return f" since {stamp} (just now)"
            return (
                f" since {stamp}, the newest time this namespace's objects record (the "
                "snapshot was taken then or later, so for how long is unknown)"
            )
        if self.live:
            return f" for {age_text(self.seconds)} (since {stamp})"
        newest = self.reference.strftime("%Y-%m-%dT%H:%M:%SZ")
        return (
            f" for at least {age_text(self.seconds)} (since {stamp}; the newest time this "
            f"namespace's objects record is {newest}; the snapshot was taken then or later)"
        )


def _requirement_text(entry: Mapping[str, Any]) -> str:
    text = f"{entry.get('kind') or '?'} {entry.get('name') or '?'}: {entry.get('status') or '?'}"
    if entry.get("message"):
        text += f" ({entry['message']})"
    unmet = [d for d in entry.get("dependents") or () if d.get("status") not in _MET]
    if unmet:
        shown = "; ".join(
            f"{d.get('kind') or '?'} {d.get('status') or '?'}: {d.get('message') or ''}".rstrip()
            for d in unmet[:5]
        )
        more = f"; and {len(unmet) - 5} more" if len(unmet) > 5 else ""
        text += f" [{len(unmet)} unmet: {shown}{more}]"
    return text


def unmet_requirements(csv: Obj) -> list[str]:
    """The ``status.requirementStatus`` entries not Present/Satisfied (or with unmet
    dependents, e.g. a ServiceAccount's missing permissions), described."""
    return [
        _requirement_text(entry)
        for entry in status(csv).get("requirementStatus") or ()
        if entry.get("status") not in _MET
        or any(d.get("status") not in _MET for d in entry.get("dependents") or ())
    ]


def _plans_of(name: str, plans: Iterable[Obj], phase: str) -> list[Obj]:
    """The InstallPlans in ``phase`` that install the CSV ``name``, by name."""
    return sorted(
        (
            p
            for p in plans
            if status(p).get("phase") == phase
            and name in (spec(p).get("clusterServiceVersionNames") or ())
        ),
        key=lambda p: meta(p).get("name") or "",
    )


def _failed_plans(name: str, plans: Iterable[Obj]) -> list[Obj]:
    """The Failed InstallPlans for this CSV that no later plan for it completed after: a
    plan that failed and was followed by one that installed the CSV is history, not the
    cause of what the CSV waits for now (R-IP-3)."""
    plans = list(plans)
    completed = [
        t
        for t in (
            parse_time(meta(p).get("creationTimestamp")) for p in _plans_of(name, plans, "Complete")
        )
        if t is not None
    ]
    newest = max(completed, default=None)
    return [
        p
        for p in _plans_of(name, plans, "Failed")
        if newest is None
        or (created := parse_time(meta(p).get("creationTimestamp"))) is None
        or created > newest
    ]


def _base(phase: str, reason: str, message: str, age: _Age) -> str:
    state = f"{phase or '(no phase)'}/{reason}" if reason else phase or "(no phase)"
    said = f": {message.rstrip('.')}" if message else ""
    return f"This CSV has been {state}{age.text()}{said}."


def _complete_plans(name: str, plans: Iterable[Obj]) -> list[str]:
    return [meta(p).get("name") or "" for p in _plans_of(name, plans, "Complete")]


def _subscription_of(name: str, plan: str, subs: Iterable[Obj]) -> Obj | None:
    """The Subscription at this CSV (R-SUB-1) or referencing the plan (R-SUB-3)."""
    for sub in subs:
        sub_status = status(sub)
        found = install_plan_name(sub)
        if name in (sub_status.get("installedCSV"), sub_status.get("currentCSV")) or (
            found and found[1] == plan
        ):
            return sub
    return None


def _chain(name: str, failed: list[Obj], subs: list[Obj], plans: list[Obj]) -> str:
    """The failed InstallPlan that left this CSV Pending, its error and whose fault it is
    (R-IP-3: OLM does not retry it); the remedy's steps say what works in the state."""
    plan = failed[0]
    plan_name = meta(plan).get("name") or ""
    error = plan_error(plan)
    sub = _subscription_of(name, plan_name, subs)
    sub_name = meta(sub).get("name") if sub is not None else None
    text = (
        f" InstallPlan {plan_name}"
        + (f" of Subscription {sub_name}" if sub_name else "")
        + " that installs it Failed"
        + (f" ({error.rstrip('.')})" if error else "")
        + ", so nothing creates what is missing, and OLM does not retry a Failed InstallPlan "
        "(R-IP-3)."
    )
    defect = olm_defect(error, rbac_created_elsewhere(plans, plan_name))
    return text + (" " + defect if defect else "")


def min_kube_version_unmet(csv: Obj) -> str | None:
    """The CSV's ``spec.minKubeVersion`` when OLM found the cluster older than it (R-CSV-P:
    its requirement entry for the CSV itself is not met), else ``None``."""
    wanted = spec(csv).get("minKubeVersion")
    for entry in status(csv).get("requirementStatus") or ():
        said = str(entry.get("message") or "")
        if entry.get("status") not in _MET and (
            "minKubeVersion" in said or (wanted and entry.get("kind") == CSV)
        ):
            return str(wanted or said)
    return None


def _pending(
    namespace: str, name: str, csv: Obj, age: _Age, plans: Iterable[Obj], subs: list[Obj]
) -> tuple[Severity, str, str, tuple[ObjectRef, ...]]:
    _, reason, message = _phase(csv)
    text = _base("Pending", reason, message, age)
    if reason != "RequirementsNotMet":
        text += " OLM checks its requirements before installing it."
        return _waiting(age), text, "R-CSV-P", ()
    unmet = unmet_requirements(csv)
    plans = list(plans)
    failed = _failed_plans(name, plans)
    complete = _complete_plans(name, plans)
    text += (
        f" Unmet requirements: {'; '.join(unmet)}."
        if unmet
        else " status.requirementStatus lists no unmet entry."
    )
    too_old = min_kube_version_unmet(csv)
    if failed:
        text += _chain(name, failed, subs, plans)
    elif too_old is not None:
        # R-CSV-P: no object in the cluster meets a minKubeVersion; only the cluster can.
        text += (
            f" The cluster's Kubernetes version is older than the CSV's spec.minKubeVersion "
            f"({too_old}): nothing in the namespace can meet it. Only a newer cluster, or "
            "backing out to a version of the operator that supports this one, fixes it."
        )
    elif not unmet:
        # nothing is missing as far as the status shows: OLM's next sync of the CSV checks
        # its requirements again (R-CSV-P); there is nothing to create
        text += " OLM checks them again at its next sync of the CSV."
    elif complete:
        text += (
            f" InstallPlan {', '.join(complete)} that installed it is "
            "Complete, so no InstallPlan will create what is missing again: it was there at "
            "the install and has been deleted since."
        )
    else:
        text += " OLM installs it once every requirement is met (its InstallPlan creates them)."
    severity: Severity = "error" if failed or age.over(_REQUIREMENTS_LIMIT) else _young(age)
    refs = tuple(ObjectRef(INSTALL_PLAN, namespace, meta(p).get("name") or "") for p in failed)
    return severity, text, "R-CSV-P", refs


def _young(age: _Age) -> Severity:
    """A CSV seen waiting for a short while is news (info); for an unknown time, a warning."""
    return "warning" if age.seconds is None else "info"


def _waiting(age: _Age) -> Severity:
    """R-CSV-N/P/IR/I: info under 10 minutes, warning up to 30, error after (docs/rules.md)."""
    if age.over(_STUCK_LIMIT):
        return "error"
    return "warning" if age.over(_YOUNG_LIMIT) else _young(age)


def _replacing(
    namespace: str, name: str, csv: Obj, age: _Age, replacements: ReplacementIndex
) -> tuple[Severity, str, str, tuple[ObjectRef, ...]]:
    phase, reason, message = _phase(csv)
    successor = replacements.replaced_by(name)
    severity: Severity = "warning" if age.over(_STUCK_LIMIT) else "info"
    text = _base(phase, reason, message, age)
    if phase == "Deleting":
        return severity, text + " OLM deletes it (R-CSV-D).", "R-CSV-D", ()
    if successor:
        text += (
            f" {successor} replaces it (spec.replaces); OLM deletes this CSV once {successor} "
            "is Succeeded."
        )
        return severity, text, "R-CSV-R", (ObjectRef(CSV, namespace, successor),)
    text += " No CSV in the namespace names it in spec.replaces."
    return severity, text, "R-CSV-R", ()


def _phase(csv: Obj) -> tuple[str, str, str]:
    csv_status = status(csv)
    return (
        csv_status.get("phase") or "",
        csv_status.get("reason") or "",
        csv_status.get("message") or "",
    )


_WAITING_RULES = {"": "R-CSV-N", "InstallReady": "R-CSV-IR", "Installing": "R-CSV-I"}


class _Namespace:
    """What the findings of one namespace read besides the CSV itself."""

    def __init__(
        self,
        namespace: str,
        csvs: Mapping[str, Obj],
        plans: list[Obj],
        subs: list[Obj],
        deployments: Mapping[str, Obj],
        conditions: Mapping[str, Obj],
    ) -> None:
        self.namespace = namespace
        self.plans = plans
        self.subs = subs
        self.deployments = deployments
        self.replacements = ReplacementIndex({n: spec(c).get("replaces") for n, c in csvs.items()})
        #: The held upgrades (R-CSV-P 1) and the CSVs they hold.
        self.upgrades_held = held_upgrades(csvs, conditions)
        self.held = {h.new for h in self.upgrades_held}


def _one(ns: _Namespace, name: str, csv: Obj, age: _Age) -> Finding | None:
    phase, reason, message = _phase(csv)
    if phase == "Succeeded" or reason in EXPLAINED_REASONS or name in ns.held:
        return None  # R-CSV-P 1 (held) is told by operator_conditions
    namespace = ns.namespace
    related: tuple[ObjectRef, ...] = ()
    if phase == "Failed":
        severity: Severity = "error"
        rule = "R-CSV-F"
        remedy = (
            " OLM retries it; it stays Failed until the cause is fixed (or a newer CSV "
            "replaces it with fail-forward upgrades)."
        )
        if (cause := config_cause(csv, ns.subs)) is not None:
            # R-CSV-IR: the Subscription's spec.config put the rejected value there
            rule = "R-CSV-IR"
            related = (ObjectRef(SUBSCRIPTION, namespace, cause.subscription),)
            remedy = (
                f" The rejected value comes from Subscription {cause.subscription}'s "
                f"spec.config.{cause.field}, which OLM writes into the CSV's Deployments "
                f"({cause.error}). Fix or remove spec.config.{cause.field} on Subscription "
                f"{namespace}/{cause.subscription}; OLM retries the install with the new value."
            )
        text = _base(phase, reason, message, age) + deployments_text(csv, ns.deployments) + remedy
    elif phase == "Pending":
        severity, text, rule, related = _pending(namespace, name, csv, age, ns.plans, ns.subs)
    elif phase in ("Replacing", "Deleting"):
        if phase == "Replacing" and ns.replacements.replaced_by(name) in ns.held:
            return None  # the upgrade is held (R-CSV-P 1): nothing replaces it yet
        severity, text, rule, related = _replacing(namespace, name, csv, age, ns.replacements)
    elif not phase and age.since is None:
        # R-CSV-N: OLM has not written a status yet; nothing shows it has waited long.
        severity, rule = "info", "R-CSV-N"
        text = (
            "OLM has not written a status for this CSV yet (no status.phase): it was created "
            "moments ago, or OLM is not processing its namespace."
        )
    else:
        severity = _waiting(age)
        text = _base(phase, reason, message, age)
        rule = _WAITING_RULES.get(phase, "R-CSV-I")
        if phase == "Installing":
            text += deployments_text(csv, ns.deployments) + (
                " OLM waits for its Deployments to become available, and fails it "
                "(InstallCheckFailed) after five minutes of failed checks."
            )
    return Finding(severity, f"CSV{phase or 'NoPhase'}", CSV, namespace, name, text, rule, related)


def csv_phase_findings(
    namespace: str,
    csvs: Mapping[str, Obj],
    plans: Iterable[Obj] = (),
    subs: Iterable[Obj] = (),
    *,
    deployments: Mapping[str, Obj] | None = None,
    conditions: Mapping[str, Obj] | None = None,
    now: dt.datetime | None = None,
) -> list[Finding]:
    """One finding per CSV of ``csvs`` (the namespace's non-copied CSVs by name) whose phase
    is not Succeeded and whose reason no other finding explains, plus the upgrades held by an
    OperatorCondition (R-CSV-P 1). ``plans``, ``subs``, ``deployments`` and ``conditions``
    (OperatorConditions, by name) are the namespace's (a failed InstallPlan, the Deployment a
    CSV waits for, their times)."""
    deployments = deployments or {}
    space = _Namespace(namespace, csvs, list(plans), list(subs), deployments, conditions or {})
    reference = now or newest_time([*csvs.values(), *space.plans, *space.subs])
    found = []
    for name in sorted(csvs):
        csv = csvs[name]
        age = _Age(parse_time(status(csv).get("lastTransitionTime")), reference, now is not None)
        finding = _one(space, name, csv, age)
        if finding is not None:
            found.append(finding)
    found += held_findings(namespace, space.upgrades_held, space.subs)
    return found
