"""``findings[].remedy`` of the ``check`` report: a remedy's steps as JSON (format 1,
"Diagnosis"). ``null`` when there is nothing to do."""

from __future__ import annotations

from typing import Any

from olmtui.model.records.diagnosis import Remedy, Step
from olmtui.model.records.types import ObjectRef


def _object_json(ref: ObjectRef | None) -> dict[str, Any] | None:
    if ref is None:
        return None
    return {"kind": ref.kind, "namespace": ref.namespace or None, "name": ref.name}


def step_json(step: Step) -> dict[str, Any]:
    return {
        "action": step.action,
        "object": _object_json(step.object),
        "change": step.change,
        "command": step.command,
        "text": step.text,
    }


def remedy_json(remedy: Remedy | None) -> dict[str, Any] | None:
    if remedy is None:
        return None
    return {
        "steps": [step_json(s) for s in remedy.steps],
        "verified": remedy.verified,
        "outcome": remedy.outcome,
        "missing": remedy.missing,
    }
