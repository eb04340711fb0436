"""The top line: which source is shown (the cluster, or the snapshot and its moment), which
version it runs, and, live, how the connection is doing."""

from __future__ import annotations

import datetime as dt

from rich.text import Text

from olmtui.model.records.source_context import SourceContext
from olmtui.model.rules.input.access import minutes
from olmtui.pipeline.session import ConnectionState, Session, SourceInfo
from olmtui.pipeline.time_control import CursorPlace
from olmtui.ui import palette
from olmtui.ui.widgets.inert_static import InertStatic

_STATE_STYLES = {
    "live": palette.OK_STRONG,
    "live, partial": palette.UNKNOWN_STRONG,
    "syncing": palette.WARNING_STRONG,
    "reconnecting": palette.ERROR,
    "failed": palette.ERROR,
    "unavailable": palette.ERROR,
    "no access": palette.UNKNOWN_STRONG,
    "connecting": palette.WARNING_STRONG,
    "stopped": "bold",
}
#: The source label keeps at least this many cells before the facts about it give way.
_LABEL_ROOM = 16
_SEP = " · "
#: Below this width a recording's position is ``N/M``, not ``change N of M``.
_MOMENT_ROOM = 120


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


def _when(moment: dt.datetime, short: bool = False) -> str:
    utc = moment.astimezone(dt.UTC)
    return utc.strftime("%Y-%m-%d %H:%MZ" if short else "%Y-%m-%d %H:%M UTC")


def _version(context: SourceContext, info: SourceInfo) -> tuple[str, ...]:
    """OpenShift's version when the ClusterVersion is known, else the API server's."""
    openshift = context.openshift_version
    if openshift:
        return (f"OpenShift {openshift}", f"OCP {openshift}")
    version = info.kubernetes_version
    return (f"Kubernetes {version}", f"k8s {version}") if version else ()


def _olm(context: SourceContext) -> tuple[str, ...]:
    """The OLM version the input shows (its ClusterOperator, its packageserver CSV)."""
    return (f"OLM {context.olm_version}",) if context.olm_version else ()


def _moment(info: SourceInfo) -> tuple[str, ...]:
    if info.snapshot_time is None:
        return ()
    long, short = _when(info.snapshot_time), _when(info.snapshot_time, short=True)
    if info.gathered:  # the must-gather's own timestamp file
        return (f"gathered {long}", short)
    return (f"snapshot of {long} or later", f"≥ {short}")


def source_facts(session: Session, info: SourceInfo) -> tuple[list[tuple[str, ...]], int]:
    """What the header says about the source after its label, most important first, each
    as its forms from the longest to the shortest, and how many lead: the moment and the
    version, which outrank the whole label; the server and the user give way to it."""
    context = session.analysis.header_context()
    facts = [f for f in (_moment(info), _version(context, info), _olm(context)) if f]
    lead = len(facts)
    if info.server:
        facts.append((info.server, info.server.split("://", 1)[-1]))
    if info.user:
        facts.append((f"user {info.user}",))
    return facts, lead


def _fit_facts(facts: list[tuple[str, ...]], lead: int, label: str, room: int) -> list[str]:
    """The form of each fact that fits beside the label: the least important fact is
    shortened, then dropped, before the next one is touched. The label stays whole while
    a fact after the ``lead`` ones is shown, and keeps at least ``_LABEL_ROOM`` cells."""
    chosen = [0] * len(facts)
    kept = len(facts)

    def short() -> bool:
        need = len(label) if kept > lead else min(len(label), _LABEL_ROOM)
        used = sum(len(_SEP) + len(facts[i][chosen[i]]) for i in range(kept))
        return room - used < need

    while kept and short():
        last = kept - 1
        if chosen[last] + 1 < len(facts[last]):
            chosen[last] += 1
        else:
            kept -= 1
    return [facts[i][chosen[i]] for i in range(kept)]


def header_text(session: Session, view_title: str, width: int = 200) -> Text:
    """Plain Text (never markup): labels and paths come from the user and the cluster.

    What must survive a narrow terminal comes first: the view, the source, the connection
    state and the age of the last event; the facts about the source (version, snapshot
    time, server, user) give way next, least important first; the namespaces read
    (``--namespace``), the status detail and the no-access list take what is left and end
    in an ellipsis.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(" olmtui ", style="bold reverse")
    text.append(f" {view_title} ", style="bold")
    text.append("│ ", style=palette.MUTED)
    text.append(f"{session.kind}: ", style=palette.MUTED)
    status = session.status() if session.status is not None else None
    essential = Text()
    if session.time is not None:  # a recording: which moment, which change
        essential.append_text(_moment_text(session.time.place(), short=width < _MOMENT_ROOM))
    if status is not None:
        essential.append(" │ ", style=palette.MUTED)
        essential.append(status.state, style=_STATE_STYLES.get(status.state, "bold"))
        essential.append(f" · {_age(status.last_event_age)}", style=palette.MUTED)
    room = width - text.cell_len - essential.cell_len - 1
    info = session.info()
    label = info.context or session.label  # the context, once a live source resolved it
    facts = _fit_facts(*source_facts(session, info), label, room)
    room -= sum(len(_SEP) + len(f) for f in facts)
    text.append(_fit_left(label, max(room, 8)))
    for fact in facts:
        text.append(_SEP, style=palette.MUTED)
        text.append(fact)
    text.append_text(essential)
    _append_tail(text, session, status)
    return text


def _moment_text(place: CursorPlace, short: bool = False) -> Text:
    """A recording's cursor: the moment shown (UTC), change N of M, and at the end of a
    recording still being written, that more may come; ``short`` (a narrow terminal):
    the moment alone and ``N/M``, so that both stay."""
    text = Text()
    text.append(" │ ", style=palette.MUTED)
    text.append(place.moment if short else f"at {place.moment}", style="bold")
    where = (
        f"{place.position}/{place.length}"
        if short
        else (f"change {place.position} of {place.length}")
    )
    text.append(f" · {where}", style=palette.MUTED)
    if place.at_end:
        growing = "growing" if short else "end, still recording"
        text.append(
            f" · {growing}" if place.growing else " · end",
            style=palette.WARNING_STRONG if place.growing else palette.MUTED,
        )
    return text


def _append_tail(text: Text, session: Session, status: ConnectionState | None) -> None:
    """What may end in an ellipsis: a recording's span, what of the input is missing
    (R-SRC-1), namespaces read, the status detail, no access."""
    if session.time is not None:
        place = session.time.place()
        text.append(f" · recorded {place.started} to {place.ended}", style=palette.MUTED)
    partial = session.input_partial()
    if partial.partial:  # findings resting on absence are withheld meanwhile
        text.append(f" · input incomplete: {'; '.join(partial.reasons)}", style=palette.WARNING)
    read = session.store.read_namespaces
    if read is not None:  # a --namespace session: elsewhere is unknown, not absent
        text.append(f" · read: namespaces {', '.join(sorted(read))} only", style=palette.WARNING)
    if status is None:
        return
    if status.detail:
        text.append(f" · {status.detail}", style=palette.MUTED)
    if status.no_access:
        again = "" if status.recheck is None else f" (re-checked every {minutes(status.recheck)})"
        text.append(f" · no access: {', '.join(status.no_access)}{again}", style=palette.UNKNOWN)


class SourceHeader(InertStatic):
    """Redrawn by the app's ticker; never parses markup, shows controls as escapes."""

    DEFAULT_CSS = """
    SourceHeader {
        height: 1;
        background: $panel;
    }
    """

    def __init__(self, session: Session, view_title: str) -> None:
        super().__init__()
        self.session = session
        self.view_title = view_title

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self, force: bool = False) -> None:
        """Update when the text changed, or ``force`` (a new theme restyles the same text)."""
        text = header_text(self.session, self.view_title, self.size.width or 200)
        if force or text != getattr(self, "_shown", None):
            self._shown = text
            self.update(text, layout=False)  # one line always: nothing to lay out again
