"""The session's change log: every batch from the Store's change feed, turned into readable
entries (``model/viewmodels/views.change_entries``) with the wall-clock time it arrived."""

from __future__ import annotations

import time
from collections import deque

from olmtui.frozen import frozen
from olmtui.model.viewmodels.views import ChangeEntry, change_entries
from olmtui.store import Change, Store

#: Entries kept; older ones scroll away.
CAPACITY = 20_000


@frozen
class LoggedChange:
    seq: int
    at: float
    entry: ChangeEntry


class ChangeLog:
    """Subscribed to a Store from creation until :meth:`close`."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._entries: deque[LoggedChange] = deque(maxlen=CAPACITY)
        self._seq = 0
        store.subscribe(self._on_changes)

    def _on_changes(self, changes: list[Change]) -> None:
        now = time.time()
        for entry in change_entries(changes):
            self._seq += 1
            self._entries.append(LoggedChange(self._seq, now, entry))

    def entries(self) -> list[LoggedChange]:
        """Oldest first, as a log reads (``tail -f``)."""
        return list(self._entries)

    @property
    def newest_seq(self) -> int:
        """The sequence number of the newest entry (0 before the first); entries are
        numbered one by one, so the difference of two is how many arrived between them."""
        return self._seq

    def close(self) -> None:
        self._store.unsubscribe(self._on_changes)
