"""The "Migration to OLM v1" section of the text and Markdown reports, from ``migration[]``
(R-MIG-12). Left out unless the source holds an OLM v1 object (a ClusterExtension or a
ClusterCatalog): without OLM v1 there is nothing to migrate to, and reports of such clusters
read as before. Names and details come from the cluster; the renderers escape them."""

from __future__ import annotations

from typing import Any

from olmtui.frozen import frozen
from olmtui.report.json_report import Report


@frozen
class MigrationRow:
    """One operator as the reports write it (unescaped)."""

    subject: str
    state: str
    reason: str
    #: ``C1: detail`` for every rule that does not pass (unknown ones say so).
    failing: tuple[str, ...]
    notes: tuple[str, ...]
    #: The ClusterExtension a conversion would create, YAML (R-MIG-13), or None.
    extension: str | None


def _subject(entry: dict[str, Any]) -> str:
    ref = entry["object"]
    where = f"{ref['namespace']}/{ref['name']}" if ref["namespace"] else ref["name"]
    return (
        f"{ref['kind']} {where} ({entry['package']})"
        if entry["package"]
        else f"{ref['kind']} {where}"
    )


def migration_rows(report: Report) -> list[MigrationRow]:
    """The rows to write; none when the source holds no OLM v1 object."""
    if not report.get("clusterExtensions") and not report.get("clusterCatalogs"):
        return []
    return [
        MigrationRow(
            _subject(e),
            e["state"],
            e["reason"],
            tuple(f"{r['id']}: {r['detail']}" for r in e["rules"] if not r["ok"]),
            tuple(e["notes"]),
            e["clusterExtension"],
        )
        for e in report.get("migration") or []
    ]


def state_counts(rows: list[MigrationRow]) -> str:
    """``1 Conflict, 2 Eligible``: the states present, in the tool's order."""
    order = ("Conflict", "Ineligible", "AlreadyMigrated", "Eligible")
    return ", ".join(f"{n} {s}" for s in order if (n := sum(r.state == s for r in rows)))
