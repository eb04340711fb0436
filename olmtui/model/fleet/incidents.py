"""R-FLT-6: the same incident on several clusters: an incident is the same when its root
finding is, by rule, code and object (kind, namespace, name). A fix found for one cluster is
then a fix for all of them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.model.fleet.severity import rank, worst

Report = Mapping[str, Any]
_Key = tuple[str, str, str | None, str | None, str | None]


def shared_incidents(reports: Mapping[str, Report], least: int = 2) -> list[dict[str, Any]]:
    """``[{"rule", "code", "object": {"kind","namespace","name"}, "severity", "summary",
    "targets": [names]}]`` for each incident on at least ``least`` clusters; most clusters
    first, then worst severity, rule and object."""
    targets: dict[_Key, set[str]] = {}
    severities: dict[_Key, list[str]] = {}
    summaries: dict[_Key, str] = {}
    for name, report in reports.items():
        rules = _rules(report)
        for incident in report.get("incidents") or ():
            root = incident.get("root") or {}
            ref = (root.get("code"), root.get("kind"), root.get("namespace"), root.get("name"))
            key: _Key = (rules.get(ref, "?"), str(root.get("code")), *ref[1:])
            targets.setdefault(key, set()).add(name)
            severities.setdefault(key, []).append(str(incident.get("severity")))
            summaries.setdefault(key, str(incident.get("summary") or ""))
    shared = [
        {
            "rule": key[0],
            "code": key[1],
            "object": {"kind": key[2], "namespace": key[3], "name": key[4]},
            "severity": worst(severities[key]),
            "summary": summaries[key],
            "targets": sorted(names),
        }
        for key, names in targets.items()
        if len(names) >= least
    ]
    shared.sort(key=_order)
    return shared


def _order(entry: dict[str, Any]) -> tuple[int, int, str, list[str]]:
    """Most clusters first, then worst severity, rule and object."""
    obj: dict[str, Any] = entry["object"]
    return (
        -len(entry["targets"]),
        rank(entry["severity"]),
        entry["rule"],
        [str(v or "") for v in obj.values()],
    )


def _rules(report: Report) -> dict[tuple[Any, ...], str]:
    """The rule of each finding, by its reference (code, kind, namespace, name)."""
    return {
        (f.get("code"), f.get("kind"), f.get("namespace"), f.get("name")): str(f.get("rule"))
        for f in report.get("findings") or ()
    }
