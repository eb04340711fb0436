"""``?``: every key, as k9s users expect them."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: tuple[tuple[str, str], ...] = (
    (
        ":",
        "jump to a view by name (Tab completes): overview, ns, og, csv, sub, graph, "
        "findings, catsrc, changes, ip, xray",
    ),
    (
        "/",
        "filter the table; /!text inverts; in Findings also sev:error, kind:Subscription, "
        "ns:team-a",
    ),
    ("Enter", "drill down into the selected row (double-click too)"),
    ("Esc", "back"),
    ("y", "YAML of the selected object (s: back to its summary)"),
    ("g", "upgrade graph of the selected operator or Subscription"),
    ("c", "Operators: show or hide copied CSVs; Upgrade graph: next channel"),
    ("x", "Subscriptions, Operators: X-ray tree of the selected operator"),
    ("ctrl+p", "command palette: every action"),
    ("↑ ↓ j k PgUp PgDn Home End", "move"),
    ("?", "this help"),
    ("q, ctrl+q", "quit (olmtui never changes the cluster)"),
)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "app.pop_screen", "Close")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90; height: auto; max-height: 80%;
        border: round $accent; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        table = Table(show_header=False, box=None, expand=True)
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for key, text in KEYS:
            table.add_row(key, text)
        with VerticalScroll():
            yield Static(table)
