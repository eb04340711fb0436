"""``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, faster.

On the Pythons olmtui supports before 3.13, ``json.dumps`` with ``indent`` never uses the C
encoder: every value of a report goes through the pure-Python generators of
``json.encoder._make_iterencode``, about half of the CPU of ``check --output json`` on a big
cluster. Here the containers are walked by one recursive function appending to a list, and
every string goes through the C escaper ``json.dumps`` itself uses (``encode_basestring``), so
the text is the same byte for byte. Anything this walk does not know as ``json`` does (a key
that is not a string, a value of another type, a cycle, nesting past the recursion limit) is
left to ``json.dumps`` for the whole value: its text, or its error, is what the caller gets.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

__all__ = ["indented_json"]

#: ``json``'s own spellings of the floats JSON lacks (``allow_nan=True``, its default).
_INFINITY = float("inf")


class _Unusual(Exception):
    """A value :func:`_walk` leaves to ``json.dumps``."""


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _scalar_text(value: Any) -> str:
    """The text ``json`` gives a scalar, tested in its order (a ``str``/``int``/``float``
    subclass is written as its base type, a bool before an int); :class:`_Unusual` for a
    container or any other type."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float_text(value)
    raise _Unusual


#: The text of the scalar types a report holds, by exact type (the fast path of the walk).
_EXACT: dict[type, Any] = {
    str: encode_basestring,
    int: int.__repr__,
    bool: lambda value: "true" if value else "false",
    type(None): lambda _value: "null",
    float: _float_text,
}


def _walk(value: Any, parts: list[str], level: int, keys: dict[str, str]) -> None:
    """Append the text of ``value`` indented at ``level`` to ``parts``; ``keys`` holds the
    text already made for each key (``"name": ``): a report repeats a few dozen keys."""
    if isinstance(value, dict):
        if not value:
            parts.append("{}")
            return
        inner = "\n" + "  " * (level + 1)
        separator = "{" + inner
        exact = _EXACT
        for key, item in value.items():
            key_text = keys.get(key)
            if key_text is None:
                if type(key) is not str:
                    raise _Unusual  # json turns such keys into strings its own way
                key_text = keys[key] = encode_basestring(key) + ": "
            text = exact.get(type(item))
            if text is not None:
                parts.append(separator + key_text + text(item))
            else:
                parts.append(separator + key_text)
                _walk(item, parts, level + 1, keys)
            separator = "," + inner
        parts.append("\n" + "  " * level + "}")
    elif isinstance(value, list | tuple):
        if not value:
            parts.append("[]")
            return
        inner = "\n" + "  " * (level + 1)
        separator = "[" + inner
        exact = _EXACT
        for item in value:
            text = exact.get(type(item))
            if text is not None:
                parts.append(separator + text(item))
            else:
                parts.append(separator)
                _walk(item, parts, level + 1, keys)
            separator = "," + inner
        parts.append("\n" + "  " * level + "]")
    else:
        parts.append(_scalar_text(value))


def indented_json(value: Any) -> str:
    """Exactly ``json.dumps(value, indent=2, ensure_ascii=False)``."""
    parts: list[str] = []
    try:
        _walk(value, parts, 0, {})
    except (_Unusual, RecursionError):
        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(parts)
