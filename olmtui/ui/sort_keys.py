"""How a column's cells compare when the user sorts a table (``s``/``S``).

Text order is wrong for most OLM columns: ``1.10.0`` must follow ``1.9.0``, ``12`` copies
follow ``9``, and an error outranks a warning though ``e`` < ``w``. Each column names the
order its cells follow (``Column.sort``); the keys built here are plain tuples of the same
shape within one order, so Python's (stable) sort compares them without a custom function,
and one key is built per distinct cell text (a hundred thousand copied CSVs share a few
versions and phases).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from rich.text import Text

SortOrder = Literal["text", "version", "number", "severity"]
SortKey = tuple[Any, ...]

#: Worst first when ascending: the order ``check`` lists findings in.
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
_SEMVER = re.compile(r"^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?")


def _plain(cell: str | Text) -> str:
    return cell.plain if isinstance(cell, Text) else cell


def _digits_key(digits: str) -> tuple[int, str]:
    """A run of digits in numeric order without ``int()``, which refuses a run of over
    4,300 digits (a hostile version): shorter first, then by the digits."""
    significant = digits.lstrip("0")
    return (len(significant), significant)


def text_key(value: str) -> SortKey:
    """Case-insensitive text. Plain on purpose: a key per digit run made sorting a hundred
    thousand distinct namespaces five times slower; versions have their own order."""
    return (value.casefold(),)


def version_key(value: str) -> SortKey:
    """Semantic-version order (SemVer 2.0.0 precedence, R-SEM-6): numeric parts as numbers, a
    pre-release before its release, numeric pre-release identifiers before alphanumeric ones. Text
    that is no version (``-``, empty) sorts after every version."""
    found = _SEMVER.match(value.strip())
    if found is None:
        return (1, (), 0, (), value.casefold())
    numbers = tuple(_digits_key(n) for n in found.group(1).split("."))
    numbers += ((0, ""),) * max(3 - len(numbers), 0)
    pre = found.group(2)
    identifiers = (
        tuple((0, _digits_key(p), "") if p.isdigit() else (1, (0, ""), p) for p in pre.split("."))
        if pre
        else ()
    )
    return (0, numbers, 0 if pre else 1, identifiers, "")


def number_key(value: str) -> SortKey:
    """Counts and sizes as numbers; cells without one (``-``, ``?``) after every number."""
    found = _NUMBER.match(value.strip())
    return (0, float(found.group()), "") if found else (1, 0.0, value.casefold())


def severity_key(value: str) -> SortKey:
    """error, warning, info (worst first); anything else after them, by its text."""
    word = value.strip().lower()
    return (_SEVERITY_RANK.get(word, len(_SEVERITY_RANK)), word)


_KEYS: dict[str, Callable[[str], SortKey]] = {
    "text": text_key,
    "version": version_key,
    "number": number_key,
    "severity": severity_key,
}


def column_keys(cells: Sequence[str | Text], order: SortOrder) -> list[SortKey]:
    """The sort key of every cell, each distinct text keyed once."""
    make = _KEYS[order]
    memo: dict[str, SortKey] = {}
    out: list[SortKey] = []
    append = out.append
    for cell in cells:
        text = _plain(cell)
        key = memo.get(text)
        if key is None:
            key = memo[text] = make(text)
        append(key)
    return out
