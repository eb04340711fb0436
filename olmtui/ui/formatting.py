"""How OLM words look on screen: phases, severities, lists. Always Text, never markup."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

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
