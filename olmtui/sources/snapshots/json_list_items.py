"""A large JSON List (``kubectl get -o json``) decoded one item at a time, as the loader
takes them (``check`` under 1 GB on any input of 100 MB or less).

A 98 MB List of 1,400,000 Namespaces decoded whole was ~700 MB of objects at once, beside
the cache being filled from them. Here msgspec decodes the List with each item left as its
raw bytes (``msgspec.Raw``, a view of the file's), copied out so that the file's bytes go at
once and an item's as it is taken, and :meth:`ListItems.take` decodes it then.

Every item is decoded once beforehand and dropped at once: should msgspec refuse one (what
``json.loads`` reads differently, ``fast_json``), or the value not be a List of items,
:func:`lazy_list` says so and the file is read whole as before. So the values, and the
problems, are exactly those of the whole parse.
"""

from __future__ import annotations

from typing import Any

import msgspec

from olmtui.sources import fast_json

_ENVELOPE = msgspec.json.Decoder(dict[str, msgspec.Raw])
_ITEMS = msgspec.json.Decoder(list[msgspec.Raw])


class ListItems:
    """The items of one List, each decoded when taken (a ``list`` stands in the document
    for every other value)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: list[Any]) -> None:
        self._raw = raw

    def __len__(self) -> int:
        return len(self._raw)

    def take(self, index: int, release: bool) -> Any:
        """Item ``index``, decoded; ``release``: its bytes are let go of (``None`` after,
        as a released item of a ``list``)."""
        raw = self._raw[index]
        if release:
            self._raw[index] = None
        return None if raw is None else fast_json.strict(raw)


def lazy_list(raw: bytes) -> Any:
    """The JSON text ``raw`` as :func:`fast_json.strict` reads it, its ``items`` a
    :class:`ListItems`, when it is an object with ``kind`` ``...List`` and a list of
    ``items`` that msgspec reads whole; else :data:`fast_json.REFUSED`."""
    try:
        envelope = _ENVELOPE.decode(raw)
        raw_items: list[Any] = _ITEMS.decode(envelope.get("items", b""))
    except (ValueError, RecursionError):  # msgspec.DecodeError: not an object, no list
        return fast_json.REFUSED
    value: dict[str, Any] = {}
    for key, field in envelope.items():
        value[key] = None if key == "items" else fast_json.strict(field)
        if value[key] is fast_json.REFUSED:
            return fast_json.REFUSED
    kind = value.get("kind")
    if not isinstance(kind, str) or not kind.endswith("List"):
        return fast_json.REFUSED
    if any(fast_json.strict(item) is fast_json.REFUSED for item in raw_items):
        return fast_json.REFUSED
    # Each item's own bytes, not a view of the file's: those of an item taken are given back
    # (a view keeps the whole file's until the last item is taken).
    value["items"] = ListItems([bytes(item) for item in raw_items])
    return value
