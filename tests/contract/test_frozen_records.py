"""``olmtui.frozen``: a record is immutable to mypy (CI runs it) and hashed and compared by
its fields as a frozen dataclass is, without frozen's ``__init__`` at run time."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from data_paths import ROOT

from olmtui.frozen import frozen

#: A decorator line making a frozen slots dataclass.
_FROZEN_DATACLASS = re.compile(r"^@dataclass\(frozen=True, slots=True", re.MULTILINE)


@frozen
class _Pair:
    left: int
    right: tuple[str, ...] = field(default=())


@frozen(eq=False)
class _Handle:
    name: str


@dataclass(frozen=True, slots=True)
class _Frozen:
    """What ``@frozen`` stands in for."""

    left: int
    right: tuple[str, ...] = ()


def test_a_record_is_compared_and_hashed_as_a_frozen_dataclass_is() -> None:
    pair, same = _Pair(1, ("a",)), _Frozen(1, ("a",))
    assert pair == _Pair(1, ("a",)) and pair != _Pair(2, ("a",))
    assert hash(pair) == hash(_Pair(1, ("a",))) == hash(same)
    assert {pair: 1}[_Pair(1, ("a",))] == 1
    assert replace(pair, left=2) == _Pair(2, ("a",))
    assert pickle.loads(pickle.dumps(pair)) == pair
    assert not hasattr(pair, "__dict__")  # slots, as before
    handle = _Handle("h")
    assert handle != _Handle("h") and handle == handle  # by identity
    assert len({handle, _Handle("h")}) == 2


def test_an_assignment_to_a_field_is_what_mypy_refuses(tmp_path: Path) -> None:
    """What ``frozen=True`` raised at run time, mypy (run over olmtui in CI) refuses."""
    source = tmp_path / "assigning.py"
    source.write_text(
        "from olmtui.frozen import frozen\n\n\n"
        "@frozen\nclass Pair:\n    left: int\n\n\n"
        "@frozen(eq=False)\nclass Handle:\n    name: str\n\n\n"
        "Pair(1).left = 2\nHandle('h').name = 'i'\nprint(Pair(left=1), Handle(name='h'))\n",
        encoding="utf-8",
    )
    # in a process of its own: mypy raises the recursion limit of the one it runs in
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--strict", str(source)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 1
    assert run.stdout.count("is read-only") == 2, run.stdout


def test_olmtuis_records_are_frozen_ones() -> None:
    """A record olmtui makes is a ``@frozen`` class, not a frozen dataclass that pays
    ``object.__setattr__`` for each field each time one is made (CONTRIBUTING.md)."""
    slow = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "olmtui").rglob("*.py"))
        if _FROZEN_DATACLASS.search(path.read_text(encoding="utf-8"))
    ]
    assert slow == []
