"""One finding per installed CSV that is not Succeeded (issue 11): what its phase means, what it
waits for, and for how long.

A CSV's phase says where OLM's phase machine holds it (R-CSV-N .. R-CSV-D); any phase but
``Succeeded`` is a finding here, its severity set by the phase and by how long the CSV has
been in it (``status.lastTransitionTime``):

* ``Failed`` (R-CSV-F): error.
* ``Pending``/``RequirementsNotMet`` (R-CSV-P): error after 10 minutes, or when an InstallPlan
  that installs this CSV failed (nothing else creates the missing objects); else a warning.
  The message decodes ``status.requirementStatus``.
* ``Pending`` (other reasons), ``InstallReady`` (R-CSV-IR), ``Installing`` (R-CSV-I), no phase
  (R-CSV-N): warning, error after 30 minutes; no status at all (no phase, no time): info, as
  nothing shows the CSV has waited.
* ``Replacing`` (R-CSV-R), ``Deleting`` (R-CSV-D): info, warning after 30 minutes.

Copied CSVs never count (they mirror their parent, R-COPY-1): callers pass the non-copied
CSVs. CSVs whose reason another finding already explains (the group and API rules of the
engine: R-MEM-*, R-API-5, R-CSV-O, R-MEM-0) are left to that finding.

The age is measured against ``now`` when the caller knows it (a live cluster). Without it
(a snapshot does not say when it was taken), against the newest time the namespace's own
objects record: the age is then a lower bound and the message says so. Only objects of the
namespace are read, so the findings can be kept per namespace.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.model.replacements import replaced_by
from olmtui.model.types import Finding, ObjectRef, Severity
from olmtui.objects import Obj, meta, spec, status

CSV = "ClusterServiceVersion"

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
_STUCK_LIMIT = 30 * _MINUTE
_TIME_KEYS = ("lastUpdateTime", "lastTransitionTime", "lastUpdated")


def parse_time(value: Any) -> dt.datetime | None:
    """An RFC 3339 timestamp as the API writes it (YAML loaders may give a datetime)."""
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


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


def _failed_plans(name: str, plans: Iterable[Obj]) -> list[str]:
    return sorted(
        meta(p).get("name") or ""
        for p in plans
        if status(p).get("phase") == "Failed"
        and name in (spec(p).get("clusterServiceVersionNames") or ())
    )


def _base(phase: str, reason: str, message: str, age: _Age) -> str:
    state = f"{phase or '(no phase)'}/{reason}" if reason else phase or "(no phase)"
    said = f": {message}" if message else ""
    return f"This CSV has been {state}{age.text()}{said}."


def _pending(
    namespace: str, name: str, csv: Obj, age: _Age, plans: Iterable[Obj]
) -> tuple[Severity, str, str, tuple[ObjectRef, ...]]:
    _, reason, message = _phase(csv)
    text = _base("Pending", reason, message, age)
    if reason != "RequirementsNotMet":
        severity: Severity = "error" if age.over(_STUCK_LIMIT) else "warning"
        return severity, text + " OLM checks its requirements before installing it.", "R-CSV-P", ()
    unmet = unmet_requirements(csv)
    failed = _failed_plans(name, plans)
    text += (
        f" Unmet requirements: {'; '.join(unmet)}."
        if unmet
        else " status.requirementStatus lists no unmet entry."
    )
    if failed:
        text += (
            f" InstallPlan {', '.join(failed)} that installs it Failed and OLM does not retry a "
            "Failed InstallPlan, so nothing will create what is missing. Deleting only the "
            "InstallPlan does not help while this CSV exists (OLM then only reports "
            "InstallPlanMissing, R-SUB-6): delete the Subscription and this CSV and create the "
            "Subscription again (the operator's custom resources stay)."
        )
    else:
        text += " OLM installs it once every requirement is met (its InstallPlan creates them)."
    severity = "error" if failed or age.over(_REQUIREMENTS_LIMIT) else "warning"
    refs = tuple(ObjectRef("InstallPlan", namespace, p) for p in failed)
    return severity, text, "R-CSV-P", refs


def _replacing(
    namespace: str, name: str, csv: Obj, age: _Age, replaces: Mapping[str, str | None]
) -> tuple[Severity, str, str, tuple[ObjectRef, ...]]:
    phase, reason, message = _phase(csv)
    successor = replaced_by(name, replaces)
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


def _one(
    namespace: str,
    name: str,
    csv: Obj,
    age: _Age,
    plans: Iterable[Obj],
    replaces: Mapping[str, str | None],
) -> Finding | None:
    phase, reason, message = _phase(csv)
    if phase == "Succeeded" or reason in EXPLAINED_REASONS:
        return None
    related: tuple[ObjectRef, ...] = ()
    if phase == "Failed":
        severity: Severity = "error"
        text = _base(phase, reason, message, age) + (
            " OLM retries it; it stays Failed until the cause is fixed (or a newer CSV "
            "replaces it with fail-forward upgrades)."
        )
        rule = "R-CSV-F"
    elif phase == "Pending":
        severity, text, rule, related = _pending(namespace, name, csv, age, plans)
    elif phase in ("Replacing", "Deleting"):
        severity, text, rule, related = _replacing(namespace, name, csv, age, replaces)
    elif not phase and age.since is None:
        # R-CSV-N: OLM has not written a status yet; nothing shows it has waited long.
        severity, rule = "info", "R-CSV-N"
        text = (
            "OLM has not written a status for this CSV yet (no status.phase): it was created "
            "moments ago, or OLM is not processing its namespace."
        )
    else:
        severity = "error" if age.over(_STUCK_LIMIT) else "warning"
        text = _base(phase, reason, message, age)
        rule = _WAITING_RULES.get(phase, "R-CSV-I")
        if phase == "Installing":
            text += (
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
    now: dt.datetime | None = None,
) -> list[Finding]:
    """One finding per CSV of ``csvs`` (the namespace's non-copied CSVs by name) whose phase
    is not Succeeded and whose reason no other finding explains. ``plans`` and ``subs`` are
    the namespace's InstallPlans and Subscriptions (a failed InstallPlan; their times)."""
    plans = list(plans)
    reference = now or newest_time([*csvs.values(), *plans, *subs])
    replaces = {n: spec(c).get("replaces") for n, c in csvs.items()}
    found = []
    for name in sorted(csvs):
        csv = csvs[name]
        age = _Age(parse_time(status(csv).get("lastTransitionTime")), reference, now is not None)
        finding = _one(namespace, name, csv, age, plans, replaces)
        if finding is not None:
            found.append(finding)
    return found
