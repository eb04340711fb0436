"""The fleet report as text (``check --fleet``'s default) and as Markdown: a line (a row) per
target, then the roll-up in sentences ("rule X on N clusters: a, b, c"). Cluster text passes
through ``safe_text.visible``: names and reasons come from kubeconfigs and snapshots."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from olmtui.safe_text import visible

#: Names listed in one roll-up sentence before "and N more".
NAMES_SHOWN = 10


def counts(summary: dict[str, Any] | None) -> tuple[int, int, int] | None:
    if not summary:
        return None
    found = summary.get("findings") or {}
    return (found.get("error", 0), found.get("warning", 0), found.get("info", 0))


def names(targets: Iterable[str]) -> str:
    listed = list(targets)
    shown = ", ".join(visible(t) for t in listed[:NAMES_SHOWN])
    more = len(listed) - NAMES_SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def clusters(targets: list[str]) -> str:
    n = len(targets)
    return f"{n} cluster{'s' if n != 1 else ''}: {names(targets)}"


def finished_text(name: str, status: str, seconds: float) -> str:
    """A target finishing, for the progress on stderr."""
    return f"{visible(name)} {status} ({seconds:.1f} s)"


def target_line(target: dict[str, Any]) -> str:
    """``NAME  STATUS  E error, W warning, I info`` (or the reason it was not read)."""
    name, status = visible(target["name"]), target["status"]
    found = counts(target.get("summary"))
    what = f"{found[0]} error, {found[1]} warning, {found[2]} info" if found else ""
    reason = visible(target["reason"]) if target.get("reason") else ""
    tail = "; ".join(p for p in (what, reason) if p)
    return f"{name}  {status}  {tail}".rstrip()


def rollup_lines(rollup: dict[str, Any]) -> list[str]:
    """The roll-up's sentences, one a line (``R-FLT-2..6``): incidents on many clusters
    first, then rules, skew, and what each cluster needs next."""
    lines: list[str] = []
    statuses = ", ".join(f"{n} {s}" for s, n in rollup["statuses"].items() if n)
    lines.append(f"{rollup['targets']} targets: {statuses}")
    for entry in rollup["incidents"]:
        obj = entry["object"]
        where = "/".join(str(v) for v in (obj["namespace"], obj["name"]) if v)
        on = " ".join(p for p in (str(obj["kind"] or ""), visible(where)) if p)
        lines.append(
            f"incident {visible(entry['code'])} on {on} "
            f"({entry['severity']}, {entry['rule']}) on {clusters(entry['targets'])}"
        )
    for rule, entry in rollup["byRule"].items():
        lines.append(f"rule {rule} ({entry['severity']}) on {clusters(entry['targets'])}")
    for entry in rollup["skew"]:
        lines += _spread(f"package {visible(entry['package'])}", entry["versions"], "version")
        lines += _spread(f"package {visible(entry['package'])}", entry["channels"], "channel")
    for entry in rollup["catalogSkew"]:
        lines += _spread(f"{entry['kind']} {visible(entry['name'])}", entry["refs"], "image")
    blocked = rollup["blockedForNextMinor"]
    if blocked:
        lines.append(f"blocked for the next OpenShift minor on {clusters(blocked)}")
    for name, states in rollup["migration"].items():
        said = ", ".join(f"{n} {s}" for s, n in states.items() if n)
        lines.append(f"v0-to-v1 migration on {visible(name)}: {said}")
    return lines


def _spread(what: str, values: dict[str, list[str]], noun: str) -> list[str]:
    """Several values over several clusters (R-FLT-3: two installs in one cluster are no
    fleet's skew, even when the package's other dimension, its channels, does spread)."""
    if len(values) < 2 or len({t for targets in values.values() for t in targets}) < 2:
        return []
    parts = "; ".join(f"{visible(v)} on {names(t)}" for v, t in values.items())
    return [f"{what} at {len(values)} {noun}s: {parts}"]


def fleet_text(document: dict[str, Any]) -> str:
    lines = [target_line(t) for t in document["targets"]]
    lines += ["", *rollup_lines(document["rollup"])]
    return "\n".join(lines) + "\n"


def fleet_markdown(document: dict[str, Any]) -> str:
    """Targets x severities in a table, then the roll-up, shared incidents first."""
    out = [
        "# olmtui fleet check",
        "",
        "| target | status | error | warning | info | incidents | reason |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for target in document["targets"]:
        found = counts(target.get("summary"))
        cells = [str(n) for n in found] if found else ["", "", ""]
        incidents = str(len(target["incidents"])) if found else ""
        reason = _cell(visible(target["reason"])) if target.get("reason") else ""
        out.append(
            f"| {_cell(visible(target['name']))} | {target['status']} | "
            + " | ".join(cells)
            + f" | {incidents} | {reason} |"
        )
    out += ["", "## Across the fleet", ""]
    out += [f"- {_cell(line)}" for line in rollup_lines(document["rollup"])]
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
