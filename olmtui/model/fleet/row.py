"""One row of the Fleet dashboard: what a target's own ``check`` report says of it, in the
few numbers an admin scans a fleet by (errors, warnings, operators not healthy, behind head,
blockers of the next minor). Read from the report's JSON form, the same fields
``check --fleet`` prints for the target (``summary``, ``clusterUpgrade``, R-FLT-5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.frozen import frozen


@frozen
class TargetCounts:
    """A read target's numbers; ``blockers``: what holds its next OpenShift minor (R-CUP),
    0 when nothing does."""

    errors: int
    warnings: int
    not_healthy: int
    behind_head: int
    blockers: int


def target_counts(report: Mapping[str, Any]) -> TargetCounts:
    """The row of a target whose report (JSON form) is ``report``."""
    summary = report.get("summary") or {}
    found = summary.get("findings") or {}
    metrics = summary.get("metrics") or {}
    upgrade = report.get("clusterUpgrade") or {}
    return TargetCounts(
        errors=int(found.get("error", 0)),
        warnings=int(found.get("warning", 0)),
        not_healthy=len(metrics.get("csv_abnormal") or ()),
        behind_head=int(summary.get("subscriptionsBehindHead") or 0),
        blockers=len(upgrade.get("blockers") or ()),
    )
