"""Moving a store from one moment of a recording to another by what differs between them.

The time cursor and the finding history (``pipeline/time_cursor.py``,
``pipeline/finding_history.py``) both move a store along a ``Timeline``: forward a little,
the changes in between are folded into one net change per object; back, or far, the
recording's state at the target (from its checkpoints) is compared with what the store
holds. Either way only what differs reaches the store, in one batch, so the Model and the
HealthIndex recompute only what moved (R-REC-4).
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.sources.recording.timeline import TimedChange, Timeline, unreadable_of
from olmtui.store import ACCESS, KINDS, Key, Obj, Store

#: Changes folded one by one rather than read as a whole state: past this many, the
#: recording's checkpoints (``Timeline.state``) are the cheaper road.
FOLD_LIMIT = 5_000
#: What a move sets: each key's object after it, ``None`` where the key holds nothing.
NetChange = dict[Key, Obj | None]


def folded(changes: Iterable[TimedChange]) -> NetChange:
    """The net effect of consecutive changes: the last word on each key."""
    net: NetChange = {}
    for change in changes:
        net[change.key] = None if change.type == "DELETED" else change.obj
    return net


def held_keys(store: Store) -> set[Key]:
    """Every key the store holds now, its unreadable kinds' ACCESS entries included."""
    keys = {key for kind in KINDS for key, _ in store.items(kind)}
    keys.update(Key(ACCESS, "", kind) for kind in store.unreadable)
    return keys


def net_between(timeline: Timeline, store: Store, start: int, stop: int) -> NetChange:
    """What turns ``store``, which holds the state after ``start`` changes, into the state
    after ``stop``: the changes between folded when few and forward; else the state at
    ``stop`` against the keys those changes touch, or, far away, against every key held."""
    if start == stop:
        return {}
    if start < stop and stop - start <= FOLD_LIMIT:
        return folded(timeline.changes(start, stop))
    target = timeline.state(stop)
    if abs(stop - start) <= FOLD_LIMIT:
        low, high = min(start, stop), max(start, stop)
        keys: Iterable[Key] = {change.key for change in timeline.changes(low, high)}
    else:
        keys = held_keys(store) | target.keys()
    return {key: target.get(key) for key in keys}


def apply_net(store: Store, net: NetChange) -> None:
    """Set what ``net`` says: objects in one batch, removals in another, then the kinds
    that became unreadable or readable again. An object equal to the one held is no change
    (``Store.apply_many``); keys of no kind the store keeps are ignored."""
    store.apply_many(obj for key, obj in net.items() if obj is not None and key.kind in KINDS)
    store.remove_many(key for key, obj in net.items() if obj is None and key.kind in KINDS)
    for key, obj in net.items():
        if key.kind != ACCESS:
            continue
        unreadable = None if obj is None else unreadable_of(obj)
        held = store.unreadable.get(key.name)
        if unreadable is not None and held is not None and held.since != unreadable.since:
            store.set_unreadable(key.name, None)  # a kind unreadable keeps its since
        store.set_unreadable(key.name, unreadable)
