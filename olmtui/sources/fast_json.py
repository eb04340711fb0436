"""JSON bytes to Python values through msgspec, exactly as ``json.loads`` reads them.

msgspec parses a watch event, a list page or a line of catalogd's ``all`` stream in about
0.4 of the time of ``json.loads`` (bench/bench_check.py and bench/bench_catalogd_index.py
measure it in the same run), into the same plain dicts, lists, strings and numbers: the last
duplicate key wins, integers of any size stay exact integers, floats are correctly rounded.
What it refuses and ``json.loads`` reads (NaN and Infinity, numbers out of a float's range,
lone surrogates escaped or encoded in UTF-8, a byte-order mark, UTF-16, deep nesting) goes
to ``json.loads``, which gives today's value or today's error
(tests/sources/snapshots/test_fast_json.py holds the rest equal). orjson was measured as fast, but
it reads an integer beyond 64 bits as a float without a word, and guarding against that cost a
quarter of a ``json.loads``.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_DECODER = msgspec.json.Decoder()
#: What :func:`strict` returns for a text it leaves to ``json.loads``.
REFUSED: Any = object()


def strict(raw: bytes) -> Any:
    """The value of one JSON text if msgspec reads it (as ``json.loads`` would), else
    :data:`REFUSED`."""
    try:
        return _DECODER.decode(raw)
    except (ValueError, RecursionError):  # msgspec.DecodeError, UnicodeDecodeError
        return REFUSED


def loads(raw: bytes) -> Any:
    """The value of one JSON text, or the ``ValueError`` ``json.loads`` raises for it."""
    value = strict(raw)
    return json.loads(raw) if value is REFUSED else value
