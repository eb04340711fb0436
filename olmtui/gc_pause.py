"""Pausing Python's cyclic garbage collector around bulk work over the cache, and keeping
what ``gc.freeze`` hides from it bounded.

Parsed objects, trimmed cache entries, model records and table rows hold no reference
cycles, yet building many of them next to a large cache sets off full collections that walk
the whole cache again and again. Reference counting still frees everything; the collector
runs as usual after.

Frozen objects are never collected: whatever holds a cycle when frozen (the UI's widgets and
render caches, asyncio's tasks) and is dropped later stays in memory for good. Freezing after
every watch event made the dashboard grow ~0.5-2.4 KB an event. So kept blocks
freeze only once they made many objects between them (a watch event's few cost the
collector little until then), and ``compact_frozen``, called from the app's refresh tick,
thaws, collects and freezes again when the frozen generation grew by ``COMPACT_GROWTH``
(looked at once a ``COMPACT_INTERVAL``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: Kept blocks freeze once they made at least this many tracked objects since the last
#: freeze: below it the collector's own generations handle them for little.
FREEZE_MIN = 10_000
#: Seconds between two counts of the frozen generation (a walk of it: ~40 ms per 500,000).
#: What a stream of events keeps frozen meanwhile (~7 objects an event) bounds the slack.
COMPACT_INTERVAL = 10.0
#: A compaction (a full collection over everything: ~0.4 s per 500,000 objects on a busy
#: machine) runs when the frozen generation grew by this fraction since the last one, the
#: slack Python's collector itself keeps for its oldest generation...
COMPACT_GROWTH = 0.25
#: ... and by at least this many objects.
COMPACT_FLOOR = 20_000


class _Frozen:
    """When the frozen generation was last looked at, and its size after the last
    compaction."""

    checked = time.monotonic()
    baseline = 0
    #: Objects made by kept blocks since the last freeze.
    pending = 0


@contextmanager
def cyclic_gc_paused(*, keep: bool = False) -> Iterator[None]:
    """Pause the collector for the block. ``keep``: what the block made is kept for long
    (cache entries), so once kept blocks made much (``FREEZE_MIN``) it is moved out of the
    collector's view (``gc.freeze``, O(1)) before the collector resumes; otherwise the first
    allocation after the block would set off a collection walking all of it."""
    was_enabled = gc.isenabled()
    gc.disable()
    before = gc.get_count()[0]
    try:
        yield
    finally:
        # gc.freeze empties generation 0's count: a nested block that froze leaves it lower
        after = gc.get_count()[0]
        if keep:
            _Frozen.pending += after - before if after >= before else after
            if _Frozen.pending >= FREEZE_MIN:
                gc.freeze()
                _Frozen.pending = 0
        if was_enabled:
            gc.enable()


def freeze_all() -> None:
    """Freeze everything now (a loaded cache, for the session) and make it the size the
    frozen generation is measured against."""
    gc.freeze()
    _Frozen.pending = 0
    _Frozen.checked = time.monotonic()
    _Frozen.baseline = gc.get_freeze_count()


def compact_frozen(*, force: bool = False) -> bool:
    """Free the cycles dropped since they were frozen: thaw, collect everything, freeze
    again, when the frozen generation grew enough (looked at once a ``COMPACT_INTERVAL``)
    or ``force``. Whether it ran."""
    now = time.monotonic()
    if not force:
        if now - _Frozen.checked < COMPACT_INTERVAL:
            return False
        _Frozen.checked = now
        grown = gc.get_freeze_count() - _Frozen.baseline
        if grown < max(COMPACT_FLOOR, _Frozen.baseline * COMPACT_GROWTH):
            return False
    gc.unfreeze()
    gc.collect()
    freeze_all()
    return True
