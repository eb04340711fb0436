"""``olmtui whatif``'s answer as text and as JSON (format 1, "Diagnosis" additions): the
changes tried, what OLM would do next, the findings that clear and appear, and the
resolutions before and after."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any, Protocol

from olmtui.model.records.diagnosis import Change, Incident, finding_key
from olmtui.model.records.types import Finding
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.report.diagnosis_json import finding_ref_json, incident_record_json, object_json
from olmtui.report.json_report import FORMAT, finding_json, resolution_json
from olmtui.report.text_report import safe


class Trial(Protocol):
    """One trial's outcome (``pipeline/simulation_outcome.py`` ``Outcome``)."""

    @property
    def changes(self) -> tuple[Change, ...]: ...
    @property
    def before(self) -> tuple[Finding, ...]: ...
    @property
    def after(self) -> tuple[Finding, ...]: ...
    @property
    def before_resolution(self) -> tuple[NamespaceResolution, ...]: ...
    @property
    def after_resolution(self) -> tuple[NamespaceResolution, ...]: ...
    @property
    def next(self) -> tuple[str, ...]: ...
    @property
    def missing(self) -> tuple[str, ...]: ...
    @property
    def cleared(self) -> tuple[Finding, ...]: ...
    @property
    def new(self) -> tuple[Finding, ...]: ...


class WhatIf(Protocol):
    """One trial with its incidents (``pipeline/trial_diagnosis.py`` ``DiagnosedOutcome``):
    ``cleared``/``new`` are the incidents whose root is gone after / was not there before."""

    @property
    def outcome(self) -> Trial: ...
    @property
    def before(self) -> tuple[Incident, ...]: ...
    @property
    def after(self) -> tuple[Incident, ...]: ...
    @property
    def cleared(self) -> tuple[Incident, ...]: ...
    @property
    def new(self) -> tuple[Incident, ...]: ...


def change_json(change: Change) -> dict[str, Any]:
    """One ``actions[]`` entry: what was done to which object."""
    return {
        "action": change.action,
        "object": object_json(change.target),
        "field": change.field,
        "value": change.value,
    }


def verified(outcome: Trial) -> str:
    return "not-simulated" if outcome.missing else "simulated"


def whatif_json(answer: WhatIf) -> dict[str, Any]:
    """The ``whatif`` JSON. ``before``/``after`` hold the incidents (as ``check``'s
    ``incidents[]``), the findings and ``resolution``; ``next`` says what OLM does."""
    outcome = answer.outcome
    return {
        "format": FORMAT,
        "actions": [change_json(c) for c in outcome.changes],
        "before": {
            "incidents": [incident_record_json(i) for i in answer.before],
            "findings": [finding_json(f) for f in outcome.before],
            "resolution": [resolution_json(r) for r in outcome.before_resolution],
        },
        "after": {
            "incidents": [incident_record_json(i) for i in answer.after],
            "findings": [finding_json(f) for f in outcome.after],
            "resolution": [resolution_json(r) for r in outcome.after_resolution],
        },
        "next": list(outcome.next),
        "cleared": [finding_ref_json(finding_key(f)) for f in outcome.cleared],
        "new": [finding_ref_json(finding_key(f)) for f in outcome.new],
        "verified": verified(outcome),
        "missing": "; ".join(outcome.missing) or None,
    }


def _change_text(change: Change) -> str:
    target = change.target
    where = f"{target.namespace}/" if target.namespace else ""
    what = f"{target.kind} {where}{target.name}"
    if change.action == "patch":
        value = change.value or ""
        return (
            f"patch {what}: {change.field}={value}"
            if value
            else f"patch {what}: remove {change.field}"
        )
    return f"{change.action} {what}"


def _finding_line(finding: Finding) -> str:
    where = f"{finding.namespace}/" if finding.namespace else ""
    return (
        f"{finding.severity} {finding.code} {finding.kind} {where}{finding.name}: {finding.message}"
    )


def _resolution_line(resolution: NamespaceResolution) -> str:
    if resolution.status == "resolved":
        return (
            f"resolved, installs {', '.join(resolution.changes)}"
            if resolution.changes
            else "resolved, no change"
        )
    return f"{resolution.status}" + (f" ({resolution.reason})" if resolution.reason else "")


def incident_line(incident: Incident) -> str:
    """One incident for a person: its root, its severity, how many findings follow."""
    code, kind, namespace, name = incident.root
    where = f"{namespace}/{name}" if namespace else name
    count = len(incident.consequences)
    follow = f"({count} consequence{'' if count == 1 else 's'})"
    return " ".join(part for part in (incident.severity, code, kind, where, follow) if part)


def _moved_resolutions(outcome: Trial) -> list[tuple[str, str, str]]:
    before = {r.namespace: _resolution_line(r) for r in outcome.before_resolution}
    after = {r.namespace: _resolution_line(r) for r in outcome.after_resolution}
    return [
        (ns, before.get(ns, "no Subscription"), after.get(ns, "no Subscription"))
        for ns in sorted(set(before) | set(after))
        if before.get(ns) != after.get(ns)
    ]


def write_whatif_text(answer: WhatIf, stream: IO[str]) -> None:
    """The answer for a person: the changes, what OLM does next, the resolutions that
    move, the incidents and the findings that clear and appear, and whether the simulation
    covered it all. Every text from the input is made inert (``safe``)."""
    outcome = answer.outcome
    lines = ["What if:"]
    lines += [f"  {safe(_change_text(c))}" for c in outcome.changes]
    lines.append("OLM next:")
    lines += [f"  - {safe(line)}" for line in outcome.next] or ["  - nothing olmtui models"]
    moved = _moved_resolutions(outcome)
    if moved:
        lines.append("Resolution:")
        lines += [f"  {safe(ns)}: {safe(old)} -> {safe(new)}" for ns, old, new in moved]
    lines.append(f"Incidents that clear ({len(answer.cleared)}):")
    lines += [f"  - {safe(incident_line(i))}" for i in answer.cleared] or ["  none"]
    lines.append(f"Incidents that appear ({len(answer.new)}):")
    lines += [f"  + {safe(incident_line(i))}" for i in answer.new] or ["  none"]
    lines.append(f"Findings that clear ({len(outcome.cleared)}):")
    lines += [f"  - {safe(_finding_line(f))}" for f in outcome.cleared] or ["  none"]
    lines.append(f"Findings that appear ({len(outcome.new)}):")
    lines += [f"  + {safe(_finding_line(f))}" for f in outcome.new] or ["  none"]
    if outcome.missing:
        lines.append("Not simulated: " + safe("; ".join(outcome.missing)))
    else:
        lines.append("Simulated: every reaction above is modelled by olmtui.")
    stream.write("\n".join(lines) + "\n")


def has_new_errors(findings: Sequence[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)
