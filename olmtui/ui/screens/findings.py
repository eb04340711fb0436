"""Findings: every problem, by incident (each root cause first, the findings that follow from
it under it), with what, why, which rule and objects, what to do.

``/`` filters on the text and on ``sev:``, ``kind:`` and ``ns:`` words (``/sev:error``,
``/!ns:openshift``); Enter opens the object, whose detail lists the related ones to jump to,
or, on a finding about a namespace's resolution, that namespace's Resolution view.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from textual.binding import Binding

from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Evidence, Finding, ObjectRef
from olmtui.model.rules.resolution.concerns import RESOLUTION_CODES
from olmtui.model.viewmodels.finding_evidence import finding_evidence
from olmtui.pipeline.time_control import FindingTimes
from olmtui.ui import palette
from olmtui.ui.evidence_text import evidence_text
from olmtui.ui.formatting import SEVERITY_STYLE, SHORT_KINDS, severity
from olmtui.ui.inert import inert_text
from olmtui.ui.loading_bar import LOADING_TEXT
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.remedy_preview import open_preview, verdict
from olmtui.ui.screens.timeline import open_incident_timeline
from olmtui.ui.widgets.virtual_table import Column, Row

#: Objects an incident's detail names before "(+N more)".
_AFFECTED_SHOWN = 12


def finding_ref(finding: Finding) -> ObjectRef | None:
    """The object a finding is about (or its first related object when it names none)."""
    if finding.kind in ("File", "") or (not finding.name and not finding.related):
        return None
    if finding.name:
        return ObjectRef(finding.kind, finding.namespace, finding.name)
    return finding.related[0]


def resolution_namespace(finding: Finding) -> str | None:
    """The namespace whose Resolution view a finding opens (its subject is the namespace's
    resolution, not an object), else ``None``."""
    if finding.code not in RESOLUTION_CODES:
        return None
    return finding.name or finding.namespace or None


def finding_search(finding: Finding) -> str:
    return " ".join(
        (
            f"sev:{finding.severity}",
            f"kind:{finding.kind}",
            f"ns:{finding.namespace}",
            finding.code,
            finding.name,
            finding.rule,
            finding.message,
        )
    ).lower()


def remedy_text(remedy: Remedy) -> Text:
    """A remedy's steps, numbered, each command on its own line as it is to be typed (shown,
    never run); every piece cluster text, so plain Text made inert, never markup."""
    text = Text(f"remedy ({verdict(remedy)}):", style="bold")
    for number, step in enumerate(remedy.steps, 1):
        text.append(f"\n {number}. {step.text}")
        if step.command:
            text.append(f"\n    $ {step.command}", style=palette.MUTED)
    return inert_text(text)


def explain(
    finding: Finding, remedy: Remedy | None = None, evidence: Sequence[Evidence] = ()
) -> RenderableType:
    """What, why (the message carries OLM's reason), rule, objects, the evidence (fields,
    Events, log lines: R-EVD-10), and the remedy's steps."""
    title = Text()
    title.append(finding.severity.upper(), style=SEVERITY_STYLE[finding.severity])
    title.append(f"  {finding.code}  ", style="bold")
    title.append(f"{finding.kind} {finding.namespace}/{finding.name}".replace(" /", " "))
    parts: list[RenderableType] = [title, Text(finding.message)]
    if finding.rule:
        parts.append(Text(f"rule: {finding.rule} (docs/rules.md)", style=palette.MUTED))
    if finding.related:
        parts.append(
            Text("objects: " + ", ".join(str(r) for r in finding.related), style=palette.MUTED)
        )
    shown = evidence_text(evidence, finding.name)
    if shown is not None:
        parts.append(shown)
    if remedy is not None:
        parts.append(remedy_text(remedy))
    return Group(*parts)


def incident_text(
    diagnosis: Diagnosis, root: int, remedy: Remedy | None, evidence: Sequence[Evidence] = ()
) -> RenderableType:
    """An incident as its detail pane shows it: the root finding explained, the objects it
    affects, then each finding that follows from it (R-DIAG-9); ``remedy`` and ``evidence``
    are the root's."""
    parts: list[RenderableType] = [explain(diagnosis.findings[root], remedy, evidence)]
    following = diagnosis.consequences(root)
    affected = diagnosis.affected(root)
    if following or len(affected) > 1 + len(diagnosis.findings[root].related):
        shown = ", ".join(str(r) for r in affected[:_AFFECTED_SHOWN])
        more = (
            f" (+{len(affected) - _AFFECTED_SHOWN} more)" if len(affected) > _AFFECTED_SHOWN else ""
        )
        parts.append(Text(f"affects: {shown}{more}", style=palette.MUTED))
    if following:
        parts.append(Text(f"follows from it ({len(following)}):", style="bold"))
    for index in following:
        finding = diagnosis.findings[index]
        line = Text("  └ ")
        line.append(finding.code, style=SEVERITY_STYLE[finding.severity])
        line.append(f"  {finding.kind} {finding.namespace}/{finding.name}".replace(" /", " "))
        parts.append(line)
    return Group(*parts)


def finding_times_text(times: FindingTimes | None) -> Text:
    """A recording's finding: since when it is there and when it last changed (R-REC-4),
    "…" while the history is still being worked out."""
    if times is None:
        return Text("since …  (working it out over the recording)", style=palette.MUTED)
    return Text(times.text, style=palette.MUTED if not times.since else "bold")


def incident_search(diagnosis: Diagnosis, root: int) -> str:
    """What ``/`` matches on an incident's row: its root and every finding that follows."""
    findings = diagnosis.findings
    return " ".join(finding_search(findings[i]) for i in (root, *diagnosis.consequences(root)))


class FindingsScreen(TableScreen):
    VIEW_TITLE = "Findings"
    COLUMNS = (
        Column("severity", "SEVERITY", 9, sort="severity"),  # "▲ warning": mark and word
        Column("code", "CODE", cut="never"),
        Column("kind", "KIND"),  # short, as oc get spells it: the long names share "Cluster"
        Column("namespace", "NAMESPACE", cut="middle"),
        Column("name", "NAME", cut="middle"),
        Column("message", "MESSAGE"),
    )
    EMPTY_TEXT = "no findings: OLM has nothing to complain about here"
    LOADING_EMPTY_TEXT = LOADING_TEXT
    BINDINGS = [
        Binding("p", "preview_remedy", "Preview remedy"),
        Binding("t", "timeline", "Timeline"),
    ]

    def _selected_incident(self) -> tuple[Diagnosis | None, int | None]:
        """The diagnosis and the root of the selected finding's incident (``None``s: none)."""
        key = self.table.selected_key
        diagnosis: Diagnosis | None = getattr(self, "_diagnosis", None)
        if diagnosis is None or self._finding(key) is None or not isinstance(key, int):
            return None, None
        return diagnosis, diagnosis.root(key)

    def action_preview_remedy(self) -> None:
        """``p``: the remedy of the selected finding's incident (its root's), tried on a
        copy of the state."""
        open_preview(self, *self._selected_incident())

    def action_timeline(self) -> None:
        """``t``: what happened to the selected finding's incident's objects, in order."""
        open_incident_timeline(self, *self._selected_incident())

    def build_rows(self) -> Iterable[Row]:
        """Incidents first (R-DIAG-9): each root, then the findings that follow from it,
        marked ``└`` under it."""
        diagnosis = self._diagnosis = self.session.analysis.diagnosis()
        findings = diagnosis.findings
        self._findings = {}
        for root in diagnosis.roots():
            for index in (root, *diagnosis.consequences(root)):
                finding = findings[index]
                self._findings[index] = finding
                yield Row(
                    index,
                    (
                        severity(finding.severity),
                        finding.code if index == root else f"└ {finding.code}",
                        SHORT_KINDS.get(finding.kind, finding.kind),
                        finding.namespace,
                        finding.name,
                        finding.message.splitlines()[0] if finding.message else "",
                    ),
                    search=finding_search(finding),
                )

    def _finding(self, key: Hashable) -> Finding | None:
        return getattr(self, "_findings", {}).get(key)

    def describe(self, key: Hashable) -> RenderableType:
        """A finding explained; a root with consequences, as its incident."""
        finding = self._finding(key)
        if finding is None:
            return Text("")
        diagnosis: Diagnosis | None = getattr(self, "_diagnosis", None)
        remedy = self.session.analysis.remedy(finding)
        evidence = finding_evidence(finding, self.session.store)  # R-EVD-10
        if isinstance(key, int) and diagnosis is not None and diagnosis.consequences(key):
            shown = incident_text(diagnosis, key, remedy, evidence)
        else:
            shown = explain(finding, remedy, evidence)
        time = self.session.time
        if time is None:
            return shown
        return Group(finding_times_text(time.finding_times(finding)), shown)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        finding = self._finding(key)
        return None if finding is None else finding_ref(finding)

    def open(self, key: Hashable) -> None:
        """Enter: the finding's object, with the other objects it names to jump to (a
        resolution finding: its namespace's Resolution view)."""
        finding = self._finding(key)
        namespace = None if finding is None else resolution_namespace(finding)
        if namespace is not None:
            self.app.show_resolution(namespace)
            return
        target = None if finding is None else finding_ref(finding)
        if finding is not None and target is not None:
            extra = [(finding.code, r) for r in finding.related if r != target]
            self.app.open_object(target, extra=extra)
