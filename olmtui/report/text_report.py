"""The readable ``olmtui check`` output, rendered from the JSON report dict.

Short and scannable: the counts, then the incidents grouped by severity (errors first), each
its root finding with the few evidence lines that prove it (R-EVD-10, ``evidence_text``)
and the findings that follow from it folded under it (R-DIAG-9),
then one block per OperatorGroup (targets, members, the conflicts of each member; which
groups merely intersect is left to the JSON), the CSVs that are in no group, copied-CSV
status, the Subscriptions with their effective approval, and what OLM's resolver would
decide per namespace (one line when no catalog content was given).
Long namespace lists and long runs of one finding code are cut, with a count of what was
left out (``--output json`` has everything). Every name and message comes from the
cluster, so control characters are escaped before printing: nothing in them can move the
cursor or change colours. Colour (plain ANSI, no markup parsing) only when asked for.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import groupby
from typing import IO, Any

from olmtui.kinds import CATALOG_SOURCE, CSV, INSTALL_PLAN, NAMESPACE, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.records.types import Finding
from olmtui.model.viewmodels.views import findings_by_subject, subscription_state_view
from olmtui.report.context_line import context_words, incomplete_words
from olmtui.report.evidence_text import evidence_block, evidence_lines
from olmtui.report.json_report import Report, without_surrogates
from olmtui.report.migration_sections import migration_rows, state_counts
from olmtui.report.next_catalog_json import next_catalog_lines
from olmtui.report.upgrade_sections import blocker_rows, upgrade_headline
from olmtui.report.v1_sections import catalog_rows, extension_rows
from olmtui.safe_text import visible

WIDTH = 100
#: How many names of a list to print before "(+N more)".
LIST_LIMIT = 6
#: How many findings of one code to print before "... and N more".
FINDINGS_PER_CODE = 5

_SEVERITY_TITLES = (("error", "ERRORS"), ("warning", "WARNINGS"), ("info", "INFO"))
_SEVERITY_COLOURS = {"error": "1;31", "warning": "1;33", "info": "1;36"}
#: The kinds whose findings qualify a Subscription's state (``subscription_state_view``).
_QUALIFYING = frozenset({SUBSCRIPTION, CSV})
#: A group whose spec selects no namespace (report mode "None").
_NO_TARGETS = "no targets (selects no namespace)"


def safe(text: object) -> str:
    """Untrusted text with every control and bidi character shown as an escape, never
    obeyed (``olmtui.safe_text``, the sanitiser the dashboard uses too)."""
    return visible(str(text))


def _one_line(text: str) -> str:
    return safe(" ".join(text.split()))


def _ref(namespace: str | None, name: str | None) -> str:
    return safe(f"{namespace}/{name}" if namespace else (name or ""))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _names(items: Sequence[str], limit: int = LIST_LIMIT) -> str:
    """A short comma list; ``[""]`` reads as "all namespaces", ``[]`` as "none"."""
    if list(items) == [""]:
        return "all namespaces"
    if not items:
        return "none"
    shown = ", ".join(safe(i) for i in items[:limit])
    return shown if len(items) <= limit else f"{shown} (+{len(items) - limit} more)"


#: Lines a :class:`Writer` with a sink gathers before passing them on.
_FLUSH_LINES = 2000


class Writer:
    """Lines of text output, wrapped and (on a terminal) coloured; ``explain`` writes with
    it too. With a ``sink``, the lines go to it a few thousand at a time, as text ending in a
    newline (the output on 400,000 groups is never held whole)."""

    def __init__(
        self,
        colour: bool,
        sink: Callable[[str], object] | None = None,
        width: int | None = None,
    ) -> None:
        self.colour = colour
        #: The terminal's columns when the output is one: evidence lines are cut to it.
        self.width = width
        self.lines: list[str] = []
        self._sink = sink
        self._passed_on = False

    def flush(self) -> None:
        """Pass the lines gathered on to the sink (none: they stay in ``lines``)."""
        if self._sink is not None and self.lines:
            self._sink(without_surrogates("\n".join(self.lines) + "\n"))
            self.lines = []
            self._passed_on = True

    def paint(self, text: str, sgr: str) -> str:
        return f"\x1b[{sgr}m{text}\x1b[0m" if self.colour else text

    def line(self, text: str = "") -> None:
        self.lines.append(text)
        if len(self.lines) >= _FLUSH_LINES:
            self.flush()

    def wrapped(self, text: str, indent: int, hang: int = 0) -> None:
        """``text`` wrapped at WIDTH, its lines after the first ``hang`` columns deeper."""
        self.lines.extend(
            textwrap.wrap(
                text,
                WIDTH,
                initial_indent=" " * indent,
                subsequent_indent=" " * (indent + hang),
                break_on_hyphens=False,
                break_long_words=False,
            )
            or [" " * indent]
        )
        if len(self.lines) >= _FLUSH_LINES:
            self.flush()

    def heading(self, text: str, sgr: str = "1") -> None:
        if self.lines or self._passed_on:
            self.line()
        self.line(self.paint(text, sgr))


def _header(out: Writer, report: Report, unread: set[str]) -> None:
    source, summary = report["source"], report["summary"]
    if source["kind"] == "live":
        origin = "live cluster"
    elif source["kind"] == "recording":
        origin = f"recording {safe(source['paths'][0]) if source['paths'] else ''}"
    else:
        origin = f"snapshot of {_plural(len(source['paths']), 'path')}"
    # line one: when, which versions, how complete (the context comes first)
    context = context_words(source)
    incomplete = incomplete_words(source)
    told = context[: len(context) - bool(incomplete)]
    first = ", ".join([f"olmtui check: {origin}", *(safe(words) for words in told)])
    if incomplete:
        first += " — " + out.paint(safe(incomplete), _SEVERITY_COLOURS["warning"])
    out.line(first)
    out.line(f"{_plural(source['objects'], 'object')} read, {source['skipped']} skipped")
    logs = source.get("logs")
    if logs:  # R-EVD-10: what of OLM's logs was read, and cut
        out.line(
            f"OLM logs: {_plural(logs['files'], 'file')}, {_plural(logs['lines'], 'line')} read"
        )
        for cut in logs["cut"]:
            out.line(out.paint(f"  {safe(cut)}", _SEVERITY_COLOURS["info"]))
    read = source.get("namespaces")
    if read is not None:  # a --namespace session: elsewhere is unknown, not absent
        out.line(f"read: namespaces {safe(', '.join(read))} only")
    if source["skipped"]:
        out.line(
            out.paint(
                f"{_plural(source['skipped'], 'document')} could not be read — the snapshot is "
                "incomplete, findings may be missing or wrong",
                _SEVERITY_COLOURS["warning"],
            )
        )

    # ``unread``: kinds olmtui may not read (LiveNoAccess): their counts are unknown, not 0
    def count(key: str, kind: str, noun: str) -> str:
        return f"? {noun}s (no access)" if kind in unread else _plural(summary[key], noun)

    csvs = (
        "? CSVs (no access)"
        if CSV in unread
        else f"{_plural(summary['csvs'], 'CSV')} (+{summary['copiedCSVs']} copied)"
    )
    out.line(
        ", ".join(
            [
                count("namespaces", NAMESPACE, "namespace"),
                count("operatorGroups", OPERATOR_GROUP, "OperatorGroup"),
                csvs,
                count("subscriptions", SUBSCRIPTION, "Subscription"),
                count("installPlans", INSTALL_PLAN, "InstallPlan"),
                count("catalogSources", CATALOG_SOURCE, "CatalogSource"),
            ]
        )
    )
    counts = summary["findings"]
    out.line(
        "Findings: "
        + ", ".join(
            [
                out.paint(_plural(counts["error"], "error"), _SEVERITY_COLOURS["error"])
                if counts["error"]
                else "0 errors",
                _plural(counts["warning"], "warning"),
                f"{counts['info']} info",
            ]
        )
    )
    incidents = summary.get("incidents")
    if incidents is not None:
        out.line(
            "Incidents (one per root cause): "
            + ", ".join(
                [
                    _plural(incidents["error"], "error"),
                    _plural(incidents["warning"], "warning"),
                    f"{incidents['info']} info",
                ]
            )
        )
    metrics = summary.get("metrics")
    if metrics is not None:
        out.line(_metrics_line(metrics))


def _metrics_line(metrics: dict[str, Any]) -> str:
    """OLM's metrics by their Prometheus names; ``?`` is a count over a
    kind olmtui may not read (no access is not zero)."""
    sync = metrics["subscription_sync_total"]

    def shown(name: str) -> str:
        value = metrics[name]
        return "? (no access)" if value is None else str(value)

    abnormal = (
        "? (no access)" if metrics["csv_count"] is None else str(len(metrics["csv_abnormal"]))
    )
    return "Metrics: " + ", ".join(
        [
            f"catalog_source_count {shown('catalog_source_count')}",
            f"csv_count {shown('csv_count')}",
            f"csv_succeeded {shown('csv_succeeded')}",
            f"csv_abnormal {abnormal}",
            f"csv_upgrade_count {shown('csv_upgrade_count')} "
            f"({metrics['csv_upgrade_count_source']})",
            f"install_plan_count {shown('install_plan_count')}",
            f"subscription_count {shown('subscription_count')}",
            f"subscription_sync_total {'not observable' if sync is None else sync}",
        ]
    )


def _subject(finding: dict[str, Any]) -> str:
    return " ".join(
        part
        for part in (safe(finding["kind"] or ""), _ref(finding["namespace"], finding["name"]))
        if part
    )


def _object_names(objects: Iterable[dict[str, Any]], total: int) -> str:
    shown: list[str] = []
    for obj in objects:
        if len(shown) == LIST_LIMIT:
            break
        shown.append(f"{safe(obj['kind'])} {_ref(obj['namespace'], obj['name'])}")
    more = f" (+{total - len(shown)} more)" if total > len(shown) else ""
    return ", ".join(shown) + more


#: What the text keeps of a finding it shows: severity, code, subject, message, remedy, the
#: number of its related objects and the few evidence lines shown with how many are left
#: (never the whole entry: its evidence may be long).
_Shown = tuple[str, str, str, str, dict[str, Any] | None, int, tuple[list[str], int]]


def _shown(finding: dict[str, Any], root: bool = True) -> _Shown:
    """``root``: keep its remedy and evidence (a consequence's are not shown)."""
    return (
        finding["severity"],
        finding["code"],
        _subject(finding),
        finding["message"],
        finding.get("remedy") if root else None,
        len(finding.get("related") or ()),
        evidence_lines(finding) if root else ([], 0),
    )


class _Run:
    """A run of incident roots of one code under one severity: the first
    ``FINDINGS_PER_CODE`` kept with their incident, the others counted."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.roots: list[tuple[_Shown, str]] = []
        self.left = 0

    def add(self, root: dict[str, Any]) -> None:
        if len(self.roots) < FINDINGS_PER_CODE:
            self.roots.append((_shown(root), root.get("incident") or ""))
        else:
            self.left += 1


class _Gathered:
    """What the text shows of the findings, from one pass over the incidents and one over
    the findings (either may be entries built as read, each finding's remedy proven as its
    entry is built: a second pass would try every remedy again): the kinds olmtui may not
    read (LiveNoAccess), the roots to show by severity in runs of one code, the findings
    that follow from each root, the blast radius of incidents that name more than their
    root's object (R-DIAG-9), and the findings that qualify a Subscription's state."""

    def __init__(self, report: Report) -> None:
        severity: dict[str, str] = {}
        self.affected: dict[str, tuple[str, int]] = {}
        for incident in report.get("incidents") or ():
            if incident["consequences"]:
                severity[incident["id"]] = incident["severity"]
            affected = incident["affected"]
            if len(affected) > 1:
                self.affected[incident["id"]] = (
                    _object_names(affected, len(affected)),
                    len(affected),
                )
        self.unread: set[str] = set()
        self.consequences: dict[str, list[_Shown]] = {}
        self.runs: dict[str, list[_Run]] = {s: [] for s, _ in _SEVERITY_TITLES}
        self.roots: Counter[str] = Counter()
        self.qualifying: list[Finding] = []
        qualify = bool(report["subscriptions"])
        for finding in report["findings"]:
            if finding["code"] == "LiveNoAccess":
                self.unread.add(finding["kind"])
            if qualify and finding["kind"] in _QUALIFYING:
                self.qualifying.append(
                    Finding(
                        finding["severity"],
                        finding["code"],
                        finding["kind"] or "",
                        finding["namespace"] or "",
                        finding["name"] or "",
                        finding["message"],
                        finding["rule"],
                    )
                )
            incident = finding.get("incident") or ""
            if finding.get("cause") is not None:
                self.consequences.setdefault(incident, []).append(_shown(finding, False))
                continue
            worst = severity.get(incident, finding["severity"])
            self.roots[worst] += 1
            runs = self.runs[worst]
            if not runs or runs[-1].code != finding["code"]:
                runs.append(_Run(finding["code"]))
            runs[-1].add(finding)


def _findings(out: Writer, report: Report, gathered: _Gathered) -> None:
    """Incidents by severity, each its root finding with what it affects and the findings
    that follow from it folded under it; at most ``FINDINGS_PER_CODE`` of a run of one root
    code."""
    counts = report["summary"].get("incidents") or gathered.roots
    for severity, title in _SEVERITY_TITLES:
        if not counts[severity]:
            continue
        out.heading(f"{title} ({counts[severity]})", _SEVERITY_COLOURS[severity])
        for run in gathered.runs[severity]:
            for root, incident in run.roots:
                own, code, subject, message, remedy, related, evidence = root
                out.line(f"  {out.paint(safe(code), _SEVERITY_COLOURS[own])}  {subject}")
                out.wrapped(_one_line(message), 6)
                for line in evidence_block(evidence, 6, out.width):  # R-EVD-10
                    out.line(line)
                _remedy(out, remedy)
                _folded(out, gathered, incident, related)
            if run.left:
                out.line(f"  ... and {run.left} more {safe(run.code)}")


def refused(remedy: dict[str, Any]) -> bool:
    """Whether the simulation ran the remedy and it failed: then ``outcome`` says what would
    happen instead, and it is not offered as the fix."""
    return (
        remedy["verified"] != "simulated" and remedy["missing"] is None and bool(remedy["outcome"])
    )


def remedy_heading(remedy: dict[str, Any]) -> str:
    """``Remedy (simulated): what the trial showed``, ``Remedy (not simulated: what was
    missing)``, or, for a remedy the trial refused, ``The obvious remedy would not work:
    what would happen instead``."""
    if remedy["verified"] == "simulated":
        return f"Remedy (simulated): {remedy['outcome']}".rstrip()
    if refused(remedy):
        return f"The obvious remedy would not work: {remedy['outcome']}"
    missing = str(remedy["missing"] or "").removeprefix("not simulated: ")
    return f"Remedy (not simulated: {missing})" if missing else "Remedy (not simulated)"


def _remedy(out: Writer, remedy: dict[str, Any] | None) -> None:
    """A finding's remedy under it: its steps numbered, each command on a line of its own,
    never wrapped, so that it can be copied whole (shown, never run). A refused remedy's
    steps are listed as what was tried, without their commands."""
    if not remedy:
        return
    out.wrapped(_one_line(remedy_heading(remedy)), 6)
    offered = not refused(remedy)
    if not offered:
        out.line("      tried:")
    for number, step in enumerate(remedy["steps"], 1):
        out.wrapped(_one_line(f"{number}. {step['text']}"), 8, 3)
        if offered and step["command"]:
            out.line(" " * 11 + "$ " + _one_line(step["command"]))


def _folded(out: Writer, gathered: _Gathered, incident: str, related: int) -> None:
    """Under a root: the objects its incident affects when that says more than the root's
    own object and related ones, and the findings that follow from it."""
    following = gathered.consequences.get(incident, ())
    names, total = gathered.affected.get(incident, ("", 0))
    if following or total > 1 + related:
        out.wrapped(f"affects: {names}", 6, 9)
    if following:
        out.line(f"      follows from it ({len(following)}):")
    for severity, code, subject, message, _, _, _ in following:
        colour = _SEVERITY_COLOURS[severity]
        out.line(f"      - {out.paint(safe(code), colour)}  {subject}")
        out.wrapped(_one_line(message), 10)


def _status(csv: dict[str, Any]) -> str:
    observed = "/".join(safe(p) for p in (csv["phase"], csv["reason"]) if p) or "no status"
    verdict = csv["verdict"]
    if verdict is None and csv["apiReconciliation"] == "RemoveAPIs":
        # R-API-6 step 4: no phase change yet; the conflict failure is the step after.
        return f"{observed} -> next sync strips its APIs from the group (RemoveAPIs)"
    if verdict is None or (verdict["phase"], verdict["reason"]) == (csv["phase"], csv["reason"]):
        return observed
    return f"{observed} -> next sync: {safe(verdict['phase'])}/{safe(verdict['reason'])}"


def _csv_lines(out: Writer, csv: dict[str, Any], indent: int, label: str) -> None:
    pad = " " * indent
    version = f" {safe(csv['version'])}" if csv["version"] else ""
    out.line(f"{pad}{label}{version}  {_status(csv)}")
    if csv.get("lifecycle") is not None:  # R-LCY-2
        out.wrapped(safe(csv["lifecycle"]["summary"]), indent + 4)
    for conflict in csv["conflicts"]:
        out.wrapped(
            f"conflicts with {safe(conflict['operatorGroup'])} on {_names(conflict['apis'])}"
            f" in {_names(conflict['namespaces'])}",
            indent + 4,
        )


def _operator_groups(out: Writer, report: Report) -> None:
    csvs = {(csv["namespace"], csv["name"]): csv for csv in report["csvs"]}
    grouped: set[tuple[str, str]] = set()
    if report["operatorGroups"]:
        out.heading("OPERATOR GROUPS")
    for og in report["operatorGroups"]:
        flags = ", static" if og["static"] else ""
        if og["targetNamespaces"]:
            shape = (
                f"{safe(og.get('mode') or '')}{flags}, targets: {_names(og['targetNamespaces'])}"
            )
        else:
            shape = f"{_NO_TARGETS}{flags}"
        out.wrapped(f"{_ref(og['namespace'], og['name'])}  {shape}", 2, 4)
        if og["statusNamespaces"] != og["targetNamespaces"]:
            observed = og["statusNamespaces"]
            out.line(f"    status.namespaces: {'absent' if observed is None else _names(observed)}")
        if og["providedAPIs"] != og["expectedProvidedAPIs"]:
            out.wrapped(
                f"olm.providedAPIs: {_names(og['providedAPIs'])}; "
                f"expected: {_names(og['expectedProvidedAPIs'])}",
                4,
            )
        if not og["members"]:
            out.line("    members: none")
        for member in og["members"]:
            key = (og["namespace"], member)
            grouped.add(key)
            if key in csvs:
                _csv_lines(out, csvs[key], 4, safe(member))
            else:
                out.line(f"    {safe(member)}")
    ungrouped = [csv for key, csv in csvs.items() if key not in grouped]
    if ungrouped:
        out.heading("CSVs IN NO OPERATORGROUP")
        for csv in ungrouped:
            _csv_lines(out, csv, 2, _ref(csv["namespace"], csv["name"]))


def _copied_csvs(out: Writer, copies: dict[str, Any]) -> None:
    out.heading("COPIED CSVs")
    out.line(
        f"  {copies['present']} present, {len(copies['missing'])} missing, "
        f"{len(copies['stale'])} stale"
    )
    for csv, group in groupby(copies["missing"], key=lambda m: m["csv"]):
        out.wrapped(f"missing: {safe(csv)} in {_names([m['namespace'] for m in group])}", 4)
    for stale in copies["stale"][:LIST_LIMIT]:
        out.wrapped(
            f"stale: {_ref(stale['namespace'], stale['name'])} (from "
            f"{safe(stale['copiedFrom'])}): {_one_line(stale['reason'])}",
            4,
        )
    if len(copies["stale"]) > LIST_LIMIT:
        out.line(f"    ... and {len(copies['stale']) - LIST_LIMIT} more stale copies")


def _state_problems(
    report: Report, qualifying: Sequence[Finding]
) -> dict[tuple[str, str], tuple[str, ...]]:
    """``(namespace, name)`` -> what qualifies each Subscription's state, worst first, from the
    report's own findings on Subscriptions and CSVs (``qualifying``, gathered with the rest)
    and CSV phases (``model.views.subscription_state_view``, as the Subscriptions view
    shows it): OLM leaves ``AtLatestKnown`` on a Subscription whose plan failed or whose
    namespace resolves nothing (R-SUB-5, R-SUB-9). None when there is no Subscription."""
    if not report["subscriptions"]:
        return {}
    by_subject = findings_by_subject(qualifying)
    phases = {(c["namespace"], c["name"]): c["phase"] or "" for c in report["csvs"]}
    out = {}
    for sub in report["subscriptions"]:
        ns, installed = sub["namespace"], sub["installedCSV"] or ""
        view = subscription_state_view(
            sub["state"],
            (),
            by_subject.get((SUBSCRIPTION, ns, sub["name"]), ()),
            phases.get((ns, installed)),
            by_subject.get((CSV, ns, installed), ()),
        )
        out[(ns, sub["name"])] = view.problems
    return out


def _subscriptions(
    out: Writer,
    subscriptions: Sequence[dict[str, Any]],
    problems: dict[tuple[str, str], tuple[str, ...]],
) -> None:
    if not subscriptions:
        return
    out.heading("SUBSCRIPTIONS")
    for sub in subscriptions:
        channel = f"@{safe(sub['channel'])}" if sub["channel"] else ""
        out.wrapped(
            f"{_ref(sub['namespace'], sub['name'])}  {safe(sub['package'])}{channel} "
            f"from {_ref(sub['sourceNamespace'], sub['source'])}",
            2,
            4,
        )
        approval = safe(sub["approval"])
        if sub["effectiveApproval"] != sub["approval"]:
            approval += f" (effective {safe(sub['effectiveApproval'])}: another Subscription"
            approval += " in the namespace is Manual)"
        qualified = problems.get((sub["namespace"], sub["name"])) or ()
        details = [
            f"approval {approval}",
            f"state {safe(sub['state'] or 'none')}"
            + (f" ({safe(', '.join(qualified))})" if qualified else ""),
            f"installed {safe(sub['installedCSV'] or 'nothing')}",
        ]
        plan = sub["installPlan"]
        if plan is not None:
            details.append(f"InstallPlan {safe(plan['name'])} {safe(plan['phase'] or '')}".rstrip())
        details += _upgrade_details(sub)
        out.wrapped(", ".join(details), 4)


def _upgrade_details(sub: dict[str, Any]) -> list[str]:
    """Where the Subscription goes next (R-UPG-2, R-UPG-5), when a graph is known."""
    upgrade = sub["upgrade"]
    if upgrade["graph"] == "none":
        return []
    path = upgrade["path"]
    # R-RES-17: the resolver's pick, with why it is not the head, is the one answer
    because = upgrade.get("notHeadBecause") if upgrade.get("decidedBy") == "resolver" else None
    why = [f"not the head: {safe(because)}"] if because else []
    if upgrade["next"]:
        to_head = f" ({len(path)} hops to {safe(path[-1])})" if len(path) > 1 else ""
        return [f"next {safe(upgrade['next'])}{to_head}", *why]
    if why:
        return ["no next", *why]
    if upgrade["graph"] == "catalog" and upgrade["head"] is None:
        # R-UPG-1: a channel OLM cannot order has no head, so nothing is next.
        return ["no next: OLM cannot order the channel (see ChannelGraphError)"]
    if sub["installedCSV"] and sub["installedCSV"] == upgrade["head"]:
        return ["at the channel head"]
    return ["no upgrade known from here"]


def _resolution(out: Writer, report: Report) -> None:
    """What OLM's next sync would decide per namespace (``resolution[]``). Without catalog
    content the namespaces it could not evaluate share one line, so that a report made
    without ``--catalog`` stays as short as before."""
    entries = report.get("resolution") or []
    if not entries:
        return
    out.heading("RESOLUTION")
    shown, unevaluated = split_unevaluated(report)
    if shown:
        out.line("  what OLM's next sync would decide, from the objects and catalog content given")
    for entry in shown:
        resolution_lines(out, entry, 2)
    if unevaluated:
        more = " more" if shown else ""
        noun = "namespace" if unevaluated == 1 else "namespaces"
        out.wrapped(
            f"not evaluated in {unevaluated}{more} {noun} with Subscriptions: resolution needs "
            "--catalog content",
            2,
            4,
        )


def split_unevaluated(report: Report) -> tuple[list[dict[str, Any]], int]:
    """The ``resolution[]`` entries to show one by one, and how many not-evaluated ones to
    count in one line instead: all of them when no catalog content was given (R-RES-22,
    each would only say that it is missing), none otherwise."""
    entries = report.get("resolution") or []
    if report["source"].get("catalogContent"):
        return list(entries), 0
    shown = [e for e in entries if e["status"] != "not-evaluated"]
    return shown, len(entries) - len(shown)


def why(operator: dict[str, Any]) -> str:
    """Why an operator is in the solution, from its ``for`` (R-RES-20), as words."""
    reason = str(operator["for"])
    if reason == "existing":
        return "installed, kept"
    if reason.startswith("dependency of "):
        return f"a {reason}"
    return f"for {reason}"


def change_lines(entry: dict[str, Any], escape: Callable[[str], str] = safe) -> list[str]:
    """The bundles the next InstallPlan would install: name, what it replaces, why; each
    cluster or catalog text passed through ``escape`` (Markdown passes its own)."""
    operators = {o["name"]: o for o in entry["operators"]}
    lines = []
    for name in entry["changes"]:
        operator = operators.get(name)
        if operator is None:
            lines.append(escape(name))
            continue
        replaces = f" replaces {escape(operator['replaces'])}" if operator["replaces"] else ""
        lines.append(
            f"{escape(name)}{replaces} (package {escape(operator['package'])}, channel "
            f"{escape(operator['channel'])}, catalog {escape(operator['catalog'])}; "
            f"{escape(why(operator))})"
        )
    return lines


def resolution_lines(out: Writer, entry: dict[str, Any], indent: int) -> None:
    """One namespace's outcome: the changes, the explanation (causes first, each constraint
    in OLM's words with its objects and fix), or why resolution stopped or was not done."""
    pad = indent + 2
    status, ns = entry["status"], safe(entry["namespace"])
    if status == "resolved":
        changes = change_lines(entry)
        if not changes:
            out.wrapped(f"{ns}  resolved: nothing to install", indent, 4)
            return
        out.wrapped(
            f"{ns}  resolved: the next InstallPlan installs {_plural(len(changes), 'bundle')}",
            indent,
            4,
        )
        for line in changes:
            out.wrapped(line, pad, 4)
    elif status == "unsatisfiable":
        out.wrapped(
            f"{ns}  unsatisfiable: these constraints cannot all hold (causes first; drop any "
            "one and a solution exists)",
            indent,
            4,
        )
        for number, constraint in enumerate(entry["explanation"], 1):
            out.wrapped(f"{number}. {_one_line(constraint['constraint'])}", pad, 3)
            if constraint["objects"]:
                out.wrapped(f"objects: {', '.join(map(safe, constraint['objects']))}", pad + 3, 4)
            if constraint["fix"]:
                out.wrapped(f"fix: {_one_line(constraint['fix'])}", pad + 3, 4)
    elif status == "failed":
        out.wrapped(f"{ns}  failed: OLM stops with: {_one_line(entry['reason'] or '')}", indent, 4)
    else:
        out.wrapped(f"{ns}  not evaluated: {_one_line(entry['reason'] or '')}", indent, 4)


def _v1(out: Writer, report: Report) -> None:
    """The OLM v1 objects (R-V1-*); nothing on a cluster without them."""
    extensions, catalogs = extension_rows(report), catalog_rows(report)
    if not extensions and not catalogs:
        return
    out.heading("OLM V1")
    if extensions:
        out.line("  ClusterExtensions")
    for name, first, second in extensions:
        out.wrapped(f"{safe(name)}  {safe(first)}", 4, 4)
        out.wrapped(safe(second), 6, 4)
    if catalogs:
        out.line("  ClusterCatalogs")
    for name, words in catalogs:
        out.wrapped(f"{safe(name)}  {safe(words)}", 4, 4)


def _migration(out: Writer, report: Report) -> None:
    """Every operator's migration to OLM v1 (R-MIG-12): its state, the rules it does not
    pass, and the ClusterExtension a conversion would create (R-MIG-13)."""
    rows = migration_rows(report)
    if not rows:
        return
    out.heading("MIGRATION TO OLM V1")
    out.line(f"  {safe(state_counts(rows))} (the migration tool's rules C1..C10, read only)")
    for row in rows:
        out.wrapped(f"{safe(row.subject)}  {row.state}: {safe(row.reason)}", 4, 4)
        for line in (*row.failing, *row.notes):
            out.wrapped(safe(line), 6, 4)
        if row.extension is not None:
            for line in row.extension.splitlines():
                out.line("      " + safe(line))


def _cluster_upgrade(out: Writer, report: Report) -> None:
    """What holds the next OpenShift minor (R-CUP-6); nothing off OpenShift."""
    headline = upgrade_headline(report)
    if headline is None:
        return
    out.heading("CLUSTER UPGRADE")
    out.wrapped(safe(headline), 2, 4)
    for source, what, message in blocker_rows(report):
        out.wrapped(f"[{source}] {safe(what)}", 4, 4)
        out.wrapped(safe(message), 6)


def _next_catalog(out: Writer, report: Report) -> None:
    """Each installed operator against ``--next-catalog`` (R-NXT-1 .. R-NXT-6)."""
    lines = next_catalog_lines(report)
    if not lines:
        return
    out.heading("NEXT CATALOG")
    for line in lines:
        out.wrapped(safe(line), 2, 4)


def render_text(report: Report, *, colour: bool = False, width: int | None = None) -> str:
    """The text output of ``olmtui check`` for a report built by ``report_json``; ``width``:
    the terminal's columns when the output is one (evidence lines are cut to it)."""
    out = Writer(colour, width=width)
    _render(out, report)
    return without_surrogates("\n".join(out.lines) + "\n")


def write_text(
    report: Report, stream: IO[str], *, colour: bool = False, width: int | None = None
) -> None:
    """:func:`render_text` written to ``stream`` a few thousand lines at a time, the same
    text (``without_surrogates`` escapes single characters, so piece by piece is the same)."""
    out = Writer(colour, stream.write, width)
    _render(out, report)
    out.flush()


def _render(out: Writer, report: Report) -> None:
    gathered = _Gathered(report)
    _header(out, report, gathered.unread)
    _findings(out, report, gathered)
    _operator_groups(out, report)
    _copied_csvs(out, report["copiedCSVs"])
    _subscriptions(out, report["subscriptions"], _state_problems(report, gathered.qualifying))
    _resolution(out, report)
    _v1(out, report)
    _migration(out, report)
    _cluster_upgrade(out, report)
    _next_catalog(out, report)
