"""ClusterExtensions (OLM v1, ``:ce``): package, installed bundle, a state that reads
operator-controller's conditions right (``Progressing=True/Succeeded`` is its settled state,
not work in progress, R-V1-5), the spec's channels, range and policy, what olmtui computes it
would resolve to, and the findings about it. ``g`` draws its package's upgrade graph."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.kinds import CLUSTER_EXTENSION
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.v1.extensions import Condition, ExtensionState
from olmtui.model.rules.v1.revisions import ExtensionRevisions
from olmtui.model.rules.v1.state import resolution_words
from olmtui.model.viewmodels.lifecycles import support_line
from olmtui.ui import palette
from olmtui.ui.formatting import (
    SEVERITY_STYLE,
    line,
    mark,
    name_and_package,
    names,
    section,
    severity,
)
from olmtui.ui.next_catalog_text import next_catalog_lines
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.virtual_table import Column, Row

#: States that are on their way (no mark of a problem) and those that need a reader.
MOVING = frozenset({"Installing", "Rolling out"})


def state_cell(state: ExtensionState) -> Text:
    """The state word, with a mark so that it reads without colour: none when settled,
    ``●`` on its way, ``?`` unknown, ``▲`` installed but retrying, ``✖`` otherwise."""
    if state.settled:
        return Text(state.label, style=palette.OK)
    if state.label in MOVING:
        return Text(f"{mark('info')} {state.label}", style=palette.INFO)
    if state.label == "Unknown":
        return Text(f"? {state.label}", style=palette.UNKNOWN)
    if state.label.startswith("Installed"):
        return Text(f"{mark('warning')} {state.label}", style=palette.WARNING_STRONG)
    return Text(f"{mark('error')} {state.label}", style=palette.ERROR)


def finding_marks(found: Sequence[Finding]) -> Text:
    """``✖1 ▲2``: how many findings of each severity an object has (``-`` none)."""
    counts: dict[str, int] = {}
    for finding in found:
        counts[finding.severity] = counts.get(finding.severity, 0) + 1
    if not counts:
        return Text("-", style=palette.MUTED)
    out = Text()
    for sev in ("error", "warning", "info"):
        if counts.get(sev):
            out.append(" " if out else "")
            out.append(f"{mark(sev)}{counts[sev]}", style=SEVERITY_STYLE[sev])
    return out


def conditions_lines(conditions: Mapping[str, Condition]) -> list[Text]:
    """One line per condition: type, status/reason, then the message as written (plain
    text: messages come from the cluster)."""
    if not conditions:
        return [Text("  none yet", style=palette.MUTED)]
    out = []
    for c in conditions.values():
        text = Text(f"  {c.type} ", style="bold")
        text.append(f"{c.status or '-'}/{c.reason or '-'}")
        if c.message:
            text.append(f": {c.message}")
        out.append(text)
    return out


def revisions_cell(revisions: ExtensionRevisions | None) -> Text:
    """The REVISIONS cell (R-V1-24): ``2 active (rolling out)`` on its way, an error mark past
    the progress deadline (R-V1-25), ``-`` when none is read or named."""
    label = revisions.label if revisions is not None else ""
    if not label:
        return Text("-", style=palette.MUTED)
    if label.endswith("(deadline exceeded)"):
        return Text(f"{mark('error')} {label}", style=palette.ERROR)
    if label.endswith("(rolling out)"):
        return Text(f"{mark('info')} {label}", style=palette.INFO)
    return Text(label)


def revision_lines(revisions: ExtensionRevisions) -> list[Text]:
    """Per revision, newest last: number, name, lifecycle state, its phases (the one the
    conditions say it stands in marked) and its conditions (R-V1-24)."""
    out: list[Text] = []
    for r in revisions.revisions:
        number = f"#{r.number}" if r.number is not None else "#?"
        state = r.lifecycle_state or ("Active (status.activeRevisions)" if r.active else "-")
        text = Text(f"  {number} ", style="bold")
        text.append(f"{r.name} {state}")
        if r.collision_protection:
            text.append(f", collision protection {r.collision_protection}")
        out.append(text)
        current = r.current_phase
        if r.phases:
            phases = [f"[{p.name}]" if p.name == current else p.name for p in r.phases]
            out.append(Text(f"    phases: {' → '.join(phases)}", style=palette.MUTED))
        out += [Text("  ").append_text(c) for c in conditions_lines(r.conditions)]
    return out


def findings_lines(found: Sequence[Finding]) -> list[Text]:
    if not found:
        return [Text("  none", style=palette.MUTED)]
    out = []
    for f in found:
        text = Text("  ")
        text.append_text(severity(f.severity))
        text.append(f" {f.code}: {f.message} ({f.rule})")
        out.append(text)
    return out


def selector_words(selector: Mapping[str, Any] | None) -> str:
    """A LabelSelector as ``kubectl -l`` spells it (``k=v, k in (a,b)``); ``all catalogs``
    when unset or empty (R-V1-9)."""
    if not selector:
        return "all catalogs"
    parts = [f"{k}={v}" for k, v in sorted((selector.get("matchLabels") or {}).items())]
    for e in selector.get("matchExpressions") or ():
        if isinstance(e, Mapping):
            values = ",".join(str(v) for v in e.get("values") or ())
            parts.append(f"{e.get('key')} {e.get('operator')} ({values})".replace(" ()", ""))
    return ", ".join(parts) or "all catalogs"


class ClusterExtensionsScreen(TableScreen):
    VIEW_TITLE = "ClusterExtensions"
    COLUMNS = (
        # the install namespace is in the detail: the names keep their width at 120 columns
        # with its package in brackets where the package is another name (not a column
        # of its own that repeats the name on most rows)
        Column("name", "NAME", min_width=14, cut="middle"),
        Column("installed", "INSTALLED", cut="never"),
        Column("state", "STATE", cut="never"),
        Column("findings", "FINDINGS", 8),
        Column("resolved", "RESOLVES TO", cut="never"),
        Column("channels", "CHANNELS"),
        Column("version", "VERSION", cut="never"),
        Column("policy", "POLICY"),
        # R-V1-24: "2 active (rolling out)"; "-" without the revisions API
        Column("revisions", "REVISIONS"),
    )
    EMPTY_TEXT = "no ClusterExtensions (OLM v1)"
    ACCESS_KIND = CLUSTER_EXTENSION

    def build_rows(self) -> Iterable[Row]:
        state = self.session.analysis.v1_state()
        subjects = self.session.analysis.findings_by_subject()
        for e in state.extensions.values():
            short, _ = resolution_words(state.resolutions.get(e.name))
            yield Row(
                e.name,
                (
                    name_and_package(e.name, e.package),
                    e.installed.version or e.installed.bundle if e.installed else "-",
                    state_cell(e.state),
                    finding_marks(subjects.get((CLUSTER_EXTENSION, "", e.name), ())),
                    short,
                    ",".join(e.channels) or "any",
                    e.version_range or "any",
                    e.upgrade_constraint_policy,
                    revisions_cell(state.revisions.get(e.name)),
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        state = self.session.analysis.v1_state()
        e = state.extensions.get(key) if isinstance(key, str) else None
        if e is None:
            return Text("")
        found = self.session.analysis.findings_by_subject().get((CLUSTER_EXTENSION, "", e.name), ())
        status = state_cell(e.state)
        if e.state.detail:
            status.append(f": {e.state.detail}", style="")
        installed = (
            f"{e.installed.bundle} ({e.installed.version or 'no version'})"
            if e.installed
            else "nothing installed"
        )
        account = (
            f"{e.service_account} (deprecated: operator-controller ignores it)"
            if e.service_account
            else "-"
        )
        parts: list[RenderableType] = [
            line("ClusterExtension", f"{e.name}  package {e.package or '-'}"),
            line("state (R-V1-5)", status),
            line("installed", installed),
        ]
        session = self.session
        clock = session.clock() if session.clock is not None else None
        support = support_line(
            session.store, session.analysis.catalogs(), clock, (CLUSTER_EXTENSION, "", e.name)
        )
        if support is not None:  # R-LCY-2: only with a lifecycle document for its package
            parts.append(line("lifecycle", support))
        parts += [
            line("install namespace", e.namespace or "-"),
            line("channels", names(e.channels, empty="any (or none)")),
            line("version range", e.version_range or "any"),
            line("upgrade policy", e.upgrade_constraint_policy),
            line("catalog selector", selector_words(e.selector)),
            line("catalogs selected", names([c.name for c in state.selected(e)], empty="none")),
            line("service account", account),
        ]
        if e.watch_namespace:
            parts.append(line("watch namespace", e.watch_namespace))
        _, resolution = resolution_words(state.resolutions.get(e.name))
        parts.append(line("would resolve to", resolution))
        ref = ObjectRef(CLUSTER_EXTENSION, "", e.name)
        parts.extend(next_catalog_lines(self.session.analysis.next_catalog_for(ref)))
        parts.append(section("Conditions"))
        parts += conditions_lines(e.conditions)
        revisions = state.revisions.get(e.name)
        if revisions is not None and revisions.revisions:
            parts.append(section(f"Revisions ({revisions.label})"))
            parts += revision_lines(revisions)
        parts.append(section(f"Findings ({len(found)})"))
        parts += findings_lines(found)
        parts.append(Text("\nEnter: the object (y: YAML) · g: upgrade graph", style=palette.MUTED))
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return ObjectRef(CLUSTER_EXTENSION, "", key) if isinstance(key, str) else None
