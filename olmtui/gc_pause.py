"""Pausing Python's cyclic garbage collector around bulk work over the cache.

Parsed objects, trimmed cache entries, model records and table rows hold no reference
cycles, yet building many of them next to a large cache sets off full collections that walk
the whole cache again and again. Reference counting still frees everything; the collector
runs as usual after.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused(*, keep: bool = False) -> Iterator[None]:
    """Pause the collector for the block. ``keep``: what the block made is kept for long
    (cache entries), so it is moved out of the collector's view (``gc.freeze``, O(1))
    before the collector resumes; otherwise the first allocation after the block would
    set off a collection walking all of it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if keep:
            gc.freeze()
        if was_enabled:
            gc.enable()
