"""The Fleet view (``olmtui --fleet``, ``olmtui replay --fleet``): a row per target with its
status and the numbers of its own report, then what only the fleet shows (the roll-up,
R-FLT-2..6). Enter opens the target's dashboard (its session is built already); Esc at the
top of that dashboard comes back here.

The rows are drawn from ``pipeline/fleet_sessions.py``; this screen only draws them, and
looks again twice a second (a live target's row follows its watcher). Names and reasons
come from kubeconfigs and snapshots: they are drawn as plain text, never markup."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll

from olmtui.model.fleet.row import TargetCounts
from olmtui.pipeline.session import Session
from olmtui.report.fleet_text import rollup_lines
from olmtui.ui import palette
from olmtui.ui.screens.olm_screen import OlmScreen
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.keys_footer import KeysFooter
from olmtui.ui.widgets.virtual_table import Cell, Column, Row, VirtualTable

#: How often the rows are looked at again (seconds).
FLEET_REFRESH = 0.5
COLUMNS = (
    Column("target", "TARGET", cut="middle"),
    Column("kind", "KIND"),
    Column("status", "STATUS"),
    Column("errors", "ERRORS", sort="number"),
    Column("warnings", "WARNINGS", sort="number"),
    Column("unhealthy", "NOT HEALTHY", sort="number"),
    Column("behind", "BEHIND HEAD", sort="number"),
    Column("blocked", "NEXT MINOR", sort="number"),
    Column("reason", "REASON", max_width=None),
)
#: How a row's status is painted.
_STATUS_STYLES = {"ok": palette.OK, "partial": palette.WARNING}
_BUSY = ("loading", "syncing")


class FleetTarget(Protocol):
    """One target as the view draws it (``pipeline/fleet_sessions.FleetTarget``; the screens
    never load what reads clusters, so they name it by what they use)."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def shown(self) -> str: ...
    @property
    def session(self) -> Session | None: ...
    @property
    def reason(self) -> str | None: ...
    def status(self) -> tuple[str, str | None]: ...
    def counts(self) -> TargetCounts | None: ...
    def kept(self) -> dict[str, Any] | None: ...
    @property
    def reports_made(self) -> int: ...
    async def watch(self) -> None: ...


class Fleet(Protocol):
    """Every target (``pipeline/fleet_sessions.FleetSessions``)."""

    @property
    def entries(self) -> Sequence[FleetTarget]: ...
    def entry(self, name: str) -> FleetTarget | None: ...
    def rollup(self) -> dict[str, Any]: ...
    def owns(self, session: Session) -> bool: ...
    def retry(self, name: str) -> FleetTarget | None: ...


class FleetScreen(OlmScreen):
    """Every target of the fleet, one row each."""

    BINDINGS = [
        Binding("enter", "open", "Open"),
        Binding("r", "retry", "Retry"),
        Binding("question_mark", "app.help", "Keys", key_display="?"),
    ]
    REFRESH_PARTS = ("#fleet-table", "#fleet-rollup")

    def __init__(self, fleet: Fleet) -> None:
        super().__init__()
        self.fleet = fleet
        self._drawn: Hashable = None

    def compose(self) -> ComposeResult:
        yield InertStatic(self._title(), id="fleet-title")
        with Vertical(classes="table-view"):
            yield VirtualTable(COLUMNS, empty_text="no targets", sortable=True, id="fleet-table")
            with VerticalScroll(classes="detail-pane", can_focus=False):
                yield InertStatic(id="fleet-detail")
                yield InertStatic(id="fleet-rollup")
        yield KeysFooter()

    def _title(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(" olmtui ", style="bold reverse")
        text.append(" Fleet ", style="bold")
        text.append(f"│ {len(self.fleet.entries)} targets", style=palette.MUTED)
        text.append(" · Enter opens one, Esc there comes back", style=palette.MUTED)
        return text

    @property
    def table(self) -> VirtualTable:
        return self.query_one("#fleet-table", VirtualTable)

    def on_mount(self) -> None:
        self.refresh_rows()
        self.table.focus()
        self.set_interval(FLEET_REFRESH, self.refresh_rows)

    def on_screen_resume(self) -> None:
        self.refresh_rows()

    def refresh_rows(self) -> None:
        """Draw the rows and the roll-up again when a target's status or analysis moved."""
        if not self.parts_present() or not self.is_current:  # a target's dashboard is up
            return
        stamp = tuple(_stamp(e) for e in self.fleet.entries)
        if stamp == self._drawn:
            return
        self._drawn = stamp
        self.table.set_rows([_row(e) for e in self.fleet.entries])
        lines = rollup_lines(self.fleet.rollup())
        rollup = Text("Across the fleet (R-FLT-2..6)\n", style="bold")
        rollup.append("\n".join(lines), style="")
        self.query_one("#fleet-rollup", InertStatic).update(rollup)
        self.describe()

    def selected(self) -> FleetTarget | None:
        key = self.table.selected_key
        return self.fleet.entry(key) if isinstance(key, str) else None

    def action_open(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.open_entry(entry)

    @on(VirtualTable.RowHighlighted, "#fleet-table")
    def _row_highlighted(self, event: VirtualTable.RowHighlighted) -> None:
        event.stop()
        self.describe()

    def describe(self) -> None:
        """The highlighted target whole: what it reads, its status and full reason."""
        entry = self.selected()
        text = Text()
        if entry is not None:
            status, reason = entry.status()
            text.append(f"{entry.name}", style="bold")
            text.append(f" ({entry.kind}: {entry.shown}) ", style=palette.MUTED)
            text.append(status, style=_style(status))
            if reason:
                text.append(f": {reason}")
            text.append("\n")
        self.query_one("#fleet-detail", InertStatic).update(text)

    @on(VirtualTable.RowSelected, "#fleet-table")
    def _row_selected(self, event: VirtualTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def open_entry(self, entry: FleetTarget) -> None:
        """Show the target's dashboard, or say why there is none."""
        if entry.session is None:
            status, reason = entry.status()
            self.app.notify(
                f"{entry.name}: {status}: {reason or 'not read'}"
                + (" (r connects again)" if entry.kind == "live" else ""),
                severity="warning",
                markup=False,
            )
            return
        open_target = getattr(self.app, "open_target", None)
        if open_target is not None:
            open_target(entry)

    def action_retry(self) -> None:
        """``r``: connect a live target that failed again."""
        entry = self.selected()
        retry = getattr(self.app, "retry_target", None)
        if entry is not None and retry is not None:
            retry(entry)


def _stamp(entry: FleetTarget) -> Hashable:
    """What a row and the roll-up were drawn from: the status, and the report kept (made
    again at most every few seconds while a live target moves)."""
    entry.kept()  # made again first if it is due
    return (entry.name, entry.status(), entry.reports_made)


def _row(entry: FleetTarget) -> Row:
    status, reason = entry.status()
    counts = entry.counts()
    if counts is None:
        numbers: tuple[str, ...] = ("",) * 5
    else:
        numbers = tuple(
            str(n)
            for n in (
                counts.errors,
                counts.warnings,
                counts.not_healthy,
                counts.behind_head,
                counts.blockers,
            )
        )
    cells: tuple[Cell, ...] = (
        entry.name,
        entry.kind,
        Text(status, style=_style(status)),
        *numbers,
        reason or "",
    )
    return Row(entry.name, cells)


def _style(status: str) -> str:
    return _STATUS_STYLES.get(status, palette.MUTED if status in _BUSY else palette.ERROR)
