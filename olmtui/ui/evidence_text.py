"""A finding's evidence as its detail pane shows it (R-EVD-10): the fields as
``kind/name .field = value``, the Events newest first, and OLM's log lines toolong-style (a
time column, the level coloured, the object's name highlighted).

Every piece is cluster text: built as plain ``Text`` (never parsed as markup) and made inert.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from olmtui.model.records.types import (
    EventEvidence,
    Evidence,
    FieldEvidence,
    LogEvidence,
    ref,
)
from olmtui.ui import palette
from olmtui.ui.inert import inert_text

#: Styles of a log line's level column.
_LEVEL_STYLE = {
    "error": palette.ERROR,
    "warning": palette.WARNING,
    "info": palette.INFO,
    "debug": palette.MUTED,
}
_LEVEL_WORD = {"error": "ERROR", "warning": "WARN ", "info": "INFO ", "debug": "DEBUG"}
#: Style of the object's name where a log line names it.
_NAMED = "bold underline"


def _clock(time: str) -> str:
    """``2026-11-28T11:25:00.400000000Z`` as ``11-28 11:25:00.400``; no time as dashes."""
    if len(time) < 19:
        return "--- --:--:--.---"
    fraction = time[19:].lstrip(".").rstrip("Z")[:3] if time[19:20] == "." else ""
    return f"{time[5:10]} {time[11:19]}.{fraction.ljust(3, '0')}"


def _field_line(evidence: FieldEvidence) -> Text:
    line = Text("  ")
    line.append(f"{evidence.kind}/{ref(evidence.namespace, evidence.name)}", style=palette.MUTED)
    line.append(f" .{evidence.field}")
    line.append(" = ")
    line.append(evidence.value, style="bold")
    return line


def _event_line(evidence: EventEvidence) -> Text:
    line = Text("  ")
    line.append(_clock(evidence.time), style=palette.MUTED)
    style = palette.WARNING if evidence.type == "Warning" else ""
    line.append(f" {evidence.type or '?':<7} ", style=style)
    line.append(evidence.reason, style="bold")
    line.append(f": {evidence.message}")
    if evidence.count > 1:
        line.append(f" (×{evidence.count})", style=palette.MUTED)
    return line


def _log_line(evidence: LogEvidence, name: str) -> Text:
    line = Text("  ")
    line.append(_clock(evidence.time), style=palette.MUTED)
    line.append(" ")
    line.append(
        _LEVEL_WORD.get(evidence.level, "     "), style=_LEVEL_STYLE.get(evidence.level, "")
    )
    line.append(f" {evidence.container} ", style=palette.MUTED)
    line.append(evidence.line)
    if name:
        line.highlight_words([name], style=_NAMED)  # plain words: the line is never markup
    return line


def log_lines_text(logs: Sequence[LogEvidence], name: str = "") -> Text:
    """OLM's log lines, one a line toolong-style, ``name`` highlighted (the object detail's
    "OLM log lines naming it" section)."""
    return inert_text(Text("\n").join(_log_line(e, name) for e in logs))


def evidence_text(evidence: Sequence[Evidence], name: str = "") -> Text | None:
    """The Evidence section of a finding's detail, ``None`` when it has none; ``name``, the
    finding's object, is highlighted where a log line names it."""
    fields = [e for e in evidence if isinstance(e, FieldEvidence)]
    events = [e for e in evidence if isinstance(e, EventEvidence)]
    logs = [e for e in evidence if isinstance(e, LogEvidence)]
    if not (fields or events or logs):
        return None
    lines = [Text("evidence:", style="bold"), *map(_field_line, fields)]
    if events:
        lines += [Text("events (newest first):", style="bold"), *map(_event_line, events)]
    if logs:
        lines.append(Text("OLM log lines naming it:", style="bold"))
        lines += (_log_line(e, name) for e in logs)
    return inert_text(Text("\n").join(lines))
