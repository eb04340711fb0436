"""Rows built ahead of need, a slice at a time while the app is idle.

Showing the copied CSVs builds a row per copy: 200,000 at 10,000 namespaces, most of a second
of CPU. The CSV view starts that work when it shows its rows without the copies, in slices
short enough that a key pressed meanwhile waits for one slice at most; ``c`` then finds the
rows made (or makes only what is left).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from olmtui.gc_pause import cyclic_gc_paused
from olmtui.ui.widgets.virtual_table import Row, RowSet

#: The CPU time of one slice, seconds.
SLICE = 0.008
#: Rows made between two looks at the clock.
_BATCH = 256


class RowsAhead:
    """The rows of ``rows`` made so far; ``built_from`` says what they were made from (the
    caller drops them when that moves on)."""

    def __init__(self, rows: Iterator[Row], built_from: object) -> None:
        self.built_from = built_from
        self._rows = rows
        self._made: list[Row] = []

    def step(self) -> bool:
        """Make rows for about ``SLICE`` seconds; whether all are made. The rows are kept for
        long and hold no cycles: out of the collector's view as they are made."""
        deadline = time.perf_counter() + SLICE
        made = self._made
        with cyclic_gc_paused(keep=True):
            for count, row in enumerate(self._rows, 1):
                made.append(row)
                if count % _BATCH == 0 and time.perf_counter() > deadline:
                    return False
        return True

    def finish(self) -> RowSet:
        """Every row, making those not made yet now."""
        with cyclic_gc_paused(keep=True):
            self._made.extend(self._rows)
        return RowSet(self._made)
