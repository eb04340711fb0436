"""How OLM words look on screen: phases, severities, lists. Always Text, never markup."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from olmtui.model.views import STATE_PROBLEMS_SHOWN, StateView

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
PHASE_STYLE = {
    "Succeeded": "green",
    "Failed": "bold red",
    "Pending": "yellow",
    "Installing": "yellow",
    "InstallReady": "yellow",
    "Replacing": "cyan",
    "Deleting": "magenta",
    "Unknown": "magenta",
    "Complete": "green",
    "RequiresApproval": "bold yellow",
    "AtLatestKnown": "green",
    "UpgradePending": "yellow",
    "UpgradeAvailable": "cyan",
    "UpgradeFailed": "bold red",
    "READY": "green",
    "TRANSIENT_FAILURE": "bold red",
    "CONNECTING": "yellow",
}
#: How many names a cell or a detail line lists before it says "and N more".
LIST_LIMIT = 40


def phase(text: str | None) -> Text:
    return Text(text or "-", style=PHASE_STYLE.get(text or "", ""))


def severity(text: str) -> Text:
    return Text(text, style=SEVERITY_STYLE.get(text, ""))


def names(items: Sequence[str], limit: int = LIST_LIMIT, empty: str = "-") -> str:
    """Comma list, cut after ``limit`` items with a count of the rest; ``""`` is "all"."""
    if not items:
        return empty
    shown = ["(all namespaces)" if i == "" else i for i in items[:limit]]
    more = len(items) - limit
    return ", ".join(shown) + (f", … and {more} more" if more > 0 else "")


def label(title: str) -> Text:
    return Text(f"{title}: ", style="bold")


def line(title: str, value: str | Text, style: str = "") -> Text:
    """``title: value`` on one line; ``value`` comes from the cluster and stays plain."""
    out = label(title)
    out.append_text(value if isinstance(value, Text) else Text(value, style=style))
    return out


def section(title: str) -> Text:
    return Text(f"\n{title}", style="bold underline")


def severity_text(text: str, severity: str | None) -> Text:
    """``text`` in a severity's colour; green when ``severity`` is ``None`` (healthy)."""
    return Text(text, style="green" if severity is None else SEVERITY_STYLE[severity])


def state_text(view: StateView, limit: int | None = STATE_PROBLEMS_SHOWN) -> Text:
    """The state cell: OLM's state in its own colour when nothing contradicts it, else the
    state and its problems in the worst problem's colour (never a green AtLatestKnown on a
    Subscription ``check`` reports as broken)."""
    if view.severity is None:
        return phase(view.state)
    return Text(view.label(limit), style=SEVERITY_STYLE[view.severity])
