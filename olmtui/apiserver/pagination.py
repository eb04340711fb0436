"""Continue tokens: every page of one paginated list comes from the same snapshot.

kube-apiserver serves ``continue`` pages from etcd at the first page's resourceVersion, so
a paginated list is consistent even while objects change. This keeps the first page's
(selector-filtered) item list under an opaque token instead. Tokens expire after ``ttl``
seconds, when more than ``capacity`` lists are open, or on compaction; an expired or
unknown token is answered with 410 ``Expired``, and the client must start the list again.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import time
from collections import OrderedDict
from typing import Any

from olmtui.frozen import frozen

Obj = dict[str, Any]


class ContinueExpired(Exception):
    """The continue token names no snapshot this server still holds."""


@frozen
class Page:
    items: list[Obj]
    resource_version: int
    continue_token: str | None
    remaining: int


class ListSnapshots:
    """Snapshots of paginated lists, keyed by the id inside their continue tokens."""

    def __init__(self, *, ttl: float = 300.0, capacity: int = 256) -> None:
        self.ttl = ttl
        self.capacity = capacity
        self._ids = itertools.count(1)
        self._open: OrderedDict[int, tuple[float, int, list[Obj]]] = OrderedDict()

    def first_page(self, items: list[Obj], rv: int, limit: int) -> Page:
        """The first page of ``items`` (all of them when ``limit`` is 0)."""
        if not limit or limit >= len(items):
            return Page(items, rv, None, 0)
        snapshot_id = next(self._ids)
        self._open[snapshot_id] = (time.monotonic(), rv, items)
        while len(self._open) > self.capacity:
            self._open.popitem(last=False)
        return self._page(snapshot_id, items, rv, 0, limit)

    def next_page(self, token: str, limit: int) -> Page:
        """The page a continue token points at; raises ContinueExpired."""
        snapshot_id, offset = _decode(token)
        entry = self._open.get(snapshot_id)
        if entry is None or time.monotonic() - entry[0] > self.ttl:
            self._open.pop(snapshot_id, None)
            raise ContinueExpired(token)
        _, rv, items = entry
        return self._page(snapshot_id, items, rv, offset, limit)

    def clear(self) -> None:
        """Forget every snapshot (compaction): all outstanding tokens expire."""
        self._open.clear()

    def _page(self, snapshot_id: int, items: list[Obj], rv: int, offset: int, limit: int) -> Page:
        end = len(items) if not limit else offset + limit
        if end >= len(items):
            return Page(items[offset:], rv, None, 0)
        return Page(items[offset:end], rv, _encode(snapshot_id, end), len(items) - end)


def _encode(snapshot_id: int, offset: int) -> str:
    raw = json.dumps({"id": snapshot_id, "start": offset}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode(token: str) -> tuple[int, int]:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        data = json.loads(raw)
        return int(data["id"]), int(data["start"])
    except (binascii.Error, ValueError, KeyError, TypeError) as exc:
        raise ContinueExpired(token) from exc
