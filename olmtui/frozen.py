"""``@frozen``: an immutable record as mypy checks it, without frozen's cost at run time.

On Python 3.11 a ``@dataclass(frozen=True, slots=True)`` sets each field in ``__init__``
through ``object.__setattr__``: 2.6 us to make a ten-field record against 0.3 us for the
same slots class not frozen, and ``check`` of a 300-namespace must-gather makes some 140,000
records (keys, changes, files, documents) between its loader and its parse workers. Each
such class also costs two more generated methods to build on import (``__setattr__``,
``__delattr__``: 0.77 against 0.56 ms a class, for the 226 olmtui imports).

``@frozen`` makes the slots dataclass with the hash over its fields that ``frozen`` and
``eq`` give, and tells mypy, through ``dataclass_transform(frozen_default=True)``, that it is
frozen: an assignment to a field is a type error CI's mypy run fails on, as with
``frozen=True``. What no longer happens is the ``FrozenInstanceError`` at run time; nothing
in olmtui assigns to a record's field (mypy says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, dataclass, field
from typing import Any, TypeVar, dataclass_transform, overload

__all__ = ["frozen"]

_Record = TypeVar("_Record")


@overload
def frozen(cls: type[_Record], /) -> type[_Record]: ...
@overload
def frozen(*, eq: bool = True) -> Callable[[type[_Record]], type[_Record]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def frozen(cls: type[_Record] | None = None, /, *, eq: bool = True) -> Any:
    """A slots dataclass, immutable to mypy, hashed by its fields when compared by them
    (``eq``; else by identity, as a frozen dataclass with ``eq=False`` is)."""

    def made(record: type[_Record]) -> type[_Record]:
        return dataclass(slots=True, eq=eq, unsafe_hash=eq)(record)

    return made if cls is None else made(cls)
