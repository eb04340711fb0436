"""``olmtui check --output markdown``: an incident note to paste into a ticket.

Rendered from the same JSON report dict as the text output (so all three outputs say the same
thing), plus Mermaid drawings of the pending upgrades, which the report dict does not carry:
those come from the catalogs through ``model/viewmodels/graph_render`` (the drawing ``olmtui graph``
prints), trimmed to the bundles on the Subscription's way to the channel head so that a
ticket stays readable.

Findings are grouped by the object they are about, worst object first, each with the
message the model wrote, its rule id and its remedy's steps (commands as code spans). Every
name and message comes from the cluster or the snapshot: Markdown's active characters in them are
backslash-escaped and control characters shown as escapes, so no text can open a code span,
a link, an HTML tag or a table cell, or close the Mermaid fence.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from olmtui.kinds import SUBSCRIPTION
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import SEVERITY_ORDER, SubscriptionState
from olmtui.model.rules.upgrades.graph import subscription_scope
from olmtui.model.viewmodels.graph_render import ChannelView, channel_view, render_mermaid
from olmtui.model.viewmodels.timeline import (
    Timeline,
    left_out_words,
    reference_words,
    timeline_lines,
)
from olmtui.report.context_line import incomplete_words, version_words, when_words
from olmtui.report.json_report import Report, without_surrogates
from olmtui.report.migration_sections import migration_rows, state_counts
from olmtui.report.next_catalog_json import next_catalog_lines
from olmtui.report.text_report import (
    change_lines,
    refused,
    remedy_heading,
    safe,
    split_unevaluated,
)
from olmtui.report.upgrade_sections import blocker_rows, upgrade_headline
from olmtui.report.v1_sections import catalog_rows, extension_rows
from olmtui.store import Store

#: Where the rule ids are explained, relative to the repository root (ticket readers follow
#: the id there; the README links the same file).
RULES_DOC = "docs/rules.md"
#: Objects listed before "... and N more" (``--output json`` has everything).
OBJECT_LIMIT = 200
#: Objects an incident affects to name before "(+N more)".
LIST_LIMIT = 8
#: Pending-upgrade drawings before "... and N more".
GRAPH_LIMIT = 20
_ICONS = {"error": "🔴 error", "warning": "🟠 warning", "info": "🔵 info"}
#: What Markdown (CommonMark + GitHub's tables and strike-through) or HTML acts on anywhere in
#: a line; "(" and "!" only act next to "[", which is escaped.
_ACTIVE = re.compile(r"([\\`*_\[\]<>#|~&])")
#: What acts only at the start of a line (a list item, a quote, a setext heading, a rule).
_LEADING = re.compile(r"^([-+=>]|\d+[.)])")


def md(text: object) -> str:
    """Untrusted text as inert Markdown on one line: control characters escaped, runs of
    white space made one space, and every character Markdown or HTML could act on
    backslash-escaped (CommonMark: any ASCII punctuation may be)."""
    one_line = _ACTIVE.sub(r"\\\1", safe(" ".join(str(text).split())))
    return _LEADING.sub(lambda m: m.group(0)[:-1] + "\\" + m.group(0)[-1], one_line)


@dataclass(frozen=True)
class PendingGraph:
    """One Subscription whose next bundle is not the installed one, and its drawing."""

    namespace: str
    name: str
    installed: str | None
    next: str
    mermaid: str
    #: Why OLM's resolver installs ``next`` rather than the head (R-RES-17), if it decided.
    because: str | None = None


def _trimmed(view: ChannelView, keep: set[str]) -> ChannelView:
    """The view with only the entries in ``keep`` and the edges between them."""
    return replace(
        view,
        entries=tuple(e for e in view.entries if e.name in keep),
        edges=tuple(e for e in view.edges if e.source in keep and e.target in keep),
        outside=(),
        competing_heads=tuple(n for n in view.competing_heads if n in keep),
    )


def _code(text: str) -> str:
    """A finding code as a code span: some codes carry a word from the cluster (a condition's
    type), so control characters are escaped and a backtick, which would close the span,
    becomes a quote."""
    return safe(text).replace("`", "'")


def _fenced(mermaid: str) -> str:
    """The drawing with control characters escaped and no backtick left: labels are already
    entity-coded, but OLM's error texts in ``%%`` comments are not, and a backtick run there
    could close the fence."""
    return "\n".join(safe(line).replace("`", "'") for line in mermaid.rstrip("\n").split("\n"))


def pending_graphs(
    store: Store, catalogs: Sequence[Catalog], subs: Iterable[SubscriptionState], csv_version: Any
) -> list[PendingGraph]:
    """A drawing per Subscription with a next bundle (R-UPG-2) other than its installed CSV,
    sorted by namespace and name. ``csv_version(namespace, name)`` gives the installed CSV's
    ``spec.version`` (or None)."""
    graphs = []
    for sub in sorted(subs, key=lambda s: (s.namespace, s.name)):
        upgrade = sub.upgrade
        if not upgrade.next or upgrade.next == sub.installed_csv:
            continue
        obj = store.get(SUBSCRIPTION, sub.namespace, sub.name)
        scope = subscription_scope(catalogs, obj) if obj else None
        if scope is None or scope.package is None or not scope.channels:
            continue
        installed = sub.installed_csv
        version = csv_version(sub.namespace, installed) if installed else None
        view = channel_view(scope.channels[0], scope.package, installed, version)
        keep = {n for n in (installed, upgrade.next, upgrade.head, *upgrade.path) if n}
        because = upgrade.not_head_because if upgrade.decided_by == "resolver" else None
        if because:  # R-RES-17: the drawing marks the resolver's pick, the text says why
            view = replace(view, next=upgrade.next, next_because=because)
        graphs.append(
            PendingGraph(
                sub.namespace,
                sub.name,
                installed,
                upgrade.next,
                _fenced(render_mermaid(_trimmed(view, keep))),
                because,
            )
        )
    return graphs


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _subject(ref: dict[str, Any]) -> tuple[str, str, str]:
    """``(kind, namespace, name)`` of a finding, a finding reference or an object."""
    return (ref["kind"] or "", ref["namespace"] or "", ref["name"] or "")


def _subject_title(kind: str, namespace: str, name: str) -> str:
    if not (kind or name):
        return "The input as a whole"
    ref = f"{namespace}/{name}" if namespace else name
    return f"{md(kind)} {md(ref)}".strip()


def _by_object(findings: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Findings grouped by subject; worst subject first (its worst severity, then how many
    findings of each severity), then by kind, namespace and name."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for finding in findings:
        groups.setdefault(_subject(finding), []).append(finding)

    def rank(key: tuple[str, str, str]) -> tuple[Any, ...]:
        severities = [SEVERITY_ORDER[f["severity"]] for f in groups[key]]
        counts = tuple(-severities.count(level) for level in sorted(set(SEVERITY_ORDER.values())))
        return (min(severities), counts, key)

    ordered = sorted(groups, key=rank)
    return [
        sorted(groups[key], key=lambda f: (SEVERITY_ORDER[f["severity"]], f["code"]))
        for key in ordered
    ]


def _source_line(report: Report, label: str, when: dt.datetime | None) -> str:
    """The source, when it was taken (a live read: ``when``), the versions it shows and,
    in bold, why it is incomplete (``context_line``)."""
    source = report["source"]
    if source["kind"] == "live":
        origin = f"live cluster {md(label)}"
        time = f"read at {when:%Y-%m-%d %H:%M:%S} UTC" if when else "read time unknown"
    else:
        origin = f"snapshot {md(label)}"
        time = when_words(source) or ""
    told = ", ".join(md(words) for words in version_words(source))
    incomplete = incomplete_words(source)
    tail = f"; **{md(incomplete)}**" if incomplete else ""
    return f"{origin} ({time}), {told}{tail}"


def _summary(report: Report) -> list[str]:
    summary, source = report["summary"], report["source"]
    counts = summary["findings"]
    lines = [
        "## Summary",
        "",
        "| errors | warnings | info | namespaces | OperatorGroups | CSVs (+copied) "
        "| Subscriptions | InstallPlans | CatalogSources |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {counts['error']} | {counts['warning']} | {counts['info']} "
        f"| {summary['namespaces']} | {summary['operatorGroups']} "
        f"| {summary['csvs']} (+{summary['copiedCSVs']}) | {summary['subscriptions']} "
        f"| {summary['installPlans']} | {summary['catalogSources']} |",
        "",
        f"{_plural(source['objects'], 'object')} read, {source['skipped']} skipped.",
    ]
    logs = source.get("logs")
    if logs:  # R-EVD-10: what of OLM's logs was read, and cut
        lines.append(
            f"OLM logs: {_plural(logs['files'], 'file')}, {_plural(logs['lines'], 'line')} read."
        )
        lines += (f"- {md(cut)}" for cut in logs["cut"])
    if source.get("namespaces") is not None:
        lines.append(
            f"Only namespaces {md(', '.join(source['namespaces']))} were read: elsewhere is "
            "unknown, not absent."
        )
    if source["skipped"]:
        lines.append(
            f"**{_plural(source['skipped'], 'document')} could not be read: the snapshot is "
            "incomplete, findings may be missing or wrong.**"
        )
    incidents = summary.get("incidents")
    if incidents is not None:
        lines.append(
            f"{_plural(sum(incidents.values()), 'incident')} (one per root cause): "
            f"{incidents['error']} error, {incidents['warning']} warning, "
            f"{incidents['info']} info."
        )
    errors = [i for i in report.get("incidents") or () if i["severity"] == "error"]
    if errors:
        lines += ["", "Errors:", ""]
        lines += [
            f"- `{_code(i['root']['code'])}` on {_subject_title(*_subject(i['root']))}"
            + (
                f" (+{_plural(len(i['consequences']), 'finding')} that follow from it)"
                if i["consequences"]
                else ""
            )
            for i in errors[:OBJECT_LIMIT]
        ]
        if len(errors) > OBJECT_LIMIT:
            lines.append(f"- ... and {len(errors) - OBJECT_LIMIT} more")
    return lines


def _timeline(shown: Timeline | None, reference: dt.datetime | None, live: bool) -> list[str]:
    """An incident's timeline as a nested list (R-EVD-11): what happened to its objects,
    oldest first, the date where it changes, and what the list leaves out."""
    if shown is None or not shown.entries:  # nothing placed: no list of what is left out
        return []
    lines = [f"  - timeline ({reference_words(reference, live)}):"]
    lines += [f"    - {md(words)}" for words in left_out_words(shown)]
    for line in timeline_lines(shown.entries, reference, live):
        when = f"{line.date} {line.time}".strip()
        relative = f" ({line.relative})" if line.relative else ""
        entry = line.entry
        lines.append(f"    - {when}{relative} {md(str(entry.ref))}: {md(entry.what)}")
    return lines


def _incidents(
    report: Report,
    timelines: Mapping[str, Timeline] | None = None,
    reference: dt.datetime | None = None,
) -> list[str]:
    """One entry per incident (R-DIAG-9): its root, worst severity, the objects it affects,
    the findings that follow from it folded under it, then its timeline (R-EVD-11) when
    ``timelines`` has one (by incident id; ``reference``: what its times count from)."""
    incidents = list(report.get("incidents") or ())
    lines = ["## Incidents", ""]
    if not incidents:
        return [*lines, "No incidents."]
    roots = {_finding_key(r) for r in (i["root"] for i in incidents[:OBJECT_LIMIT])}
    by_key = {k: f for f in report["findings"] if (k := _finding_key(f)) in roots}
    for incident in incidents[:OBJECT_LIMIT]:
        root = incident["root"]
        severity = _ICONS.get(incident["severity"], md(incident["severity"]))
        lines.append(
            f"- **{severity}** `{_code(root['code'])}` on "
            f"{_subject_title(*_subject(root))}: {md(incident['summary'])}"
        )
        affected = incident["affected"]
        if incident["consequences"] or len(affected) > 1:
            shown = ", ".join(_subject_title(*_subject(a)) for a in affected[:LIST_LIMIT])
            more = f" (+{len(affected) - LIST_LIMIT} more)" if len(affected) > LIST_LIMIT else ""
            lines.append(f"  - affects: {shown}{more}")
        for ref in incident["consequences"]:
            lines.append(f"  - follows: `{_code(ref['code'])}` on {_subject_title(*_subject(ref))}")
        evidence = _evidence_lines(by_key.get(_finding_key(root), {}), INCIDENT_EVIDENCE_LIMIT)
        lines += [f"  {line}" if line.startswith("  -") else "  - evidence:" for line in evidence]
        live = report["source"].get("kind") != "snapshot"
        lines += _timeline((timelines or {}).get(incident["id"]), reference, live)
    if len(incidents) > OBJECT_LIMIT:
        lines.append(
            f"... and {len(incidents) - OBJECT_LIMIT} more incidents "
            "(`olmtui check --output json` lists them all)."
        )
    return lines


#: The evidence entries (fields, Events, log lines) shown under a finding; the JSON has all.
EVIDENCE_LIMIT = 12
#: Under an incident: its root's evidence, shorter.
INCIDENT_EVIDENCE_LIMIT = 5


def _evidence_item(entry: dict[str, Any]) -> str | None:
    """One evidence entry as a Markdown list item's text (R-EVD-10); ``None`` for a bare
    object (the finding's title and ``Related`` name it already)."""
    if "log" in entry:
        log = entry["log"]
        when = md(log["time"] or "(no time)")
        return f"log {when} {md(log['pod'])}/{md(log['container'])}: {md(log['line'])}"
    if "event" in entry:
        event = entry["event"]
        count = f" (×{event['count']})" if event["count"] and event["count"] > 1 else ""
        return (
            f"event {md(event['lastTimestamp'] or '(no time)')} {md(event['type'] or '')} "
            f"{md(event['reason'] or '')}: {md(event['message'] or '')}{count}"
        )
    if entry.get("field") is None:
        return None
    where = _subject_title(entry["kind"], entry["namespace"] or "", entry["name"])
    return f"{where} `.{_code(entry['field'])}` = {md(entry['value'] or '')}"


def _evidence_lines(finding: dict[str, Any], limit: int = EVIDENCE_LIMIT) -> list[str]:
    """The finding's fields, Events and log lines as an "Evidence" sub-list, bounded."""
    evidence = finding.get("evidence")
    if not isinstance(evidence, list):  # a streamed long list names only objects
        return []
    items = [item for entry in evidence if (item := _evidence_item(entry)) is not None]
    if not items:
        return []
    lines = ["  Evidence:", *(f"  - {item}" for item in items[:limit])]
    if len(items) > limit:
        lines.append(f"  - ... and {len(items) - limit} more (`olmtui check --output json`)")
    return lines


def _finding_key(ref: dict[str, Any]) -> tuple[Any, ...]:
    return (ref["code"], ref["kind"], ref["namespace"], ref["name"])


def _finding_lines(finding: dict[str, Any]) -> list[str]:
    rule = md(finding["rule"] or "")
    severity = _ICONS.get(finding["severity"], md(finding["severity"]))
    head = f"- **{severity}** `{_code(finding['code'])}`"
    if rule:
        head += f" (rule [{rule}]({RULES_DOC}))"
    lines = [head, f"  {md(finding['message'])}"]
    related = [_subject_title(*_subject(r)) for r in finding.get("related") or ()]
    if related:
        lines.append(f"  Related: {', '.join(related)}")
    return lines + _evidence_lines(finding) + _remedy_lines(finding.get("remedy"))


def command_span(text: str) -> str:
    """A command as a code span, exactly as it is to be typed: control characters escaped,
    and fenced with one backtick more than its longest run of them (CommonMark), so nothing
    in it can close the span."""
    shown = safe(text)
    longest = max((len(run) for run in re.findall("`+", shown)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {shown} {fence}"


def _remedy_lines(remedy: dict[str, Any] | None) -> list[str]:
    """The finding's remedy as a numbered list under it, commands as code spans; a refused
    remedy's steps as what was tried, without their commands."""
    if not remedy:
        return []
    offered = not refused(remedy)
    lines = ["", f"  {md(remedy_heading(remedy))}", ""]
    if not offered:
        lines += ["  Tried:", ""]
    for number, step in enumerate(remedy["steps"], 1):
        lines.append(f"  {number}. {md(step['text'])}")
        if offered and step["command"]:
            lines.append(f"     {command_span(step['command'])}")
    return [*lines, ""]


def _findings(report: Report) -> list[str]:
    groups = _by_object(report["findings"])
    lines = ["## Findings by object", ""]
    if not groups:
        return [*lines, "No findings."]
    for group in groups[:OBJECT_LIMIT]:
        lines += [f"### {_subject_title(*_subject(group[0]))}", ""]
        for finding in group:
            lines += _finding_lines(finding)
        lines.append("")
    if len(groups) > OBJECT_LIMIT:
        lines.append(
            f"... and {len(groups) - OBJECT_LIMIT} more objects with findings "
            "(`olmtui check --output json` lists them all)."
        )
    return lines


def _resolved(entry: dict[str, Any]) -> list[str]:
    changes = change_lines(entry, md)
    if not changes:
        return ["Resolved: nothing to install."]
    return [
        f"Resolved: the next InstallPlan installs {_plural(len(changes), 'bundle')}:",
        "",
        *(f"- {line}" for line in changes),
    ]


def _unsatisfiable(entry: dict[str, Any]) -> list[str]:
    lines = [
        "Unsatisfiable: these constraints cannot all hold (causes first; drop any one and a "
        "solution exists):",
        "",
    ]
    for number, constraint in enumerate(entry["explanation"], 1):
        lines.append(f"{number}. {md(constraint['constraint'])}")
        if constraint["objects"]:
            lines.append(f"   Objects: {', '.join(md(o) for o in constraint['objects'])}")
        if constraint["fix"]:
            lines.append(f"   Fix: {md(constraint['fix'])}")
    return lines


def _entry_lines(entry: dict[str, Any]) -> list[str]:
    status = entry["status"]
    if status == "resolved":
        return _resolved(entry)
    if status == "unsatisfiable":
        return _unsatisfiable(entry)
    if status == "failed":
        return [f"Failed: OLM stops with: {md(entry['reason'] or '')}"]
    return [f"Not evaluated: {md(entry['reason'] or '')}"]


def _resolution(report: Report) -> list[str]:
    """What OLM's next sync would decide per namespace; without catalog content the
    namespaces it could not evaluate share one line."""
    entries = report.get("resolution") or []
    lines = ["## Resolution", ""]
    if not entries:
        return [*lines, "No namespace holds a Subscription."]
    shown, unevaluated = split_unevaluated(report)
    if shown:
        lines += [
            "What OLM's next sync would decide, from the objects and catalog content given.",
            "",
        ]
    for entry in shown[:OBJECT_LIMIT]:
        lines += [f"### Namespace {md(entry['namespace'])}", "", *_entry_lines(entry), ""]
    if len(shown) > OBJECT_LIMIT:
        lines += [f"... and {len(shown) - OBJECT_LIMIT} more namespaces.", ""]
    if unevaluated:
        more = " more" if shown else ""
        lines.append(
            f"Not evaluated in {unevaluated}{more} "
            f"{'namespace' if unevaluated == 1 else 'namespaces'} with Subscriptions: "
            "resolution needs `--catalog` content."
        )
    return lines


def _no_pending(report: Report) -> str:
    """What the note says when it draws no upgrade: "none" only when every installed
    Subscription's channel head is known; without catalog content it is not (R-UPG-1)."""
    unknown = report["summary"].get("subscriptionsHeadUnknown") or 0
    if not unknown:
        return "No Subscription has a next bundle other than its installed CSV."
    subs = _plural(unknown, "installed Subscription")
    if report["source"].get("catalogContent"):
        return (
            f"No pending upgrade is known; for {subs} it is unknown: the catalog content "
            "given does not order its channel."
        )
    return (
        f"Pending upgrades are unknown: without catalog content the next bundle of {subs} "
        "cannot be told. Give the catalogs' content with `--catalog` (an FBC directory, "
        "bundle directories or package manifests) to draw them."
    )


def _graphs(report: Report, graphs: Sequence[PendingGraph]) -> list[str]:
    lines = ["## Pending upgrades", ""]
    if not graphs:
        return [*lines, _no_pending(report)]
    for graph in graphs[:GRAPH_LIMIT]:
        ref = md(f"{graph.namespace}/{graph.name}")
        lines += [
            f"### Subscription {ref}: {md(graph.installed or '(nothing installed)')} → "
            f"{md(graph.next)}",
            "",
            *([f"Not the channel head: {md(graph.because)}", ""] if graph.because else []),
            "Bundles on its way to the channel head (`olmtui graph` draws the whole channel):",
            "",
            "```mermaid",
            graph.mermaid,
            "```",
            "",
        ]
    if len(graphs) > GRAPH_LIMIT:
        lines.append(f"... and {len(graphs) - GRAPH_LIMIT} more pending upgrades.")
    return lines


def _v1(report: Report) -> list[str]:
    """The OLM v1 objects (R-V1-*); no lines on a cluster without them."""
    extensions, catalogs = extension_rows(report), catalog_rows(report)
    if not extensions and not catalogs:
        return []
    lines = ["## OLM v1", ""]
    lines += [f"- ClusterExtension {md(n)}: {md(a)}; {md(b)}" for n, a, b in extensions]
    lines += [f"- ClusterCatalog {md(n)}: {md(words)}" for n, words in catalogs]
    return [*lines, ""]


def _migration(report: Report) -> list[str]:
    """Every operator's migration to OLM v1 (R-MIG-12), with the ClusterExtension YAML of an
    eligible one to copy (R-MIG-13); no lines on a cluster without OLM v1."""
    rows = migration_rows(report)
    if not rows:
        return []
    lines = ["## Migration to OLM v1", "", f"{state_counts(rows)}.", ""]
    for row in rows:
        lines.append(f"- {md(row.subject)}: **{row.state}**, {md(row.reason)}")
        lines += [f"  - {md(line)}" for line in (*row.failing, *row.notes)]
        if row.extension is not None:
            lines += [
                "",
                "  ```yaml",
                *(f"  {line}" for line in row.extension.splitlines()),
                "  ```",
            ]
    return [*lines, ""]


def _lifecycles(report: Report) -> list[str]:
    """The installed operators' support lifecycle (R-LCY-2); no lines without a lifecycle
    document in the catalog content."""
    lines = [
        f"- CSV {md(c['namespace'])}/{md(c['name'])}: {md(c['lifecycle']['summary'])}"
        for c in report["csvs"]
        if c.get("lifecycle") is not None
    ]
    lines += [
        f"- ClusterExtension {md(e['name'])}: {md(e['lifecycle']['summary'])}"
        for e in report.get("clusterExtensions") or []
        if e.get("lifecycle") is not None
    ]
    return ["## Support lifecycle", "", *lines, ""] if lines else []


def _cluster_upgrade(report: Report) -> list[str]:
    """What holds the next OpenShift minor (R-CUP-6); no lines off OpenShift."""
    headline = upgrade_headline(report)
    if headline is None:
        return []
    lines = ["## Cluster upgrade", "", md(headline), ""]
    lines += [
        f"- **{md(source)}** {md(what)}: {md(message)}"
        for source, what, message in blocker_rows(report)
    ]
    return [*lines, ""]


def _next_catalog(report: Report) -> list[str]:
    """Each installed operator against ``--next-catalog`` (R-NXT-1 .. R-NXT-6)."""
    lines = next_catalog_lines(report)
    if not lines:
        return []
    return ["## Next catalog", "", *(f"- {md(line)}" for line in lines), ""]


def render_markdown(
    report: Report,
    *,
    label: str,
    when: dt.datetime | None,
    graphs: Sequence[PendingGraph] = (),
    timelines: Mapping[str, Timeline] | None = None,
    timeline_reference: dt.datetime | None = None,
) -> str:
    """The note: title with the source and its time, summary, incidents (each with its
    ``timelines`` entry, times relative to ``timeline_reference``), findings by object, what
    the resolver decides per namespace, then the pending upgrades drawn in Mermaid.
    ``label`` names the source (context or paths)."""
    counts = report["summary"]["findings"]
    verdict = (
        _plural(counts["error"], "error")
        if counts["error"]
        else ("no errors" if not counts["warning"] else _plural(counts["warning"], "warning"))
    )
    lines = [
        f"# OLM check: {verdict}",
        "",
        f"Source: {_source_line(report, label, when)}.",
        "",
        *_summary(report),
        "",
        *_incidents(report, timelines, timeline_reference),
        "",
        *_findings(report),
        "",
        *_resolution(report),
        "",
        *_v1(report),
        *_migration(report),
        *_lifecycles(report),
        *_cluster_upgrade(report),
        *_next_catalog(report),
        *_graphs(report, graphs),
    ]
    return without_surrogates("\n".join(lines).rstrip("\n") + "\n")
