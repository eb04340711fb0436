"""The report's diagnosis fields (format 1, "Diagnosis"): each finding's ``cause``,
``incident`` and ``evidence``, the ``incidents[]`` list and ``summary.incidents``.

Built from a :class:`~olmtui.model.diagnosis.incidents.Diagnosis` as the report is written:
a lone root's incident entry is made only when written, and a long list of objects (a
finding may name 400,000 Namespaces) is built as it is written too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.records.diagnosis import FindingKey, Incident, finding_key
from olmtui.model.records.types import EventEvidence, Evidence, Finding, LogEvidence, ObjectRef
from olmtui.report.entries import Entries

#: Beyond this many objects, a list is built as it is written.
LONG = 64
#: What a finding rests on beyond its objects: its rule's record, or more
#: (``finding_evidence``: its object's state fields, Events and log lines, R-EVD-10).
Gather = Callable[[Finding], tuple[Evidence, ...]]


def recorded_evidence(finding: Finding) -> tuple[Evidence, ...]:
    """What the finding's rule recorded, and nothing more."""
    return finding.evidence


def _none(text: str) -> str | None:
    return text or None


def finding_ref_json(key: FindingKey) -> dict[str, Any]:
    """A finding reference: ``{"code", "kind", "namespace", "name"}``."""
    code, kind, namespace, name = key
    return {"code": code, "kind": _none(kind), "namespace": _none(namespace), "name": _none(name)}


def object_json(ref: ObjectRef) -> dict[str, Any]:
    return {"kind": ref.kind, "namespace": _none(ref.namespace), "name": ref.name}


def _evidence_entry(ref: ObjectRef) -> dict[str, Any]:
    return {**object_json(ref), "field": None, "value": None}


def _recorded_entry(evidence: Evidence) -> dict[str, Any]:
    """A field the rule read (R-EVD-2), an Event as ``{"event": {...}}`` (R-EVD-1), or a log
    line as ``{"log": {"pod", "container", "time", "line"}}`` (R-EVD-10)."""
    if isinstance(evidence, LogEvidence):
        return {
            "log": {
                "pod": evidence.pod,
                "container": evidence.container,
                "time": _none(evidence.time),
                "line": evidence.line,
            }
        }
    if isinstance(evidence, EventEvidence):
        return {
            "event": {
                "involvedObject": object_json(
                    ObjectRef(evidence.kind, evidence.namespace, evidence.name)
                ),
                "reason": _none(evidence.reason),
                "message": _none(evidence.message),
                "type": _none(evidence.type),
                "count": evidence.count,
                "lastTimestamp": _none(evidence.time),
            }
        }
    return {
        **object_json(ObjectRef(evidence.kind, evidence.namespace, evidence.name)),
        "field": evidence.field,
        "value": evidence.value,
    }


def evidence_json(
    finding: Finding, streamed: bool, gather: Gather = recorded_evidence
) -> Iterable[dict[str, Any]]:
    """What the finding rests on that the model knows: its object and its related objects
    (``field``/``value`` null: which field of them is not recorded), then the fields,
    Events and log lines ``gather`` finds (by default what its rule recorded)."""
    refs: tuple[ObjectRef, ...] = finding.related
    if finding.name:
        refs = (ObjectRef(finding.kind, finding.namespace, finding.name), *refs)
    if streamed and len(refs) > LONG:
        return Entries(refs, _evidence_entry)  # long lists (Namespaces) record nothing more
    return [*(_evidence_entry(r) for r in refs), *map(_recorded_entry, gather(finding))]


def diagnosis_fields(
    diagnosis: Diagnosis, index: int, streamed: bool, gather: Gather = recorded_evidence
) -> dict[str, Any]:
    """``cause``, ``incident`` and ``evidence`` of finding ``index``."""
    cause = diagnosis.cause(index)
    return {
        "cause": None if cause is None else finding_ref_json(cause),
        "incident": diagnosis.incident_of(index),
        "evidence": evidence_json(diagnosis.findings[index], streamed, gather),
    }


def incident_json(diagnosis: Diagnosis, root: int, streamed: bool = False) -> dict[str, Any]:
    """One ``incidents[]`` entry."""
    findings = diagnosis.findings
    affected = diagnosis.affected(root)  # not copied into a record: it may be 400,000 long
    return {
        "id": diagnosis.incident_of(root),
        "severity": diagnosis.severity(root),
        "root": finding_ref_json(finding_key(findings[root])),
        "consequences": [
            finding_ref_json(finding_key(findings[i])) for i in diagnosis.consequences(root)
        ],
        "affected": Entries(affected, object_json)
        if streamed and len(affected) > LONG
        else [object_json(r) for r in affected],
        "summary": diagnosis.summary(root),
    }


def incident_record_json(incident: Incident) -> dict[str, Any]:
    """An :class:`Incident` record as an ``incidents[]`` entry (:func:`incident_json`'s
    shape): ``whatif``'s incidents before and after a trial."""
    return {
        "id": incident.id,
        "severity": incident.severity,
        "root": finding_ref_json(incident.root),
        "consequences": [finding_ref_json(k) for k in incident.consequences],
        "affected": [object_json(r) for r in incident.affected],
        "summary": incident.summary,
    }
