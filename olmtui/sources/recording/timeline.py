"""A recording as the rest of olmtui reads it: the store's changes in order, each timed.

The recorder writes what the Store's change feed says (objects as the cache keeps them,
already trimmed), so reading a recording back and applying its changes in order rebuilds
the cache the recorder saw at every moment. Whatever shows a moment of a recording (``check
--at``, the replay time cursor, ``diff FILE@TIME``) reads it through :class:`Timeline`, so
the file format can change without them; :class:`ChangeListTimeline` is the plain
in-memory one (a short recording, a test), the reference the file reader must agree with.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import Protocol

from olmtui.frozen import frozen
from olmtui.objects import Obj
from olmtui.store import ACCESS, ChangeType, Key, Store, Unreadable


@frozen
class TimedChange:
    """One change of the cache as the recorder saw it.

    ``time`` is epoch seconds. ``obj`` is the object after the change (``None`` when
    DELETED). A change of ``key.kind`` :data:`olmtui.store.ACCESS` says a kind became
    unreadable (ADDED/MODIFIED, ``obj`` holds the ``Unreadable``'s fields ``resource``,
    ``reason``, ``since``, ``recheck``, ``namespaces``) or readable again (DELETED);
    ``key.name`` is the kind.
    """

    time: float
    type: ChangeType
    key: Key
    obj: Obj | None


class Timeline(Protocol):
    """The changes of one recording, addressable by position and by time.

    Position ``count`` means "after the first ``count`` changes": ``0`` is before the
    first one, ``len(timeline)`` the end of the recording.
    """

    @property
    def started(self) -> float:
        """When the recording began (epoch seconds)."""
        ...

    @property
    def ended(self) -> float:
        """The time of the last change read (epoch seconds), ``started`` when none."""
        ...

    @property
    def context(self) -> str | None:
        """The kubeconfig context recorded, when known."""
        ...

    def __len__(self) -> int: ...

    def time_of(self, count: int) -> float:
        """The time of the state after ``count`` changes (``started`` for 0)."""
        ...

    def count_at(self, when: float) -> int:
        """How many changes the recorder had seen at ``when``: those timed at or before it."""
        ...

    def state(self, count: int) -> dict[Key, Obj]:
        """Every object (and ACCESS entry) held after the first ``count`` changes."""
        ...

    def changes(self, start: int, stop: int) -> Iterator[TimedChange]:
        """The changes from position ``start`` up to (not including) ``stop``, in order."""
        ...


class ChangeListTimeline:
    """A :class:`Timeline` over changes held in memory, folded from the start on demand."""

    def __init__(
        self, changes: Sequence[TimedChange], started: float, context: str | None = None
    ) -> None:
        self._changes = list(changes)
        self._times = [change.time for change in self._changes]
        self._started = started
        self._context = context

    @property
    def started(self) -> float:
        return self._started

    @property
    def ended(self) -> float:
        return self._times[-1] if self._times else self._started

    @property
    def context(self) -> str | None:
        return self._context

    def __len__(self) -> int:
        return len(self._changes)

    def time_of(self, count: int) -> float:
        return self._times[count - 1] if count > 0 else self._started

    def count_at(self, when: float) -> int:
        return bisect.bisect_right(self._times, when)

    def state(self, count: int) -> dict[Key, Obj]:
        held: dict[Key, Obj] = {}
        for change in self._changes[:count]:
            fold(held, change)
        return held

    def changes(self, start: int, stop: int) -> Iterator[TimedChange]:
        return iter(self._changes[start:stop])


def fold(held: dict[Key, Obj], change: TimedChange) -> None:
    """Apply one change to a state: what every Timeline's ``state`` means."""
    if change.type == "DELETED" or change.obj is None:
        held.pop(change.key, None)
    else:
        held[change.key] = change.obj


def load_state(store: Store, state: dict[Key, Obj]) -> None:
    """Fill an empty store with a state (``Timeline.state``): its objects in one batch,
    then the kinds that were unreadable at that moment (their ACCESS entries)."""
    store.apply_many(obj for key, obj in state.items() if key.kind != ACCESS)
    for key, obj in state.items():
        if key.kind == ACCESS:
            store.set_unreadable(key.name, unreadable_of(obj))


def unreadable_of(obj: Obj) -> Unreadable:
    """The ``Unreadable`` an ACCESS entry records."""
    namespaces = obj.get("namespaces")
    return Unreadable(
        resource=str(obj.get("resource", "")),
        reason=str(obj.get("reason", "")),
        since=float(obj.get("since", 0.0)),
        recheck=None if obj.get("recheck") is None else float(obj["recheck"]),
        namespaces=None if namespaces is None else tuple(namespaces),
    )


__all__ = [
    "ACCESS",
    "ChangeListTimeline",
    "TimedChange",
    "Timeline",
    "fold",
    "load_state",
    "unreadable_of",
]
