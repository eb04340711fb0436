"""The top line: which source is shown (context or snapshot path) and, live, how it is doing."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from olmtui.model.access import minutes
from olmtui.pipeline.session import Session

_STATE_STYLES = {
    "live": "bold green",
    "live, partial": "bold magenta",
    "syncing": "bold yellow",
    "reconnecting": "bold red",
    "unavailable": "bold red",
    "no access": "bold magenta",
    "connecting": "bold yellow",
    "stopped": "bold",
}


def _age(seconds: float | None) -> str:
    if seconds is None:
        return "no events yet"
    if seconds < 60:
        return f"last event {seconds:.0f}s ago"
    if seconds < 3600:
        return f"last event {seconds / 60:.0f}m ago"
    return f"last event {seconds / 3600:.1f}h ago"


def _fit_left(label: str, room: int) -> str:
    """Keep the end of a long label (the snapshot's own folder name), cut at the left."""
    if room <= 1 or len(label) <= room:
        return label if room > 1 else ""
    return "…" + label[len(label) - room + 1 :]


def header_text(session: Session, view_title: str, width: int = 200) -> Text:
    """Plain Text (never markup): labels and paths come from the user and the cluster.

    What must survive a narrow terminal comes first: the view, the source, the connection
    state and the age of the last event; the namespaces read (``--namespace``), the status
    detail and the no-access list take what is left and end in an ellipsis.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(" olmtui ", style="bold reverse")
    text.append(f" {view_title} ", style="bold")
    text.append("│ ", style="dim")
    text.append(f"{session.kind}: ", style="dim")
    status = session.status() if session.status is not None else None
    essential = Text()
    if status is not None:
        essential.append(" │ ", style="dim")
        essential.append(status.state, style=_STATE_STYLES.get(status.state, "bold"))
        essential.append(f" · {_age(status.last_event_age)}", style="dim")
    room = width - text.cell_len - essential.cell_len - 1
    text.append(_fit_left(session.label, max(room, 8)))
    text.append_text(essential)
    read = session.store.read_namespaces
    if read is not None:  # a --namespace session: elsewhere is unknown, not absent
        text.append(f" · read: namespaces {', '.join(sorted(read))} only", style="yellow")
    if status is not None:
        if status.detail:
            text.append(f" · {status.detail}", style="dim")
        if status.no_access:
            again = (
                "" if status.recheck is None else f" (re-checked every {minutes(status.recheck)})"
            )
            text.append(f" · no access: {', '.join(status.no_access)}{again}", style="magenta")
    return text


class SourceHeader(Static):
    """Redrawn by the app's ticker; never parses markup."""

    DEFAULT_CSS = """
    SourceHeader {
        height: 1;
        background: $panel;
    }
    """

    def __init__(self, session: Session, view_title: str) -> None:
        super().__init__(markup=False)
        self.session = session
        self.view_title = view_title

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        text = header_text(self.session, self.view_title, self.size.width or 200)
        if text != getattr(self, "_shown", None):
            self._shown = text
            self.update(text)
