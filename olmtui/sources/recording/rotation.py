"""Rotation of a recording by age and size: ``FILE`` is the newest part, ``FILE.1`` the one
before, ``FILE.2`` older still; the oldest go first.

The current file is closed and shifted to ``FILE.1`` once it holds a :attr:`Rotation.parts`-th
of ``--max-size`` or of ``--max-age``; then parts are removed from the oldest while the
older parts together exceed the rest of the size budget, or were last written longer ago
than ``--max-age``. Every part starts with a checkpoint of the whole state, so each opens
alone, and a reader of ``FILE`` chains the older parts of the same recording session
(``reader.py``).
"""

from __future__ import annotations

import contextlib
import os

from olmtui.frozen import frozen


@frozen
class Rotation:
    """``max_age`` in seconds and ``max_size`` in bytes, each ``None`` for no limit."""

    max_age: float | None = None
    max_size: int | None = None
    #: The current file is rotated at this fraction of either limit.
    parts: int = 8

    def due(self, size: int, age: float) -> bool:
        """Whether the current file, ``size`` bytes and ``age`` seconds old, is rotated now."""
        if self.max_size is not None and size >= self.max_size / self.parts:
            return True
        return self.max_age is not None and age >= self.max_age / self.parts


def part_path(path: str, number: int) -> str:
    """The path of part ``number`` (0: the current file)."""
    return path if number == 0 else f"{path}.{number}"


def older_parts(path: str) -> list[str]:
    """``FILE.1``, ``FILE.2``... as long as they exist, newest first."""
    found: list[str] = []
    number = 1
    while os.path.exists(part_path(path, number)):
        found.append(part_path(path, number))
        number += 1
    return found


def make_room(path: str, rotation: Rotation, now: float, *, shift: bool) -> None:
    """Shift ``FILE`` to ``FILE.1`` (and each older part one further) when ``shift``, then
    remove the oldest parts beyond the limits."""
    if shift and os.path.exists(path):
        for number in range(len(older_parts(path)), -1, -1):
            os.replace(part_path(path, number), part_path(path, number + 1))
    parts = older_parts(path)
    sizes = [_size(p) for p in parts]
    # the current file grows to a part's share of the budget: the older parts get the rest
    budget = None
    if rotation.max_size is not None:
        budget = rotation.max_size - rotation.max_size // rotation.parts
    while parts:
        oldest = parts[-1]
        too_big = budget is not None and sum(sizes) > budget
        too_old = rotation.max_age is not None and _mtime(oldest) < now - rotation.max_age
        if not (too_big or too_old):
            break
        with contextlib.suppress(FileNotFoundError):
            os.remove(oldest)
        parts.pop()
        sizes.pop()


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0
