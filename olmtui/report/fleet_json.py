"""The fleet report (``olmtui check --fleet --output json``, report-format "Fleet"): every
target with its status, reason, summary, incidents and findings, sorted by name, and the
roll-up of what only a fleet view shows (``model/fleet``); schema ``fleet_schema.json``.

A target not read has the same fields: ``summary`` ``null``, ``incidents`` and ``findings``
``[]``, its ``source`` saying what it was and why it is incomplete (R-FLT-1)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from olmtui.model.fleet.rollup import rollup
from olmtui.safe_text import json_inert

#: The statuses of a target whose report was read, whole or in part.
READ = frozenset({"ok", "partial"})
#: Exit status of a fleet run in which some target could not be read (``errors.py``).
UNREAD_EXIT = 4


class TargetOutcome(Protocol):
    """What the report reads of one target's result (``pipeline/fleet.TargetResult``)."""

    @property
    def name(self) -> str: ...
    @property
    def shown(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def report(self) -> dict[str, Any] | None: ...


def target_json(result: TargetOutcome) -> dict[str, Any]:
    """One target of ``targets[]`` (one line of ``--output jsonl``)."""
    report = result.report
    if report is None:
        source: dict[str, Any] = {
            "kind": result.kind,
            "paths": [result.shown],
            "complete": False,
            "incompleteBecause": [result.reason or result.status],
        }
        return {
            "name": result.name,
            "source": source,
            "status": result.status,
            "reason": result.reason,
            "summary": None,
            "incidents": [],
            "findings": [],
        }
    return {
        "name": result.name,
        "source": report.get("source"),
        "status": result.status,
        "reason": result.reason,
        "summary": report.get("summary"),
        "incidents": report.get("incidents") or [],
        "findings": report.get("findings") or [],
    }


def read_reports(results: Sequence[TargetOutcome]) -> dict[str, dict[str, Any]]:
    """The reports of the targets read, by name."""
    return {r.name: r.report for r in results if r.status in READ and r.report is not None}


def fleet_rollup(results: Sequence[TargetOutcome]) -> dict[str, Any]:
    return rollup(read_reports(results), {r.name: r.status for r in results})


def fleet_json(results: Sequence[TargetOutcome]) -> dict[str, Any]:
    """The whole fleet report, targets sorted by name whatever order they finished in."""
    ordered = sorted(results, key=lambda r: r.name)
    return {
        "format": 1,
        "targets": [target_json(r) for r in ordered],
        "rollup": fleet_rollup(ordered),
    }


def json_line(value: dict[str, Any]) -> str:
    """One JSON Lines line: compact, inert on a terminal, with its newline."""
    return json_inert(json.dumps(value, ensure_ascii=False, separators=(",", ":"))) + "\n"


def fleet_exit(results: Sequence[TargetOutcome]) -> int:
    """4 when a target could not be read (R-FLT-1), else 1 when a target read has an error
    finding, else 0."""
    if any(r.status not in READ for r in results):
        return UNREAD_EXIT
    errors = (
        (r.report or {}).get("summary", {}).get("findings", {}).get("error", 0) for r in results
    )
    return 1 if any(errors) else 0


def load_fleet_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the fleet report, read from the package."""
    from importlib.resources import files

    schema: dict[str, Any] = json.loads(
        files("olmtui.report").joinpath("fleet_schema.json").read_text("utf-8")
    )
    return schema
