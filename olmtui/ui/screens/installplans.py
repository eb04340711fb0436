"""``:ip``: every InstallPlan with its phase, approval, the CSVs it installs and who owns it,
coloured by health (Failed red, waiting for approval yellow); the detail pane lists its
steps, what approving it would do (R-SUB-4, R-IP-2), its bundle lookups (R-IP-4), its
conditions and the findings about it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterable, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.kinds import CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.installplans.summaries import ConditionState
from olmtui.model.viewmodels.installplan_view import (
    InstallPlanRow,
    approval_lines,
    install_plan_rows,
)
from olmtui.ui import palette
from olmtui.ui.formatting import SEVERITY_STYLE, line, names, phase, section, severity
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.virtual_table import Column, Row

#: Steps listed in the detail pane before "and N more".
STEPS_SHOWN = 60


class InstallPlansScreen(TableScreen):
    VIEW_TITLE = "InstallPlans"
    COLUMNS = (
        Column("namespace", "NAMESPACE", cut="middle"),
        Column("name", "NAME", cut="middle"),
        Column("phase", "PHASE", min_width=8),
        Column("approval", "APPROVAL"),
        Column("approved", "APPROVED"),
        # a CSV name keeps its version, at its end: cut in the middle
        Column("csvs", "CSVS", min_width=20, cut="middle"),
        Column("owners", "SUBSCRIPTIONS", min_width=12, cut="middle"),
        Column("age", "AGE"),
    )
    EMPTY_TEXT = "no InstallPlans"
    ACCESS_KIND = INSTALL_PLAN
    AGE_STEP = dt.timedelta(seconds=5)  # ages read 45s, 5m, 3h: a few seconds behind at most

    def build_rows(self) -> Iterable[Row]:
        now = self.session.clock() if self.session.clock is not None else None
        by_subject = self.session.analysis.findings_by_subject()
        rows = install_plan_rows(self.session.store.list(INSTALL_PLAN), by_subject, now)
        self._rows = {(r.summary.namespace, r.summary.name): r for r in rows}
        self._findings = by_subject
        for r in rows:
            s = r.summary
            style = SEVERITY_STYLE.get(r.severity or "", "")
            cells = (
                s.namespace,
                # the name carries the health colour, so it reads without the phase too
                Text(s.name, style=style),
                phase(s.phase),
                s.approval,
                Text("yes" if s.approved else "no", style="" if s.approved else palette.WARNING),
                names(s.csv_names or tuple(p.name for p in s.csvs), 3),
                names(s.owners, 3),
                r.age,
            )
            yield Row((s.namespace, s.name), cells)

    def describe(self, key: Hashable) -> RenderableType:
        row: InstallPlanRow | None = getattr(self, "_rows", {}).get(key)
        if row is None:
            return Text("")
        s = row.summary
        store = self.session.store
        ip = store.get(INSTALL_PLAN, s.namespace, s.name) or {}
        subs = list(store.list(SUBSCRIPTION, s.namespace))
        csvs = list(store.list(CSV, s.namespace))
        parts: list[RenderableType] = [
            line("InstallPlan", f"{s.ref}, created {row.age}"),
            line("phase", phase(s.phase)),
            line("installs", names(s.csv_names or tuple(p.name for p in s.csvs))),
            line("Subscriptions (owners)", names(s.owners)),
            section("Approval"),
        ]
        parts += [Text(t) for t in approval_lines(ip, subs, csvs)]
        parts.append(section(f"Steps ({len(row.steps)})"))
        if not row.steps:
            parts.append(Text("none", style=palette.MUTED))
        resolving = None
        for step in row.steps[:STEPS_SHOWN]:
            if step.resolving != resolving:  # OLM lists a bundle's steps together
                resolving = step.resolving
                parts.append(line("resolving", resolving or "-"))
            out = Text(f"  {step.kind} {step.name} ")
            out.append_text(_step_status(step.status))
            parts.append(out)
        if len(row.steps) > STEPS_SHOWN:
            parts.append(
                Text(f"… and {len(row.steps) - STEPS_SHOWN} more steps", style=palette.MUTED)
            )
        parts.append(section(f"Bundle lookups ({len(s.bundle_lookups)}, R-IP-4)"))
        for lookup in s.bundle_lookups:
            parts.append(
                Text(
                    f"{lookup.identifier} from {lookup.catalog or '?'}: {lookup.path}"
                    + (f", replacing {lookup.replaces}" if lookup.replaces else "")
                )
            )
            parts += _conditions(lookup.conditions, "  ")
        parts.append(section("Conditions"))
        parts += _conditions(s.conditions, "") or [Text("none", style=palette.MUTED)]
        if s.message and all(c.message != s.message for c in s.conditions):
            parts.append(line("message", Text(s.message, style=palette.ERROR)))
        parts.append(section("Findings (about it, or naming it)"))
        about = _findings_on(self._findings, ObjectRef(INSTALL_PLAN, s.namespace, s.name))
        if not about:
            parts.append(Text("none", style=palette.MUTED))
        for f in about:
            out = severity(f.severity)
            out.append(f" {f.code} ({f.rule}): {f.message}")
            parts.append(out)
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return ObjectRef(INSTALL_PLAN, *key) if isinstance(key, tuple) else None


def _findings_on(
    by_subject: Mapping[tuple[str, str, str], Sequence[Finding]], target: ObjectRef
) -> list[Finding]:
    """The findings about ``target`` and those that name it among their related objects
    (a failed plan's finding is often the Subscription's or the CSV's, naming the plan)."""
    own = list(by_subject.get((target.kind, target.namespace, target.name), ()))
    named = [
        f for found in by_subject.values() for f in found if target in f.related and f not in own
    ]
    return own + named


def _step_status(text: str) -> Text:
    """Created/Present green, the failures OLM names red, anything else yellow (R-IP-3)."""
    if text in ("Created", "Present"):
        return Text(text, style=palette.OK)
    if text in ("NotCreated", "UnsupportedResource"):
        return Text(text, style=palette.ERROR)
    return Text(text, style=palette.WARNING)


def _conditions(conditions: Iterable[ConditionState], indent: str) -> list[Text]:
    out = []
    for c in conditions:
        out.append(Text(f"{indent}{c.type}={c.status} {c.reason or ''}", style="bold"))
        if c.message:
            out.append(Text(f"{indent}  {c.message}"))
    return out
