"""``sources.json_decode.loads`` gives exactly what ``json.loads`` gives: the same value
(ints stay ints of any size, -0.0 stays -0.0, the last duplicate key wins) or the same
error, on generated JSON values and on the texts msgspec reads differently or refuses."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.sources.json_decode import loads

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def outcome(decode: Any, data: bytes) -> tuple[str, str]:
    """What decoding gives, typed exactly: the repr tells 1 from 1.0 and -0.0 from 0.0."""
    try:
        return "value", repr(decode(data))
    except ValueError as exc:
        return "error", f"{type(exc).__name__}: {exc}"


@settings(max_examples=400, deadline=None)
@given(VALUES, st.booleans())
def test_generated_values_decode_as_json_loads(value: Any, ascii_only: bool) -> None:
    data = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    assert outcome(loads, data) == outcome(json.loads, data)


@pytest.mark.parametrize(
    "data",
    [
        b"123456789012345678901234567890",
        b"[18446744073709551616, -9223372036854775809, 18446744073709551615]",
        b"[-0, -0.0, 0.1, 1E2, 1e-400, 5e-324, 1.7976931348623157e308]",
        b"[1e400, -1e400]",
        b"[NaN, Infinity, -Infinity]",
        b'{"a": 1, "a": 2}',
        b'"\\ud800"',
        b'"\\udd00\\ud800"',
        b'"\xed\xa0\x80"',
        b'"\xff"',
        b'"\xc0\x80"',
        b"\xef\xbb\xbf{}",
        b"\t[1]\r\n",
        b"\x0c[1]",
        b'"a\x01b"',
        b"01",
        b"[1,]",
        b"[1] x",
        b"",
        b"1" * 5000,
        '{"a":"\u00e9"}'.encode("utf-16"),
    ],
)
def test_edge_texts_decode_as_json_loads(data: bytes) -> None:
    assert outcome(loads, data) == outcome(json.loads, data)
