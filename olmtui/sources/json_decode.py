"""JSON text to Python values, as ``json.loads`` reads them, at compiled speed.

``json.loads`` spends most of a catalogd stream's indexing time building dicts in C that is
slower than msgspec's (about 2.5x, issue 14 bench). msgspec reads what it accepts exactly as
``json.loads`` does (same dicts, last duplicate key wins, integers of any size kept as
integers, floats correctly rounded) and refuses the rest of what ``json.loads`` takes:
``NaN``/``Infinity``, numbers out of a float's range, lone surrogates (escaped, or encoded
in UTF-8), a byte order mark. Those documents, and broken ones, go through ``json.loads``,
so every input gives the same value or the same error as before. (orjson was measured as
fast but turns integers past 64 bits into floats without a word, so it is not used.)
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_DECODER = msgspec.json.Decoder()


def loads(data: bytes) -> Any:
    """``json.loads(data)``, the same value or the same error."""
    try:
        return _DECODER.decode(data)
    except ValueError:  # msgspec.DecodeError, UnicodeDecodeError: json.loads decides
        return json.loads(data)
