"""R-FLT-2: each rule that fired anywhere, on which clusters, at its worst severity: "rule X
on N clusters: a, b, c", which no single cluster's report can say."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.model.fleet.severity import worst

Report = Mapping[str, Any]


def by_rule(reports: Mapping[str, Report]) -> dict[str, dict[str, Any]]:
    """``{rule: {"severity", "targets": [names], "findings": N}}``, rules and names sorted."""
    severities: dict[str, list[str]] = {}
    targets: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for name, report in reports.items():
        for finding in report.get("findings") or ():
            rule = finding.get("rule") or finding.get("code") or "?"
            severities.setdefault(rule, []).append(str(finding.get("severity")))
            targets.setdefault(rule, set()).add(name)
            counts[rule] = counts.get(rule, 0) + 1
    return {
        rule: {
            "severity": worst(severities[rule]),
            "targets": sorted(targets[rule]),
            "findings": counts[rule],
        }
        for rule in sorted(targets)
    }
