"""JSON bytes to Python values through orjson, exactly as ``json.loads`` reads them.

orjson parses a watch event in about half the time of ``json.loads`` and a list page in
about 0.7 (bench/bench_check.py measures both in one run), into the same plain dicts,
lists, strings and numbers. It differs in two ways. It refuses some texts ``json.loads``
reads: NaN and Infinity, lone surrogates (``"\\ud800"``), a byte-order mark, UTF-16,
nesting deeper than 1024. And it reads an integer beyond 64 bits as a float, where
``json.loads`` keeps it exact. So a text with a run of 19 or more digits (any integer that
may not fit, and some strings) and a text orjson refuses both go to ``json.loads``, which
gives today's value or today's error (tests/test_fast_json.py holds the rest equal).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

#: Every byte to ``x``, the ASCII digits to ``0``: digit runs become runs of ``0``.
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x78 for b in range(256))
#: The shortest run of digits that may be an integer orjson would read as a float
#: (2**63 has 19 digits).
_LONG_RUN = b"0" * 19
#: What :func:`strict` returns for a text it leaves to ``json.loads``.
REFUSED: Any = object()


def strict(raw: bytes) -> Any:
    """The value of one JSON text if orjson reads it as ``json.loads`` would, else
    :data:`REFUSED`."""
    if _LONG_RUN in raw.translate(_DIGITS_ONLY):
        return REFUSED
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return REFUSED


def loads(raw: bytes) -> Any:
    """The value of one JSON text, or the ``ValueError`` ``json.loads`` raises for it."""
    value = strict(raw)
    return json.loads(raw) if value is REFUSED else value
