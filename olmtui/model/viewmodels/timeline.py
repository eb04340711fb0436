"""What happened, in order (R-EVD-11): the times the objects of a namespace or of an incident
record, as one list oldest first ("15:27:22 InstallPlan install-a created · 15:28:43
InstallPlan install-a Installed=False (InstallComponentFailed) · 15:29:59 InstallPlan
install-b created").

The entries an object gives, each at the time the object records for it:

- ``created`` at ``metadata.creationTimestamp``; ``deletion requested`` at
  ``metadata.deletionTimestamp``;
- each condition with a ``lastTransitionTime``: ``<Type>=<Status> (<Reason>)`` and the first
  line of its message; a CSV's phase history (its conditions carry ``phase``) and its
  ``status.lastTransitionTime``: ``phase <Phase> (<Reason>)``;
- a Job's ``startTime`` (``started``) and ``completionTime`` (``completed``); a container's
  last termination (``container NAME ended (<Reason>, exit N)``) at its ``finishedAt``;
- an Event, at its last time (``store_evidence.event_time``), about its involved object:
  ``<Type> <Reason>: <message> ×<count>``.

Nothing is given a time it does not record: a condition, an Event or an object without one
is left out of the list, and only counted (``Timeline.untimed``), so a reader knows the list
is not all there is. A phase with no time of its own (an InstallPlan's ``status.phase``) is
not an entry: its condition, which has the time, is. Entries are ordered by time, ties by
object (kind, namespace, name) and then by the order the object gives them (created first),
so the same objects always give the same list. The list keeps the newest ``limit`` entries
and counts the older ones left out (``Timeline.earlier``: "… N earlier").

Times are shown in UTC, the date on the first line and on each line where it changes, and
each relative to a reference: the gather time of a snapshot, now on a live cluster.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import CSV, EVENT, JOB, POD
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.csvs.csv_phase_findings import age_text
from olmtui.objects import mapping_of, meta, name_of, namespace_of, parse_time, status
from olmtui.store_evidence import event_subject, event_time

Obj = dict[str, Any]

#: Entries kept for one namespace (the newest; the older are counted).
NAMESPACE_LIMIT = 500
#: A condition's or Event's message is cut to this many characters (its first line).
MESSAGE_LIMIT = 160
#: Reasons and phases that say something went wrong (a Warning Event too): drawn as such.
_TROUBLE = ("Fail", "Error", "BackOff", "OOMKilled", "Unhealthy")


@frozen
class TimelineEntry:
    """One thing that happened: when, to which object, and what (``trouble``: a failure, a
    Warning Event, a restart: what a reader looks for first)."""

    at: dt.datetime
    ref: ObjectRef
    what: str
    trouble: bool = False


@frozen
class Timeline:
    """The entries kept, oldest first; how many older ones the cap left out, and how many
    conditions, Events and objects recorded no time (left out, never placed)."""

    entries: tuple[TimelineEntry, ...]
    earlier: int = 0
    untimed: int = 0


@frozen
class TimelineLine:
    """One entry as shown: ``date`` (``2026-05-01``) only where it changes, ``time``
    (``15:27:22``) in UTC, ``relative`` to the reference (``1h 2m before``; empty without
    one), and the entry."""

    date: str
    time: str
    relative: str
    entry: TimelineEntry


def _first_line(text: Any) -> str:
    if not isinstance(text, str):
        return ""
    line = text.strip().split("\n", 1)[0].strip()
    return line if len(line) <= MESSAGE_LIMIT else line[: MESSAGE_LIMIT - 1] + "…"


def _word(value: Any) -> str:
    """``value`` when it is a string, else empty (a wrong-typed field reads as absent)."""
    return value if isinstance(value, str) else ""


def _trouble(*words: str) -> bool:
    return any(mark in word for word in words for mark in _TROUBLE)


class _Collector:
    """The entries of one object, in the order it gives them, and the facts without time."""

    def __init__(self, ref: ObjectRef) -> None:
        self.ref = ref
        self.found: list[tuple[dt.datetime, str, bool]] = []
        self.untimed = 0

    def add(self, value: Any, what: str, trouble: bool = False) -> None:
        at = parse_time(value)
        if at is None:
            self.untimed += 1
        else:
            self.found.append((at.astimezone(dt.UTC), what, trouble))


def _condition_text(condition: Obj) -> tuple[str, bool] | None:
    """``Type=Status (Reason): message``, or a CSV's ``phase Phase (Reason)``."""
    reason, kind, phase = (_word(condition.get(k)) for k in ("reason", "type", "phase"))
    if kind:
        state = _word(condition.get("status"))
        head = f"{kind}={state}" if state else kind
        # a condition of type Failed (a Job's) is trouble only while it holds
        trouble = _trouble(reason) or (_trouble(kind) and state == "True")
    elif phase:
        head, trouble = f"phase {phase}", _trouble(phase, reason)
    else:
        return None
    text = f"{head} ({reason})" if reason else head
    message = _first_line(condition.get("message"))
    return (f"{text}: {message}" if message else text), trouble


def _conditions(found: _Collector, obj_status: Obj) -> None:
    conditions = obj_status.get("conditions")
    for condition in conditions if isinstance(conditions, list) else ():
        if not isinstance(condition, dict):
            continue
        shown = _condition_text(condition)
        if shown is not None:
            found.add(condition.get("lastTransitionTime"), *shown)


def _csv_phase(found: _Collector, obj_status: Obj) -> None:
    """A CSV's current phase at ``status.lastTransitionTime`` (its history's newest row,
    when it keeps one, says the same with the same message and is dropped as a repeat)."""
    phase = obj_status.get("phase")
    if isinstance(phase, str) and phase and obj_status.get("lastTransitionTime") is not None:
        shown = _condition_text(
            {
                "phase": phase,
                "reason": obj_status.get("reason"),
                "message": obj_status.get("message"),
            }
        )
        if shown is not None:
            found.add(obj_status.get("lastTransitionTime"), *shown)


def _containers(found: _Collector, obj_status: Obj) -> None:
    for field in ("initContainerStatuses", "containerStatuses"):
        containers = obj_status.get(field)
        for container in containers if isinstance(containers, list) else ():
            ended = mapping_of(mapping_of(mapping_of(container).get("lastState")).get("terminated"))
            if not ended:
                continue
            reason = _word(ended.get("reason"))
            code = ended.get("exitCode")
            why = ", ".join(
                p for p in (reason, f"exit {code}" if isinstance(code, int) else "") if p
            )
            name = _word(mapping_of(container).get("name")) or "?"
            what = f"container {name} ended" + (f" ({why})" if why else "")
            found.add(ended.get("finishedAt"), what, _trouble(reason) or bool(code))


def _event(obj: Obj) -> _Collector | None:
    subject = event_subject(obj)
    if subject is None:
        return None
    found = _Collector(ObjectRef(*subject))
    kind, reason = _word(obj.get("type")), _word(obj.get("reason"))
    head = " ".join(p for p in (kind, reason) if p) or "event"
    message = _first_line(obj.get("message"))
    count = obj.get("count")
    times = f" ×{count}" if isinstance(count, int) and count > 1 else ""
    what = f"{head}: {message}{times}" if message else f"{head}{times}"
    found.add(event_time(obj), what, kind == "Warning" or _trouble(reason))
    return found


def _object(obj: Obj) -> _Collector:
    found = _Collector(ObjectRef(_word(obj.get("kind")), namespace_of(obj), name_of(obj)))
    obj_meta = meta(obj)
    found.add(obj_meta.get("creationTimestamp"), "created")
    if obj_meta.get("deletionTimestamp") is not None:
        found.add(obj_meta.get("deletionTimestamp"), "deletion requested")
    obj_status = status(obj)
    kind = found.ref.kind
    if kind == JOB:
        if obj_status.get("startTime") is not None:
            found.add(obj_status.get("startTime"), "started")
        if obj_status.get("completionTime") is not None:
            found.add(obj_status.get("completionTime"), "completed")
    _conditions(found, obj_status)
    if kind == CSV:
        _csv_phase(found, obj_status)
    if kind == POD:
        _containers(found, obj_status)
    return found


def entries_of(obj: Obj) -> tuple[list[TimelineEntry], int]:
    """The entries one object (or Event) gives, in its own order, repeats dropped, and how
    many of its facts recorded no time."""
    found = _event(obj) if obj.get("kind") == EVENT else _object(obj)
    if found is None:  # an Event about no object: not one the cache keeps
        return [], 0
    seen: set[tuple[dt.datetime, str]] = set()
    entries = []
    for at, what, trouble in found.found:
        if (at, what) not in seen:
            seen.add((at, what))
            entries.append(TimelineEntry(at, found.ref, what, trouble))
    return entries, found.untimed


def _ordered(objects: Iterable[Obj]) -> Iterator[tuple[tuple[Any, ...], TimelineEntry] | int]:
    for obj in objects:
        entries, untimed = entries_of(obj)
        if untimed:
            yield untimed
        for place, entry in enumerate(entries):
            ref = entry.ref
            yield (entry.at, ref.kind, ref.namespace, ref.name, place, entry.what), entry


def timeline(objects: Iterable[Obj], limit: int = NAMESPACE_LIMIT) -> Timeline:
    """The timeline of ``objects`` (and Events about them): the newest ``limit`` entries,
    oldest first, and the counts of what was left out (the module docstring says how)."""
    keyed: list[tuple[tuple[Any, ...], TimelineEntry]] = []
    untimed = 0
    for item in _ordered(objects):
        if isinstance(item, int):
            untimed += item
        else:
            keyed.append(item)
    keyed.sort(key=lambda pair: pair[0])
    kept = keyed[-limit:] if limit > 0 else []
    return Timeline(tuple(e for _, e in kept), len(keyed) - len(kept), untimed)


def relative_text(at: dt.datetime, reference: dt.datetime | None, live: bool = False) -> str:
    """``3m 12s before`` the gather time (``after`` when the entry is later: clocks differ),
    or, ``live``, ``3m 12s ago`` (``in 5s``); empty when there is no reference."""
    if reference is None:
        return ""
    seconds = (reference - at).total_seconds()
    if abs(seconds) < 1:
        return "now" if live else "at the same time"
    age = age_text(abs(seconds))
    if live:
        return f"{age} ago" if seconds > 0 else f"in {age}"
    return f"{age} {'before' if seconds > 0 else 'after'}"


def timeline_lines(
    entries: Iterable[TimelineEntry], reference: dt.datetime | None, live: bool = False
) -> list[TimelineLine]:
    """The entries as lines: UTC times, the date where it changes, relative to
    ``reference`` (the gather time of a snapshot; now when ``live``; ``None``: not said)."""
    lines, shown_date = [], ""
    for entry in entries:
        date = f"{entry.at:%Y-%m-%d}"
        lines.append(
            TimelineLine(
                date if date != shown_date else "",
                f"{entry.at:%H:%M:%S}",
                relative_text(entry.at, reference, live),
                entry,
            )
        )
        shown_date = date
    return lines


def reference_words(reference: dt.datetime | None, live: bool) -> str:
    """What the relative times count from, in words (the lists' header)."""
    if reference is None:
        return "times in UTC"
    base = "now" if live else f"the gather time ({reference:%Y-%m-%d %H:%M:%S} UTC)"
    return f"times in UTC, relative to {base}"


def left_out_words(shown: Timeline, kept: int | None = None) -> list[str]:
    """What a list of ``shown``'s entries leaves out, one phrase each: the older entries
    (``kept``: how many of its entries the list shows, fewer than it holds) and the facts
    with no time."""
    earlier = shown.earlier
    if kept is not None and kept < len(shown.entries):
        earlier += len(shown.entries) - kept
    words = []
    if earlier:
        words.append(f"… {earlier} earlier")
    if shown.untimed:
        words.append(f"{shown.untimed} without a time, not placed")
    return words
