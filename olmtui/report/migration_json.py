"""``migration[]`` of the report (R-MIG-12): every operator's migration state, the rules C1..C10
read for it and the ClusterExtension a conversion would create, in the migration tool's order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from olmtui.model.rules.migration.checks import RuleResult
from olmtui.model.rules.migration.states import Migration
from olmtui.report.diagnosis_json import object_json


def rule_json(rule: RuleResult) -> dict[str, Any]:
    """One ``rules[]`` entry; ``known`` false: the input does not show the answer (``ok`` is
    then false too), an addition to the contract's ``id``/``ok``/``detail``."""
    return {"id": rule.id, "ok": rule.ok, "detail": rule.detail, "known": rule.known}


def migration_json(rows: Iterable[Migration]) -> list[dict[str, Any]]:
    """One entry per operator; ``clusterExtension`` is YAML text for an Eligible one, else null.
    ``package``, ``reason`` and ``notes`` (R-MIG-14) are additions to the contract."""
    return [
        {
            "object": object_json(row.object),
            "state": row.state,
            "package": row.package,
            "reason": row.reason,
            "rules": [rule_json(r) for r in row.rules],
            "clusterExtension": row.preview,
            "notes": list(row.notes),
        }
        for row in rows
    ]
