"""``olmtui diff``'s answer as JSON (format 1, "Time": ``diff_schema.json``), text (grouped:
operators, findings, incidents, objects by kind) and Markdown (for a ticket: before and
after named with their moments). Everything from the cluster is made inert as printed."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from itertools import groupby
from typing import IO, Any

from olmtui.model.diff.records import FieldChange, ObjectChange, OperatorChange, StateDiff
from olmtui.model.records.types import ObjectRef, ref
from olmtui.report.diagnosis_json import object_json
from olmtui.report.json_report import FORMAT
from olmtui.report.markdown_report import md
from olmtui.report.text_report import safe

#: What the text and Markdown say when nothing changed.
NOTHING = "no OLM state changed"
#: Objects listed per kind in Markdown before "... and N more" (JSON has them all).
MARKDOWN_LIMIT = 200


def load_diff_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``diff --output json``, from the package."""
    schema: dict[str, Any] = json.loads(
        files("olmtui.report").joinpath("diff_schema.json").read_text("utf-8")
    )
    return schema


def diff_json(
    diff: StateDiff, before: Mapping[str, Any], after: Mapping[str, Any]
) -> dict[str, Any]:
    """The JSON: ``before``/``after`` are the two sides' ``source`` objects."""
    return {
        "format": FORMAT,
        "from": dict(before),
        "to": dict(after),
        "objects": {
            "added": [_ref_json(r, diff) for r in diff.added],
            "removed": [_ref_json(r, diff) for r in diff.removed],
            "changed": [_change_json(c) for c in diff.changed],
        },
        "operators": [_operator_json(o) for o in diff.operators],
        "findings": {
            "new": [dict(f) for f in diff.new_findings],
            "resolved": [dict(f) for f in diff.resolved_findings],
            "unchanged": diff.unchanged_findings,
        },
        "incidents": {
            "new": [dict(i) for i in diff.new_incidents],
            "resolved": [dict(i) for i in diff.resolved_incidents],
        },
        "notCompared": [
            {"kind": n.kind, "side": n.side, "scope": n.scope} for n in diff.not_compared
        ],
    }


def _ref_json(target: ObjectRef, diff: StateDiff) -> dict[str, Any]:
    return {**object_json(target), "facts": _plain(dict(diff.facts.get(target) or {}))}


def _change_json(change: ObjectChange) -> dict[str, Any]:
    return {
        "ref": object_json(change.ref),
        "what": [
            {"field": f.field, "from": _plain(f.before), "to": _plain(f.after)} for f in change.what
        ],
        "more": change.more,
    }


def _plain(value: Any) -> Any:
    """A value read from a document as JSON can say it: what YAML alone has (dates,
    binary, NaN, keys that are not strings) as its text."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def _operator_json(operator: OperatorChange) -> dict[str, Any]:
    return {
        "package": operator.package,
        "namespace": operator.namespace or None,
        "from": operator.before,
        "to": operator.after,
        "fromBundle": operator.before_bundle,
        "toBundle": operator.after_bundle,
        "clusterExtension": operator.extension,
    }


def side_words(source: Mapping[str, Any], label: str) -> str:
    """One side as a person names it: its input and its moment."""
    moment = source.get("at") or source.get("gatheredAt") or source.get("newestObjectTime")
    kind = source.get("kind")
    if kind == "live":
        return f"{label} (live cluster)"
    return f"{label} (at {moment})" if moment else label


def _value(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    return str(value)


def field_words(change: FieldChange) -> str:
    """A field change in a line: ``members: +b -a``, ``copies of x: present 3 -> 5``,
    else ``path: before -> after``."""
    before, after = change.before, change.after
    if change.field == "members":
        joined = [f"+{n}" for n in after or () if n not in (before or ())]
        left = [f"-{n}" for n in before or () if n not in (after or ())]
        return f"members: {' '.join([*joined, *left])}"
    if change.field.startswith("copies of ") and isinstance(before, Mapping):
        moved = [f"{k} {before[k]} -> {after[k]}" for k in before if before[k] != after[k]]
        return f"{change.field}: {', '.join(moved)}"
    return f"{change.field}: {_value(before)} -> {_value(after)}"


def operator_words(operator: OperatorChange) -> str:
    """``PACKAGE in NS: 1.0.0 -> 1.1.0 (csv-a -> csv-b)``; a ClusterExtension by name."""
    who = (
        f"{operator.package} (ClusterExtension {operator.extension})"
        if operator.extension
        else operator.package
    )
    where = f" in {operator.namespace}" if operator.namespace else ""
    versions = f"{operator.before or 'not installed'} -> {operator.after or 'not installed'}"
    bundles = ""
    if operator.before_bundle != operator.after_bundle:
        bundles = f" ({operator.before_bundle or 'none'} -> {operator.after_bundle or 'none'})"
    return f"{who}{where}: {versions}{bundles}"


def finding_words(finding: Mapping[str, Any]) -> str:
    """A finding in a line: severity, code, object and the first sentence of its message
    (the JSON has it whole)."""
    target = ref(finding.get("namespace") or "", finding.get("name") or "")
    subject = f" {finding.get('kind')} {target}" if finding.get("kind") else ""
    message = first_sentence(str(finding.get("message") or ""))
    return f"{finding.get('severity')} {finding.get('code')}{subject}: {message}"


#: Characters of a message a line keeps.
MESSAGE_LIMIT = 160


def first_sentence(text: str) -> str:
    """Up to the first ". " (kept whole when it is short), at most :data:`MESSAGE_LIMIT`
    characters, cut with an ellipsis."""
    head, dot, _ = text.partition(". ")
    kept = head + "." if dot else text
    if len(kept) > MESSAGE_LIMIT:
        return kept[: MESSAGE_LIMIT - 1].rstrip() + "\u2026"
    return kept


def incident_words(incident: Mapping[str, Any]) -> str:
    summary = first_sentence(str(incident.get("summary") or ""))
    return f"{incident.get('severity')} {incident.get('id')}: {summary}"


def _facts_words(facts: Mapping[str, Any]) -> str:
    if not facts:
        return ""
    said = (
        f"{k if k.startswith('copies of ') else k.rsplit('.', 1)[-1]} {_value(v)}"
        for k, v in facts.items()
    )
    return " (" + "; ".join(said) + ")"


def _by_kind(diff: StateDiff) -> Iterable[tuple[str, list[tuple[str, ObjectRef, Any]]]]:
    """The objects' changes grouped by kind: ``(mark, ref, change or facts)``, mark ``+``
    added, ``-`` removed, ``~`` changed."""
    rows: list[tuple[str, ObjectRef, Any]] = [
        *(("+", r, diff.facts.get(r) or {}) for r in diff.added),
        *(("-", r, diff.facts.get(r) or {}) for r in diff.removed),
        *(("~", c.ref, c) for c in diff.changed),
    ]
    rows.sort(key=lambda row: (row[1].kind, row[1].namespace, row[1].name, row[0]))
    for kind, group in groupby(rows, key=lambda row: row[1].kind):
        yield kind, list(group)


_MARK_WORDS = {"+": "added", "-": "removed", "~": "changed"}


def write_diff_text(diff: StateDiff, before: str, after: str, out: IO[str]) -> None:
    """The text: the two sides, then operators, findings, incidents, objects by kind."""
    out.write("\n".join(safe(line) for line in diff_lines(diff, before, after)) + "\n")


def diff_lines(diff: StateDiff, before: str, after: str) -> list[str]:
    """The text's lines, as cluster text (the dashboard's Compare screen shows them inert;
    the command line makes them safe for a terminal)."""
    lines = [f"from {before}", f"to   {after}", ""]
    if diff.empty:
        lines.append(f"{NOTHING} ({diff.unchanged_findings} findings unchanged)")
    if diff.operators:
        lines += ["Operators", *(f"  {operator_words(o)}" for o in diff.operators), ""]
    if diff.new_findings or diff.resolved_findings:
        lines.append("Findings")
        lines += [f"  new      {finding_words(f)}" for f in diff.new_findings]
        lines += [f"  resolved {finding_words(f)}" for f in diff.resolved_findings]
        lines += [f"  unchanged: {diff.unchanged_findings}", ""]
    if diff.new_incidents or diff.resolved_incidents:
        lines.append("Incidents")
        lines += [f"  new      {incident_words(i)}" for i in diff.new_incidents]
        lines += [f"  resolved {incident_words(i)}" for i in diff.resolved_incidents]
        lines.append("")
    for kind, rows in _by_kind(diff):
        lines.append(kind)
        for mark, target, detail in rows:
            name = ref(target.namespace, target.name)
            if mark == "~":
                lines.append(f"  ~ {name}")
                lines += [f"      {field_words(f)}" for f in detail.what]
                if detail.more:
                    lines.append(f"      ... and {detail.more} more fields")
            else:
                lines.append(f"  {mark} {name} {_MARK_WORDS[mark]}{_facts_words(detail)}")
        lines.append("")
    for skipped in diff.not_compared:
        lines.append(f"not compared: {skipped.kind} ({skipped.side}: {skipped.scope} unreadable)")
    return _trim(lines)


def _trim(lines: Sequence[str]) -> list[str]:
    held = list(lines)
    while held and not held[-1]:
        held.pop()
    return held


def _md(text: object) -> str:
    """:func:`md`, with the arrow of a change drawn as one."""
    return md(text).replace(" -\\> ", " \u2192 ")


def diff_markdown(diff: StateDiff, before: str, after: str) -> str:
    """The Markdown for a ticket: "Before" and "After" headings naming each input and its
    moment, then what changed."""
    parts = [
        "# OLM state: before / after",
        "",
        f"## Before: {md(before)}",
        "",
        f"## After: {md(after)}",
        "",
        "## What changed",
        "",
    ]
    if diff.empty:
        parts += [f"{NOTHING} ({diff.unchanged_findings} findings unchanged).", ""]
    if diff.operators:
        parts += ["### Operators", "", "| operator | before | after |", "|---|---|---|"]
        for o in diff.operators:
            who = f"{o.package} ({o.extension})" if o.extension else o.package
            where = f" in {o.namespace}" if o.namespace else ""
            parts.append(
                f"| {md(who + where)} | {md(o.before or 'not installed')} "
                f"| {md(o.after or 'not installed')} |"
            )
        parts.append("")
    if diff.new_findings or diff.resolved_findings:
        parts += ["### Findings", ""]
        parts += [f"- new: {_md(finding_words(f))}" for f in diff.new_findings]
        parts += [f"- resolved: {md(finding_words(f))}" for f in diff.resolved_findings]
        parts += [f"- unchanged: {diff.unchanged_findings}", ""]
    if diff.new_incidents or diff.resolved_incidents:
        parts += ["### Incidents", ""]
        parts += [f"- new: {md(incident_words(i))}" for i in diff.new_incidents]
        parts += [f"- resolved: {md(incident_words(i))}" for i in diff.resolved_incidents]
        parts.append("")
    for kind, rows in _by_kind(diff):
        parts += [f"### {md(kind)}", ""]
        for mark, target, detail in rows[:MARKDOWN_LIMIT]:
            name = md(ref(target.namespace, target.name))
            if mark == "~":
                parts.append(f"- changed {name}")
                parts += [f"  - {_md(field_words(f))}" for f in detail.what]
                if detail.more:
                    parts.append(f"  - ... and {detail.more} more fields")
            else:
                parts.append(f"- {_MARK_WORDS[mark]} {name}{md(_facts_words(detail))}")
        if len(rows) > MARKDOWN_LIMIT:
            parts.append(f"- ... and {len(rows) - MARKDOWN_LIMIT} more")
        parts.append("")
    for skipped in diff.not_compared:
        parts.append(f"- not compared: {md(skipped.kind)} ({skipped.side}: {md(skipped.scope)})")
    return "\n".join(_trim(parts)) + "\n"
