"""A report list whose entries are built one at a time as it is written: the writers of
``json_report`` walk it like a list, without ever holding every entry at once."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

_Record = TypeVar("_Record")


@dataclass(frozen=True)
class Entries(Generic[_Record]):
    """A report list whose entries are built one at a time as it is written, from the
    model's records: a report of 400,000 OperatorGroups then never holds 400,000 entry
    dicts at once (``check`` stays under 1 GB on any input of 100 MB or less).
    Each pass over it builds the entries anew. The writers (:func:`write_json`,
    :func:`dumps`, ``text_report``) read it; :func:`report_json` without ``streamed`` gives
    plain lists, for everything else (the screens, ``explain``, the Markdown note)."""

    records: Sequence[_Record]
    entry: Callable[[_Record], dict[str, Any]]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return map(self.entry, self.records)

    def __len__(self) -> int:
        return len(self.records)
