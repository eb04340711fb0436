"""msgspec through ``fast_json`` (and the single-value JSON snapshot path) reads every JSON
text as ``json.loads`` does: the same value, or the same error for what neither accepts."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import pytest
from data_paths import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.sources import fast_json
from olmtui.sources.snapshots.snapshot_documents import parse_documents


def same(a: Any, b: Any) -> bool:
    """Equal, with the types and float signs (``-0.0``, NaN) compared too."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def deeply_same(a: Any, b: Any) -> bool:
    """``same`` with room for values as deep as the decoders read (``same`` recurses once a
    level, in Python; once a JSON reader raised the recursion limit, values 2,000 deep
    reach here)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return same(a, b)
    finally:
        sys.setrecursionlimit(limit)


def outcome(load: Any, text: bytes) -> tuple[str, Any]:
    try:
        return ("value", load(text))
    except RecursionError:
        return ("recursion", None)
    except ValueError as exc:
        return ("error", type(exc).__name__ if isinstance(exc, UnicodeDecodeError) else str(exc))


def assert_reads_as_json(text: bytes) -> None:
    fast, slow = outcome(fast_json.loads, text), outcome(json.loads, text)
    if slow[0] == "recursion":
        return  # json.loads runs out of stack (a crash today): msgspec may read deeper
    assert fast[0] == slow[0]
    if fast[0] == "value":
        assert deeply_same(fast[1], slow[1])
    else:
        assert fast == slow


EDGES = [
    b'{"a": NaN, "b": Infinity, "c": -Infinity}',
    b'{"big": 123456789012345678901234567890, "neg": -99999999999999999999}',
    b'{"u64": 18446744073709551615, "i64": -9223372036854775808}',
    b'["\\ud800", "\\udfff x", "\\ud83d\\ude00"]',
    b'\xef\xbb\xbf{"bom": 1}',
    '{"utf16": 1}'.encode("utf-16"),
    b'{"dup": 1, "dup": 2, "x": {"k": 1, "k": [2]}}',
    b"[1e400, -1e400, 1e-400, -0.0, 0, -0, 1.0, 2.5e-3, 0.1, 1.7976931348623157e308]",
    b"[5e-324, 9007199254740993, 1.00000000000000011102230246251565404236316680908203125]",
    b'["\\u0000", "a\\/b", "\\"", "\\b\\f\\n\\r\\t", "\xc3\xa9", "\xf0\x9f\x98\x80"]',
    b'{"raw control": "a\x01b"}',
    b"[1,]",
    b"{'single': 1}",
    b"01",
    b"[1] [2]",
    b"",
    b"   ",
    b"\x0c[1]",
    b"[1]\x0c",
    b"\xff[1]",
    b'"\xed\xa0\x80"',
    b"[" * 2000 + b"]" * 2000,
    b"[" * 1000 + b"]" * 1000,
    b"tru",
    b"null",
    b' \t\r\n {"a": [true, false, null]} \n',
    b'"\\udd00\\ud800"',
    b'"\xc0\x80"',
    b"1" * 5000,
]


@pytest.mark.parametrize("text", EDGES, ids=range(len(EDGES)))
def test_edge_cases_read_as_json_loads_reads_them(text: bytes) -> None:
    assert_reads_as_json(text)


def documents(text: bytes) -> list[tuple[int, Any, str | None]]:
    try:
        return [(d.line, d.value, d.problem) for d in parse_documents(text, json_format=True)]
    except RecursionError:
        return [(0, "recursion", None)]


JSON_FILES = sorted(DATA.rglob("*.json"))


@pytest.mark.parametrize("text", [*EDGES, *(p.read_bytes() for p in JSON_FILES)])
def test_a_json_snapshot_file_gives_the_documents_the_stream_reader_gives(
    text: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file holding one value goes through msgspec; the stream reader alone (as before)
    gives the same documents: values, lines and problems."""
    fast = documents(text)
    monkeypatch.setattr(fast_json, "strict", lambda raw: fast_json.REFUSED)
    slow = documents(text)
    if slow == [(0, "recursion", None)]:
        return
    assert [(line, problem) for line, _, problem in fast] == [
        (line, problem) for line, _, problem in slow
    ]
    assert all(deeply_same(a[1], b[1]) for a, b in zip(fast, slow, strict=True))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, indent=st.sampled_from([None, 1]), ascii_only=st.booleans())
def test_any_json_value_reads_as_json_loads_reads_it(
    value: Any, indent: int | None, ascii_only: bool
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert_reads_as_json(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet='[]{}",:0123456789.eE+-truefalsnulNIiy \\u\n\t\x0c'))
def test_any_text_reads_as_json_loads_reads_it(text: str) -> None:
    assert_reads_as_json(text.encode("utf-8", "surrogatepass"))
