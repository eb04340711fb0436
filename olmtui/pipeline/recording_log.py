"""A recording's changes as the Changes view lists them: one entry per change, in order.

The live change log (``pipeline/change_log.py``) reads each batch of the store's feed as it
comes; a recording holds every change from its start, so its Changes view is the timeline
of the whole recording (R-REC-4). Each change is told as the live log tells it
(``change_entries``: phase moves, new InstallPlans, states), which needs the object before
the change: the entries are made by folding the changes from the first one, once, in a
worker thread a part at a time (a recording may hold a million changes), and extended when a
recording still being written grows.
"""

from __future__ import annotations

from olmtui.model.records.types import ObjectRef
from olmtui.model.viewmodels.views import change_entries
from olmtui.pipeline.time_control import TimelineEntry
from olmtui.sources.recording.moments import utc_text
from olmtui.sources.recording.timeline import TimedChange, Timeline, fold, unreadable_of
from olmtui.store import ACCESS, Change, Key, Obj


def time_of_day(when: float) -> str:
    """``10:05:00Z``: a change's time in the Changes view (the header gives the day)."""
    return utc_text(when)[11:]


def entry_of(position: int, change: TimedChange, old: Obj | None) -> TimelineEntry:
    """The Changes view's row of one change; what the live log would say of it, else
    the change's type (a Deployment's new status, a copied CSV: not news live, but a
    recording lists every change)."""
    key = change.key
    ref = ObjectRef(key.kind, key.namespace, key.name)
    new = None if change.type == "DELETED" else change.obj
    if key.kind == ACCESS:  # the feed's form of an ACCESS entry, which the log reads
        old, new = as_fed(key, old), as_fed(key, new)
    told = change_entries([Change(change.type, key, old, new)])
    when = time_of_day(change.time)
    if not told:
        return TimelineEntry(position, when, change.type.lower(), ref, state_word(new))
    first = told[0]
    message = "; ".join(entry.message for entry in told)
    return TimelineEntry(position, when, first.what, ref, message, first.severity)


def state_word(obj: Obj | None) -> str:
    """What an object's status says in one word, where it has one the live log does not
    tell (a CatalogSource's connection state, a phase, a state)."""
    status = obj.get("status") if obj is not None else None
    if not isinstance(status, dict):
        return ""
    connection = status.get("connectionState")
    if isinstance(connection, dict) and connection.get("lastObservedState"):
        return f"connection {connection['lastObservedState']}"
    for field in ("phase", "state"):
        if isinstance(status.get(field), str) and status[field]:
            return f"{field} {status[field]}"
    return ""


def as_fed(key: Key, fields: Obj | None) -> Obj | None:
    """An ACCESS entry of a recording (the ``Unreadable``'s fields) as the store's change
    feed carries it: its scope and reason in ``status``."""
    if fields is None:
        return None
    unreadable = unreadable_of(fields)
    status = {"resource": unreadable.scope, "reason": unreadable.reason}
    return {"kind": ACCESS, "metadata": {"name": key.name}, "status": status}


class RecordingLog:
    """The entries of one timeline. A worker thread makes them, a part at a time
    (:meth:`build`, which alone reads the timeline and the objects folded so far); the UI
    loop keeps what each part made (:meth:`add`) and the screens read :meth:`entries`."""

    def __init__(self, timeline: Timeline) -> None:
        self._timeline = timeline
        self._entries: list[TimelineEntry] = []
        self._held: dict[Key, Obj] = {}
        #: How many changes :meth:`build` has told (the worker's, read between its runs).
        self.built = 0

    def build(self, stop: int) -> list[TimelineEntry]:
        """In the worker: the entries of the changes from where the last part ended up to
        ``stop``."""
        start, made = self.built, []
        for position, change in enumerate(self._timeline.changes(start, stop), start + 1):
            made.append(entry_of(position, change, self._held.get(change.key)))
            fold(self._held, change)
        self.built = stop
        return made

    def add(self, made: list[TimelineEntry]) -> None:
        """On the UI loop: keep a part the worker made."""
        self._entries.extend(made)

    def entries(self) -> list[TimelineEntry]:
        """Every change told so far, oldest first (the same list, extended in place)."""
        return self._entries
