"""R-FLT-5: what each cluster needs next, side by side: which clusters are blocked for the next
OpenShift minor (the report's ``clusterUpgrade.blockers``, OLM v0 and v1 and ClusterOperators
together, R-CUP) and how many of each cluster's operators the v0-to-v1 migration rules find
eligible (``migration[]``, R-MIG)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Report = Mapping[str, Any]
#: The migration states, as ``migration[].state`` writes them.
MIGRATION_STATES: tuple[str, ...] = ("Eligible", "Ineligible", "AlreadyMigrated", "Conflict")


def blocked_for_next_minor(reports: Mapping[str, Report]) -> list[str]:
    """The clusters whose report names at least one blocker of the next minor, sorted."""
    return sorted(name for name, report in reports.items() if _blockers(report))


def upgrade_blockers(reports: Mapping[str, Report]) -> dict[str, dict[str, Any]]:
    """Per blocked cluster: ``{"nextMinor", "v0": N, "v1": N, "clusteroperator": N}``."""
    found: dict[str, dict[str, Any]] = {}
    for name in blocked_for_next_minor(reports):
        upgrade = reports[name].get("clusterUpgrade") or {}
        counts = {"v0": 0, "v1": 0, "clusteroperator": 0}
        for blocker in _blockers(reports[name]):
            source = str(blocker.get("source"))
            counts[source] = counts.get(source, 0) + 1
        found[name] = {"nextMinor": upgrade.get("nextMinor"), **counts}
    return found


def _blockers(report: Report) -> list[Mapping[str, Any]]:
    upgrade = report.get("clusterUpgrade") or {}
    return list(upgrade.get("blockers") or ()) if isinstance(upgrade, Mapping) else []


def migration(reports: Mapping[str, Report]) -> dict[str, dict[str, int]]:
    """Per cluster with operators the migration rules judged: how many in each state."""
    found: dict[str, dict[str, int]] = {}
    for name in sorted(reports):
        entries = reports[name].get("migration") or ()
        if not entries:
            continue
        counts = dict.fromkeys(MIGRATION_STATES, 0)
        for entry in entries:
            state = str(entry.get("state"))
            counts[state] = counts.get(state, 0) + 1
        found[name] = counts
    return found
