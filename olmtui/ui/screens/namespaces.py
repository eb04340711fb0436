"""Namespaces: each with its OperatorGroup(s), the operators installed in it, and the
operators that watch it through some group's targets (and from where). Enter drills in;
``r`` shows what OLM's next resolution of the namespace yields; ``t`` what happened in it, in
order (R-EVD-11)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text
from textual.binding import Binding

from olmtui.kinds import NAMESPACE
from olmtui.model.records.types import ObjectRef
from olmtui.model.viewmodels.views import NamespaceSummary
from olmtui.ui import palette
from olmtui.ui.formatting import line, names, section
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.timeline import open_namespace_timeline
from olmtui.ui.widgets.virtual_table import Column, Row


class NamespacesScreen(TableScreen):
    VIEW_TITLE = "Namespaces"
    SCOPE = "name"  # ``:ns NAME`` keeps that namespace's row
    COLUMNS = (
        Column("name", "NAMESPACE", min_width=22, cut="middle"),
        Column("groups", "OPERATORGROUPS"),
        Column("installed", "INSTALLED", 9, sort="number"),
        Column("watched", "WATCHED BY", 10, sort="number"),
        Column("operators", "OPERATORS HERE"),
    )
    EMPTY_TEXT = "no namespaces in this source"
    ACCESS_KIND = NAMESPACE
    BINDINGS = [
        Binding("r", "app.resolution", "Resolution"),
        Binding("t", "timeline", "Timeline"),
    ]

    def action_timeline(self) -> None:
        """``t``: what happened in the selected namespace, in order."""
        key = self.table.selected_key
        open_namespace_timeline(self, None if key is None else str(key))

    def build_rows(self) -> Iterable[Row]:
        summaries = self.session.analysis.namespace_summaries()
        self._summaries = {s.name: s for s in summaries}
        for s in summaries:
            groups = Text(
                ", ".join(s.groups) or "-", style=palette.ERROR if len(s.groups) > 1 else ""
            )
            yield Row(
                s.name,
                (
                    s.name,
                    groups,
                    str(len(s.installed)),
                    str(len(s.watched_by)),
                    names(s.installed, 5),
                ),
            )

    def _summary(self, key: Hashable) -> NamespaceSummary | None:
        return getattr(self, "_summaries", {}).get(key)

    def describe(self, key: Hashable) -> RenderableType:
        s = self._summary(key)
        if s is None:
            return Text("")
        parts: list[RenderableType] = [
            line("namespace", s.name),
            line(
                "OperatorGroups",
                names(
                    s.groups,
                    empty="none: CSVs here fail with NoOperatorGroup (R-MEM-1)"
                    if s.installed
                    else "none",
                ),
            ),
            line("installed operators", names(s.installed, empty="none")),
            section("Operators of other namespaces that watch it"),
        ]
        if not s.watched_by:
            parts.append(Text("none", style=palette.MUTED))
        for csv, og in s.watched_by[:40]:
            parts.append(Text(f"  {csv}  through OperatorGroup {og}"))
        if len(s.watched_by) > 40:
            parts.append(Text(f"  … and {len(s.watched_by) - 40} more", style=palette.MUTED))
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return ObjectRef(NAMESPACE, "", str(key)) if key is not None else None
