"""The cluster upgrade section of the text and Markdown reports, from ``clusterUpgrade``
(R-CUP-6). It is left out when the source shows neither the cluster's version nor a blocker,
so reports of clusters that are not OpenShift read as before. Names and messages come from
the cluster and are escaped by the renderers."""

from __future__ import annotations

from typing import Any

from olmtui.report.json_report import Report


def upgrade_headline(report: Report) -> str | None:
    """``OpenShift 4.18.3 -> 4.19: 2 blockers`` (or ``ready``); ``None``: nothing to say."""
    entry: dict[str, Any] | None = report.get("clusterUpgrade")
    if not entry or (entry["currentVersion"] is None and not entry["blockers"]):
        return None
    blockers = entry["blockers"]
    verdict = f"{len(blockers)} blocker{'s' if len(blockers) != 1 else ''}" if blockers else "ready"
    if entry["currentVersion"] is None:
        return f"OpenShift version not in the source: {verdict}"
    return f"OpenShift {entry['currentVersion']} -> {entry['nextMinor']}: {verdict}"


def blocker_rows(report: Report) -> list[tuple[str, str, str]]:
    """Per blocker: ``(source, "Kind ns/name (cap X)", message)``."""
    rows = []
    for b in (report.get("clusterUpgrade") or {}).get("blockers") or ():
        obj = b["object"]
        where = f"{obj['namespace']}/{obj['name']}" if obj["namespace"] else obj["name"]
        cap = f" (cap {b['maxOpenShiftVersion']})" if b["maxOpenShiftVersion"] else ""
        rows.append((b["source"], f"{obj['kind']} {where}{cap}", b["message"]))
    return rows
