"""Kinds are named once (``olmtui/kinds.py``): the cache keeps exactly those kinds, and the
cache and the model spell none of them as a string literal, so a misspelt kind is a name
error, not a lookup that silently finds nothing."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

from olmtui import kinds
from olmtui.store import KINDS

PACKAGE = Path(kinds.__file__).resolve().parent
#: Every kind constant's value.
NAMED = {value for name, value in vars(kinds).items() if name.isupper() and isinstance(value, str)}
#: A kind's name as a literal, in either quotes.
QUOTED = {f"{quote}{value}{quote}" for value in NAMED for quote in "\"'"}


def kind_literals(path: Path) -> list[str]:
    """``line: literal`` for each string token of ``path`` that is exactly a kind's name."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    return [
        f"{path.relative_to(PACKAGE)}:{token.start[0]}: {token.string}"
        for token in tokens
        if token.type == tokenize.STRING and token.string in QUOTED
    ]


def test_the_constants_are_the_kinds_the_cache_keeps() -> None:
    assert set(KINDS) == NAMED


def test_the_cache_and_the_model_name_kinds_by_their_constants() -> None:
    files = [PACKAGE / "store.py", *sorted((PACKAGE / "model").rglob("*.py"))]
    found = [literal for path in files for literal in kind_literals(path)]
    assert found == []
