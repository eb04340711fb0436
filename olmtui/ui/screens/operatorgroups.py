"""OperatorGroups: mode, targets (derived vs ``status.namespaces``), static or not, provided
APIs (annotation vs expected), members, intersecting groups and conflicts, and the
ClusterRoles the group generates (R-OG-8) so an admin sees what tenants get (R-DOC-2)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.kinds import OPERATOR_GROUP
from olmtui.model.records.types import ObjectRef, OperatorGroupState
from olmtui.model.viewmodels.views import group_cluster_roles, group_targets
from olmtui.ui import palette
from olmtui.ui.formatting import line, names, section
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.virtual_table import Column, Row

MODE_LABEL = {
    "OwnNamespace": "own namespace",
    "SingleNamespace": "single namespace",
    "MultiNamespace": "multi namespace",
    "AllNamespaces": "all namespaces",
    "None": "no targets",
}


class OperatorGroupsScreen(TableScreen):
    VIEW_TITLE = "OperatorGroups"
    COLUMNS = (
        Column("namespace", "NAMESPACE", cut="middle"),
        Column("name", "NAME", min_width=22, cut="middle"),
        Column("mode", "MODE", 16),
        Column("targets", "TARGETS"),
        Column("static", "STATIC", 6),
        Column("members", "MEMBERS", 7, sort="number"),
        Column("intersects", "INTERSECTS", 10),
        Column("conflicts", "CONFLICTS", 9),
    )
    EMPTY_TEXT = "no OperatorGroups: every CSV fails with NoOperatorGroup (R-MEM-1)"
    ACCESS_KIND = OPERATOR_GROUP

    def build_rows(self) -> Iterable[Row]:
        groups = self.session.model.operator_groups()
        self._groups = {(g.namespace, g.name): g for g in groups}
        conflicts = self._conflicts()
        for g in groups:
            count = len(conflicts.get(g.ref, ()))
            yield Row(
                (g.namespace, g.name),
                (
                    g.namespace,
                    g.name,
                    MODE_LABEL.get(g.mode, g.mode),
                    names(group_targets(g), 4),
                    "yes" if g.static else "no",
                    str(len(g.members)),
                    str(len(g.intersecting)),
                    Text(str(count), style=palette.ERROR) if count else "0",
                ),
            )

    def _conflicts(self) -> dict[str, list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]]:
        """Group ref -> (CSV ref, other group, APIs, namespaces), both sides (R-API-5)."""
        out: dict[str, list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]] = {}
        for csv in self.session.model.csvs():
            for c in csv.conflicts:
                if csv.operator_group:
                    out.setdefault(csv.operator_group, []).append(
                        (csv.ref, c.operator_group, c.apis, c.namespaces)
                    )
                out.setdefault(c.operator_group, []).append(
                    (csv.ref, csv.operator_group or "?", c.apis, c.namespaces)
                )
        return out

    def describe(self, key: Hashable) -> RenderableType:
        g: OperatorGroupState | None = getattr(self, "_groups", {}).get(key)
        if g is None:
            return Text("")
        status = "not written yet" if g.status_namespaces is None else names(g.status_namespaces)
        parts: list[RenderableType] = [
            line("OperatorGroup", g.ref),
            line("mode", MODE_LABEL.get(g.mode, g.mode)),
            line("targets (derived from spec)", names(g.target_namespaces)),
            line("status.namespaces", status),
            line(
                "static providedAPIs",
                "yes: OLM never changes the annotation (R-API-7)" if g.static else "no",
            ),
            line("upgrade strategy", g.upgrade_strategy),
            line("service account", g.service_account or "-"),
            line("providedAPIs annotation", names(g.provided_apis)),
            line("expected from members", names(g.expected_provided_apis)),
            line("members", names(g.members)),
        ]
        for error in g.selection_errors:
            parts.append(Text(f"selection error: {error}", style=palette.ERROR))
        parts.append(section("Intersecting groups (R-API-4)"))
        parts += [Text(f"  {i.operator_group} in {names(i.namespaces)}") for i in g.intersecting]
        if not g.intersecting:
            parts.append(Text("  none", style=palette.MUTED))
        conflicts = self._conflicts().get(g.ref, [])
        if conflicts:
            parts.append(section("Conflicts (R-API-5)"))
            for csv, other, apis, namespaces in conflicts:
                parts.append(
                    Text(
                        f"  {csv} vs {other}: {', '.join(apis)} in {names(namespaces)}",
                        style=palette.ERROR,
                    )
                )
        parts.append(section("ClusterRoles OLM generates (R-OG-8): what tenants get"))
        for role in group_cluster_roles(g, self.session.model.csvs()):
            parts.append(Text(f"  {role.name}", style="bold"))
            parts.append(
                Text(
                    f"    {role.suffix}: {role.grants}; aggregates "
                    f"{len(role.aggregates)} API role(s)"
                    + ("" if role.aggregates else " (no APIs: no aggregation rule)"),
                    style=palette.MUTED,
                )
            )
            for api, label in role.aggregates[:20]:
                parts.append(Text(f"    {api}  <- {label}", style=palette.MUTED))
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return ObjectRef(OPERATOR_GROUP, *key) if isinstance(key, tuple) else None
