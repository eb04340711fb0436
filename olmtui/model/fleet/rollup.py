"""The fleet report's ``rollup``: every cross-cluster view in one dict (R-FLT-2..6), over the
reports of the targets read, and the statuses of all of them (R-FLT-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.model.fleet.by_rule import by_rule
from olmtui.model.fleet.catalog_skew import catalog_skew
from olmtui.model.fleet.incidents import shared_incidents
from olmtui.model.fleet.readiness import blocked_for_next_minor, migration, upgrade_blockers
from olmtui.model.fleet.skew import skew

#: Every status a target can have, as the report writes them.
STATUSES: tuple[str, ...] = ("ok", "partial", "unreachable", "unauthorized", "timeout", "bad-input")


def rollup(reports: Mapping[str, Mapping[str, Any]], statuses: Mapping[str, str]) -> dict[str, Any]:
    """The roll-up of ``reports`` (name -> report, the targets read) given every target's
    status (name -> status, the unread ones included)."""
    counts = dict.fromkeys(STATUSES, 0)
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    return {
        "targets": len(statuses),
        "statuses": counts,
        "byRule": by_rule(reports),
        "skew": skew(reports),
        "catalogSkew": catalog_skew(reports),
        "blockedForNextMinor": blocked_for_next_minor(reports),
        "upgradeBlockers": upgrade_blockers(reports),
        "migration": migration(reports),
        "incidents": shared_incidents(reports),
    }
