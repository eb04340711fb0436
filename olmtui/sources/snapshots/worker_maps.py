"""Copies' labels and annotations sent from a parse worker once, then referred to.

What a worker sends back is mostly copies' labels and annotations (alm-examples and all):
70% of the bytes at 1,000 namespaces, the same maps in every copy of a CSV. The fast path
already reads them once per worker (``fast_yaml.shared_field``: one object for every copy),
so a worker sends each such map once, with a number, and after that only the number; the
loader puts the map back in each copy, the one object for all of them, as one process
would have them.

Numbers are per worker and the loader takes a worker's results in the order the worker
made them (the pool hands batches of files out in order and a worker parses one at a time,
so its results come in file order, the order the loader takes every file in): a number
always arrives after its map, in the same batch's first document that holds it or an
earlier batch. A worker commits a number only once its result is pickled, so a result it
could not send leaves no number the loader does not have.
"""

from __future__ import annotations

from typing import Any

from olmtui.kinds import CSV
from olmtui.sources.snapshots.fast_yaml import shared_field
from olmtui.sources.snapshots.snapshot_documents import Document

#: The fields sent once.
FIELDS = ("labels", "annotations")
#: How many maps a worker numbers (a snapshot has a few per CSV; past this, sent in full).
MAX_NUMBERED = 4096

#: A field taken out of a document: (document index, field, number, the map the first time).
Reference = tuple[int, str, int, dict[str, Any] | None]


class SentMaps:
    """A worker's numbered maps, by identity (each kept alive here, so no identity is reused
    while its number stands)."""

    def __init__(self) -> None:
        self._numbers: dict[int, tuple[int, dict[str, Any]]] = {}

    def take_out(
        self, documents: list[Document]
    ) -> tuple[list[Reference], list[tuple[int, dict[str, Any]]]]:
        """Each shared field of a copy replaced by ``None`` in its (own) metadata: the
        references that put them back, and the maps numbered here for the first time (to
        :meth:`commit` once the result is sent)."""
        references: list[Reference] = []
        new: list[tuple[int, dict[str, Any]]] = []
        numbered_now: dict[int, int] = {}  # a map met again in the same documents
        for index, document in enumerate(documents):
            metadata = _copy_metadata(document.value)
            if metadata is None:
                continue
            for field in FIELDS:
                mapping = metadata.get(field)
                if not isinstance(mapping, dict) or not shared_field(mapping):
                    continue
                known = self._numbers.get(id(mapping))
                number = known[0] if known is not None else numbered_now.get(id(mapping))
                if number is not None:
                    references.append((index, field, number, None))
                elif len(self._numbers) + len(new) < MAX_NUMBERED:
                    number = len(self._numbers) + len(new)
                    numbered_now[id(mapping)] = number
                    new.append((number, mapping))
                    references.append((index, field, number, mapping))
                else:
                    continue
                metadata[field] = None
        return references, new

    def commit(self, new: list[tuple[int, dict[str, Any]]]) -> None:
        for number, mapping in new:
            self._numbers[id(mapping)] = (number, mapping)


class ReceivedMaps:
    """The loader's copy of every worker's numbered maps."""

    def __init__(self) -> None:
        self._by_worker: dict[int, dict[int, dict[str, Any]]] = {}

    def put_back(self, worker: int, documents: list[Document], references: list[Reference]) -> None:
        numbered = self._by_worker.setdefault(worker, {})
        for index, field, number, mapping in references:
            if mapping is not None:
                numbered[number] = mapping
            documents[index].value["metadata"][field] = numbered[number]


def _copy_metadata(value: Any) -> dict[str, Any] | None:
    """A copied CSV's metadata as the fast path built it (a dict of its own), else ``None``."""
    if type(value) is not dict or value.get("kind") != CSV:
        return None
    metadata = value.get("metadata")
    return metadata if type(metadata) is dict else None
