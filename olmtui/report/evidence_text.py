"""A finding's evidence as the few terminal lines of ``olmtui check`` text that prove it
(R-EVD-10): the fields its rule read first (an object's ``status`` before its ``spec``), then
its newest Events, then its newest log lines, each kind capped, with how many were left out
and where to see them all ("... and N more").

Read from the report's ``findings[].evidence`` entries (the JSON has every one; Markdown a
longer list). One line each, in aligned columns (what, when, the rest); every text from the
cluster is escaped (``safe_text.visible``): a line can neither move the cursor nor change a
colour. On a terminal a line is cut to its width with "…"; piped, it is never cut.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from olmtui.safe_text import visible

#: Per finding: the fields shown (its rule's record first), the newest Events, the newest
#: log lines. What is left is counted on one line.
FIELDS_SHOWN = 3
EVENTS_SHOWN = 2
LOG_LINES_SHOWN = 2
#: Where the whole evidence is, said on the "... and N more" line.
SEE_ALL = "all of it: --output json, or the dashboard's Findings detail"
#: The label column: "field", "event", "log" padded to one width.
_LABEL = 5


def _one_line(text: object) -> str:
    return visible(" ".join(str(text).split()))


def _ref(entry: dict[str, Any]) -> str:
    where = "/".join(str(p) for p in (entry.get("namespace"), entry.get("name")) if p)
    return _one_line(f"{entry.get('kind') or ''} {where}".strip())


def _field(entry: dict[str, Any], own: str) -> str:
    """``.FIELD = VALUE``, after the object's kind and name when it is not the finding's."""
    ref = _ref(entry)
    where = "" if ref == own else f"{ref} "
    value = _one_line(entry["value"] or "")
    return f"{'field':<{_LABEL}}  {where}.{_one_line(entry['field'])} = {value}"


def _when(entry: dict[str, Any], key: str) -> str:
    return _one_line(entry.get(key) or "(no time)")


def _event(event: dict[str, Any], pad: int) -> str:
    count = (
        f" (×{event['count']})"
        if isinstance(event.get("count"), int) and event["count"] > 1
        else ""
    )
    said = " ".join(_one_line(event.get(k) or "") for k in ("type", "reason") if event.get(k))
    when = f"{_when(event, 'lastTimestamp'):<{pad}}"
    return f"{'event':<{_LABEL}}  {when}  {said}{count}: {_one_line(event.get('message') or '')}"


def _log(log: dict[str, Any], pad: int) -> str:
    when = f"{_when(log, 'time'):<{pad}}"
    return (
        f"{'log':<{_LABEL}}  {when}  {_one_line(log.get('pod') or '')}/"
        f"{_one_line(log.get('container') or '')}: {_one_line(log.get('line') or '')}"
    )


def _newest_first(entries: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """By time, newest first; entries without a time last, in their order."""
    timed = sorted((e for e in entries if e.get(key)), key=lambda e: str(e[key]), reverse=True)
    return timed + [e for e in entries if not e.get(key)]


def evidence_lines(finding: dict[str, Any]) -> tuple[list[str], int]:
    """The lines to print under ``finding`` and how many evidence entries they leave out.
    Bare object entries (``field`` null) name what the finding's subject and ``affects``
    already say, and a streamed long list holds nothing else: neither is shown."""
    evidence = finding.get("evidence")
    if not isinstance(evidence, list):
        return [], 0
    own = _ref(finding)
    fields = [e for e in evidence if "event" not in e and "log" not in e and e.get("field")]
    # what the object says happened before what was asked of it: a spec field (the channel,
    # the source) rarely proves a failure, its status does; otherwise in the report's order
    fields.sort(key=lambda e: str(e["field"]).startswith("spec."))
    events = _newest_first([e["event"] for e in evidence if "event" in e], "lastTimestamp")
    logs = _newest_first([e["log"] for e in evidence if "log" in e], "time")
    shown_events = events[:EVENTS_SHOWN]
    shown_logs = logs[:LOG_LINES_SHOWN][::-1]  # the newest, read in time order
    # one column of times for the Events and the log lines, what they say after it
    times = [_when(e, "lastTimestamp") for e in shown_events] + [
        _when(e, "time") for e in shown_logs
    ]
    pad = max(map(len, times), default=0)
    lines = [
        *(_field(e, own) for e in fields[:FIELDS_SHOWN]),
        *(_event(e, pad) for e in shown_events),
        *(_log(e, pad) for e in shown_logs),
    ]
    return lines, len(fields) + len(events) + len(logs) - len(lines)


def _cells(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cut(text: str, width: int | None) -> str:
    """``text`` within ``width`` terminal cells, its end replaced by "…" when cut; whole when
    ``width`` is None (piped output is never cut)."""
    if width is None:
        return text
    cells = [_cells(char) for char in text]
    if sum(cells) <= width:
        return text
    kept, used = [], 0
    for char, size in zip(text, cells, strict=True):
        if used + size > width - 1:
            break
        kept.append(char)
        used += size
    return "".join(kept) + "…"


def evidence_block(shown: tuple[list[str], int], indent: int, width: int | None) -> list[str]:
    """The lines of :func:`evidence_lines` (``shown``) as printed under a finding, ``indent``
    columns in, each within ``width``; none when there is no evidence to show."""
    lines, left = shown
    if not lines:
        return []
    pad = " " * indent
    block = [f"{pad}evidence:", *(f"{pad}  {text}" for text in lines)]
    if left:
        block.append(f"{pad}  ... and {left} more ({SEE_ALL})")
    return [cut(text, width) for text in block]
