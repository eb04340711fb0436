"""The fleet as a node-exporter textfile (``check --fleet --prometheus FILE``): the findings
of each target by rule and severity, and whether each target could be read, a metric OLM v1
has none of. Label values are escaped as the exposition format says (backslash, double
quote, newline)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def label(value: str) -> str:
    """A label value escaped for the text exposition format."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def prometheus_text(targets: Iterable[dict[str, Any]]) -> str:
    """``olmtui_findings{target,rule,severity} N`` and ``olmtui_target_up{target} 0|1``,
    with their HELP and TYPE lines, in target, rule, severity order."""
    listed = sorted(targets, key=lambda t: t["name"])
    findings = [
        "# HELP olmtui_findings Findings of olmtui's rules on a fleet target, by rule and "
        "severity.",
        "# TYPE olmtui_findings gauge",
    ]
    up = [
        "# HELP olmtui_target_up Whether olmtui could read the target (1, also when partly) or "
        "not (0).",
        "# TYPE olmtui_target_up gauge",
    ]
    for target in listed:
        name = label(target["name"])
        counted: dict[tuple[str, str], int] = {}
        for finding in target["findings"]:
            key = (str(finding.get("rule")), str(finding.get("severity")))
            counted[key] = counted.get(key, 0) + 1
        for (rule, severity), n in sorted(counted.items()):
            findings.append(
                f'olmtui_findings{{target="{name}",rule="{label(rule)}",'
                f'severity="{label(severity)}"}} {n}'
            )
        read = 1 if target["status"] in ("ok", "partial") else 0
        up.append(f'olmtui_target_up{{target="{name}"}} {read}')
    return "\n".join([*findings, *up]) + "\n"
