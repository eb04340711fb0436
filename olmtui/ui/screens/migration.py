"""Migration to OLM v1 (``:migration``): a row per operator with its migration state and the
rules it does not pass (R-MIG-12), in the migration tool's order; the detail pane and Enter
show every rule with its detail and, for an eligible operator, the ClusterExtension a
conversion would create, as YAML to copy (R-MIG-13). Read only: nothing is converted."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from olmtui.kinds import SUBSCRIPTION
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.migration.checks import RuleResult
from olmtui.model.rules.migration.states import Migration
from olmtui.ui import palette
from olmtui.ui.formatting import line, section
from olmtui.ui.inert import inert_text
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.virtual_table import Column, Row

_STATE_STYLE = {
    "Eligible": palette.OK,
    "Ineligible": palette.WARNING,
    "AlreadyMigrated": palette.MUTED,
    "Conflict": palette.ERROR,
}


def state_cell(state: str) -> Text:
    return Text(state, style=_STATE_STYLE.get(state, ""))


def failing_cell(row: Migration) -> Text:
    """``C1 C6 C7?``: the rules that fail, then those the input does not show (``?``)."""
    if not row.rules:
        return Text("-", style=palette.MUTED)
    failed = [r.id for r in row.rules if not r.ok and r.known]
    unknown = [f"{r.id}?" for r in row.rules if not r.known]
    if not failed and not unknown:
        return Text("none", style=palette.OK)
    out = Text(" ".join(failed), style=palette.WARNING)
    if unknown:
        out.append((" " if failed else "") + " ".join(unknown), style=palette.UNKNOWN)
    return out


def rule_line(rule: RuleResult) -> Text:
    """``✓ C1 detail``, ``✖ C7 detail (hard)`` or ``? C4 unknown: ...``."""
    if rule.ok:
        mark, style = "✓", palette.OK
    elif rule.known:
        mark, style = "✖", palette.WARNING
    else:
        mark, style = "?", palette.UNKNOWN
    out = Text("  ")
    out.append(f"{mark} {rule.id:<4}", style=style)
    out.append(rule.detail)
    if not rule.ok:
        override = f"override: {rule.soft}" if rule.soft else "hard: fix it first"
        out.append(f"  ({override})", style=palette.MUTED)
    return out


def migration_detail(row: Migration) -> RenderableType:
    """Every rule, the notes, and the ClusterExtension YAML of an eligible operator."""
    parts: list[RenderableType] = [
        line(row.object.kind, f"{row.object}".partition(" ")[2]),
        line("package", row.package or "-"),
        line("state (R-MIG-12)", state_cell(row.state)),
        line("why", row.reason),
    ]
    if row.rules:
        parts += [section("Rules C1..C10 (R-MIG-1..11)"), *map(rule_line, row.rules)]
    if row.notes:
        parts += [section("In the way (R-MIG-14)")]
        parts += [Text(f"  ▲ {note}", style=palette.WARNING) for note in row.notes]
    if row.preview is not None:
        parts += [section("ClusterExtension a conversion would create (R-MIG-13)")]
        parts.append(inert_text(Text(row.preview)))
    return Group(*parts)


class MigrationDetailScreen(ModalScreen[None]):
    """Enter on a row: its whole detail, scrollable, to read the rules and copy the YAML."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Close")]

    DEFAULT_CSS = """
    MigrationDetailScreen { align: center middle; }
    MigrationDetailScreen > VerticalScroll { width: 100%; max-width: 120; height: auto;
        max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, row: Migration) -> None:
        super().__init__()
        self.row = row

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield InertStatic(migration_detail(self.row), id="migration-detail")


class MigrationScreen(TableScreen):
    VIEW_TITLE = "Migration to OLM v1"
    SCOPE = "namespace"
    COLUMNS = (
        Column("state", "STATE", 15),
        Column("namespace", "NAMESPACE", min_width=10, cut="middle"),
        Column("name", "NAME", min_width=12, cut="middle"),
        Column("kind", "KIND", 16),
        Column("package", "PACKAGE", min_width=10, cut="middle"),
        Column("failing", "NOT PASSING", min_width=12),
        Column("reason", "WHY", cut="end"),
    )
    EMPTY_TEXT = "no OLM v0 operator (Subscription) and no migrated ClusterExtension"
    ACCESS_KIND = SUBSCRIPTION
    #: The tool's order is the view's: sorting would hide it.
    SORTABLE = False

    def _rows(self) -> dict[ObjectRef, Migration]:
        return {row.object: row for row in self.session.analysis.migration()}

    def build_rows(self) -> Iterable[Row]:
        for row in self.session.analysis.migration():
            ref = row.object
            yield Row(
                ref,
                (
                    state_cell(row.state),
                    ref.namespace or "-",
                    ref.name,
                    ref.kind,
                    row.package or "-",
                    failing_cell(row),
                    row.reason,
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        row = self._rows().get(key) if isinstance(key, ObjectRef) else None
        return Text("") if row is None else migration_detail(row)

    def describe_stamp(self) -> object:
        return self.session.analysis.model.version

    def open(self, key: Hashable) -> None:
        """Enter: the row's rules and YAML in a panel of their own (Esc closes it)."""
        row = self._rows().get(key) if isinstance(key, ObjectRef) else None
        if row is not None:
            self.app.push_screen(MigrationDetailScreen(row))
