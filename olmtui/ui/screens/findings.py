"""Findings: every problem, worst first, with what, why, which rule and objects, what to do."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.model.types import Finding, ObjectRef
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.session import Session
from olmtui.ui.widgets.virtual_table import Column, Row

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def all_findings(session: Session) -> list[Finding]:
    return sorted([*session.load_findings, *session.model.findings()], key=lambda f: f.sort_key)


class FindingsScreen(TableScreen):
    VIEW_TITLE = "Findings"
    COLUMNS = (
        Column("severity", "SEVERITY", 8),
        Column("code", "CODE"),
        Column("kind", "KIND"),
        Column("namespace", "NAMESPACE"),
        Column("name", "NAME"),
        Column("message", "MESSAGE"),
    )
    EMPTY_TEXT = "no findings: OLM has nothing to complain about here"

    def build_rows(self) -> Iterable[Row]:
        self._findings = {}
        for index, finding in enumerate(all_findings(self.session)):
            self._findings[index] = finding
            yield Row(
                index,
                (
                    Text(finding.severity, style=SEVERITY_STYLE[finding.severity]),
                    finding.code,
                    finding.kind,
                    finding.namespace,
                    finding.name,
                    finding.message.splitlines()[0] if finding.message else "",
                ),
                search=" ".join(
                    (finding.severity, finding.code, finding.kind, finding.namespace,
                     finding.name, finding.message)
                ).lower(),
            )

    def _finding(self, key: Hashable) -> Finding | None:
        return getattr(self, "_findings", {}).get(key)  # type: ignore[arg-type]

    def describe(self, key: Hashable) -> RenderableType:
        finding = self._finding(key)
        if finding is None:
            return Text("")
        title = Text()
        title.append(finding.severity.upper(), style=SEVERITY_STYLE[finding.severity])
        title.append(f"  {finding.code}  ", style="bold")
        title.append(f"{finding.kind} {finding.namespace}/{finding.name}".replace(" /", " "))
        parts: list[RenderableType] = [title, Text(finding.message)]
        if finding.rule:
            parts.append(Text(f"rule: {finding.rule}", style="dim"))
        if finding.related:
            parts.append(Text("related: " + ", ".join(str(r) for r in finding.related),
                              style="dim"))
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        finding = self._finding(key)
        if finding is None or finding.kind in ("File", ""):
            return None
        if finding.name:
            return ObjectRef(finding.kind, finding.namespace, finding.name)
        return finding.related[0] if finding.related else None
