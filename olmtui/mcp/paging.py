"""Pages of a long list for the MCP server's tools: at most ``limit`` items and about
``PAGE_CHARS`` characters of JSON each (a client takes a bounded result), and a cursor for
the next page.

A cursor is opaque to the client: the offset of the next item and a digest of what the list
was drawn from (the tool, its filters and the state of the cache). A cursor of another list,
or of a state that has moved since (a live cluster changed), is refused rather than read at
an offset that no longer means the same items: a walk returns every item exactly once or
says it must start again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from typing import Any

from olmtui.frozen import frozen
from olmtui.mcp.tools import PAGE_CHARS


class CursorError(ValueError):
    """A cursor this list cannot continue from: one line for the client."""


@frozen
class Page:
    items: list[Any]
    #: The cursor of the next page; ``None`` on the last.
    next_cursor: str | None


def _digest(drawn_from: object) -> str:
    return hashlib.sha256(repr(drawn_from).encode()).hexdigest()[:16]


def _encode(offset: int, digest: str) -> str:
    raw = json.dumps({"offset": offset, "of": digest}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _offset(cursor: str, digest: str, size: int) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        held = json.loads(raw)
        offset, of = held["offset"], held["of"]
    except (binascii.Error, ValueError, TypeError, KeyError):
        raise CursorError("the cursor is not one this server gave") from None
    if not isinstance(offset, int) or not 0 < offset <= size or of != digest:
        raise CursorError(
            "the cursor belongs to another list or to an earlier state (the cluster "
            "changed): read again from the first page"
        )
    return offset


def page(items: Sequence[Any], limit: int, cursor: str | None, drawn_from: object) -> Page:
    """The page of ``items`` that ``cursor`` points to (the first without one): up to
    ``limit`` items, fewer when their JSON passes ``PAGE_CHARS`` (never none).
    ``drawn_from`` names the list: a cursor is only valid for the same one."""
    digest = _digest(drawn_from)
    start = 0 if cursor is None else _offset(cursor, digest, len(items))
    taken: list[Any] = []
    size = 0
    for item in items[start : start + limit]:
        size += len(json.dumps(item, ensure_ascii=False))
        if taken and size > PAGE_CHARS:
            break
        taken.append(item)
    end = start + len(taken)
    return Page(taken, _encode(end, digest) if end < len(items) else None)
