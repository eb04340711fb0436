"""``findings[].remedy`` of the ``check`` report: a remedy's steps as JSON (format 1,
"Diagnosis"). ``null`` when there is nothing to do."""

from __future__ import annotations

from typing import Any

from olmtui.model.records.diagnosis import Remedy, Step
from olmtui.report.diagnosis_json import object_json


def step_json(step: Step) -> dict[str, Any]:
    return {
        "action": step.action,
        "object": None if step.object is None else object_json(step.object),
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
