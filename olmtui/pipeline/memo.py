"""One derived value and what it was built from: the typed slots the Analysis keeps its
derivations in, so that each is rebuilt only when its inputs moved (never per refresh).

:class:`Memo` compares a stamp (the generation counters of the inputs); :class:`ObjectsMemo`
compares its inputs by identity, for a derivation whose inputs are few objects the model's
version moves past (the cache and the catalog set replace what changes, never edit it in
place, so the same objects mean nothing moved).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

T = TypeVar("T")


def same_objects(a: Iterable[object], b: Iterable[object]) -> bool:
    """Whether ``a`` and ``b`` hold the very same objects in the same order (identity: the
    cache and the catalog set replace what changes, never edit it in place)."""
    left, right = list(a), list(b)
    return len(left) == len(right) and all(x is y for x, y in zip(left, right, strict=True))


class Memo(Generic[T]):
    """A value built once per stamp."""

    __slots__ = ("_hit",)

    def __init__(self) -> None:
        self._hit: tuple[Hashable, T] | None = None

    def get(self, stamp: Hashable, build: Callable[[], T]) -> T:
        """The value built for ``stamp``: the kept one when the stamp is the same."""
        if self._hit is None or self._hit[0] != stamp:
            self._hit = (stamp, build())
        return self._hit[1]


class ObjectsMemo(Generic[T]):
    """A value built once per set of input objects, compared by identity. It holds the
    objects, so no id is reused while it compares them."""

    __slots__ = ("_hit",)

    def __init__(self) -> None:
        self._hit: tuple[tuple[object, ...], T] | None = None

    def get(self, reads: tuple[object, ...], build: Callable[[], T]) -> T:
        """The value built from ``reads``: the kept one when they are the very same."""
        if self._hit is None or not same_objects(self._hit[0], reads):
            self._hit = (reads, build())
        return self._hit[1]
