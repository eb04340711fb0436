"""``?``: every key, as k9s users expect them, on one 80x24 screen (one line per key;
tests/ui/test_ui_keys.py checks that nothing is cut at that size)."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

#: (keys, what they do): keep each text within 56 characters, so a row is one line at 80.
KEYS: tuple[tuple[str, str], ...] = (
    (":", "view: overview namespaces og csv sub ip xray graph"),
    ("", "  findings catsrc changes, v1: ce cc; opens its list"),
    (":ns NAME  :ns", "scope every view to namespace NAME / clear the scope"),
    (":  Tab", "complete view, namespace, context; Tab again: next"),
    (":ctx NAME  F  r", "another context; --fleet: F Fleet view, r reconnect"),
    (":q ctrl+c ctrl+q", "quit (olmtui never changes the cluster)"),
    ("/", "filter rows; /!text inverts; Findings: sev: kind: ns:"),
    ("/  n N", "in a detail: search its YAML, next / previous match"),
    ("Enter", "open the selected row (double-click too)"),
    ("Esc", "clear the filter, else back (closes any prompt)"),
    ("q", "back from a detail, YAML, graph or help; quit on a view"),
    ("s  S", "sort by the next column / reverse (header: NAME▲)"),
    ("y  s", "detail: YAML of the object / back to its summary"),
    ("g", "upgrade graph of the selected row, or of the detail"),
    ("c", "Operators: show/hide copied CSVs; graph: next channel"),
    ("x", "Subscriptions, Operators: X-ray tree of that operator"),
    ("r  :res [NS]", "resolution: next InstallPlan, or why none (Sub, ns)"),
    ("p  t", "incident: try its remedy / its timeline (t on ns too)"),
    ("ctrl+p  ?", "palette: every action, objects by name; ? this help"),
    ("↑↓ jk PgUp PgDn", "move, page; Home End G: first, last row"),
    ("[ ] { }  :at T", "a recording: a change / a minute back, on; :at 10:05"),
    ("m  M  :open P", "mark / compare with now; :open another input"),
)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "app.pop_screen", "Close")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 100%; max-width: 90; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(keys_table())


def keys_table() -> Table:
    """One row per key; a text too long for the screen is cut visibly, never wrapped."""
    table = Table(show_header=False, box=None, expand=True, padding=(0, 1, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(no_wrap=True, overflow="ellipsis")
    for key, text in KEYS:
        table.add_row(key, text)
    return table
