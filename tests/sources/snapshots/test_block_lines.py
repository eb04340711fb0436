"""``block_lines`` reads the block forms Go's encoder writes exactly as PyYAML reads them,
and hands any other value to its fallback (PyYAML on that value's lines alone)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.sources.snapshots.block_lines import (
    _DOUBLE_LINE,
    _ESCAPED,
    _HEX_ESCAPES,
    Reader,
    Unreadable,
)

CASES = {
    "scalars": "a: x\nb: 'q: r'\nc: \"s\"\nd: 12\ne: -3\nf: true\ng: null\nh: {}\ni: []\nj:\n",
    "resolved": "a: yes\nb: Off\nc: ~\nd: 0\ne: '0'\nf: 1.5\ng: 2021-09-13\nh: 0x1f\n",
    "nested": "a:\n  b:\n    c: d\n  e:\n  - f\n  - g: h\n    i: j\nk: l\n",
    "indented-sequence": "a:\n    - b\n    - c: d\nz: 1\n",
    "folded-plain": "m: one two\n  three\n  four\nn: 1\n",
    "folded-quoted": "m: 'one: two\n  three # four'\nn: 1\n",
    "folded-quoted-blank-line": "m: 'one\n   \n  two'\nn: 1\n",
    "double-quoted-escapes": (
        'm: "t\\tab \\"q\\" \\\\ \\x41\\u00e9\\U0001F600 \\/ \\N\\_\\L\\P\\e\\0"\nn: 1\n'
    ),
    "double-quoted-folded": 'm: "one\n  two\\\n  \\ three"\nn: 1\n',
    # only the escapes JSON shares with YAML (read by the JSON decoder), and those beside
    # an escaped backslash, a surrogate pair (JSON would join it) and a YAML-only escape
    "double-quoted-json-escapes": 'm: "a \\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t z"\nn: 1\n',
    "double-quoted-escaped-backslash": 'm: "\\\\x41 \\\\u0041 \\\\"\nn: 1\n',
    "double-quoted-surrogate-pair": 'm: "\\ud83d\\ude00 \\n"\nn: 1\n',
    "timestamps": "a: 2019-02-28 01:03:00\nb: 2021-09-13\nc: 2021-09-13T10:00:00Z\n",
    "literal": 'a: |-\n  [{\n      "x": 1\n  }]\nb: |\n  text\nc: 2\n',
    "odd-values": "a: !!str 1\nb: \"t\\tab\"\nc: 'it''s'\nd: x # comment\ne: >\n  folded\n",
    "odd-keys": '"q": 1\n? c\n: 2\ntrue: 3\n',
    "non-ascii": "a: Rünning\nb: 1\n",
}


def _fallback(part: list[bytes]) -> tuple[str, Any]:
    parsed = yaml.safe_load(b"\n".join(part) + b"\n")
    if not isinstance(parsed, dict) or len(parsed) != 1:
        raise Unreadable(part[0])
    ((key, value),) = parsed.items()
    return str(key), value


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_mapping_reads_as_pyyaml_reads_it(name: str) -> None:
    text = CASES[name].encode()
    expected = yaml.safe_load(text)
    lines = text.split(b"\n")[:-1]
    try:
        value, end = Reader(lines, _fallback).mapping(0, 0)
    except Unreadable:  # a key this reader leaves to the caller's whole parse
        assert name == "odd-keys"
        return
    assert end == len(lines)
    assert value == expected


def test_what_it_does_not_read_goes_to_the_fallback_value_by_value() -> None:
    asked: list[bytes] = []

    def fallback(part: list[bytes]) -> tuple[str, Any]:
        asked.append(part[0])
        return _fallback(part)

    lines = CASES["odd-values"].encode().split(b"\n")[:-1]
    Reader(lines, fallback).mapping(0, 0)
    # a double-quoted text's escapes are read here
    assert asked == [b"a: !!str 1", b"c: 'it''s'", b"d: x # comment", b"e: >"]


@pytest.mark.parametrize("key", ["true", "1", "null", "~"])
def test_a_key_that_is_not_a_string_is_left_to_the_caller_every_time(key: str) -> None:
    """Keys are remembered by their text: one that resolves to no string (a boolean, a
    number, null) is refused the second time as the first, remembered or not."""
    lines = [f"{key}: 3".encode(), b"b: 1"]
    for _ in range(2):
        with pytest.raises(Unreadable):
            Reader(lines, _fallback).mapping(0, 0)


#: A double-quoted line as PyYAML's escapes and printable ASCII make it, a character at a time
#: (``_DOUBLE_LINE`` reads it in possessive runs: the same lines, faster).
_ONE_AT_A_TIME = re.compile(
    rb"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\(?:["
    + re.escape("".join(_ESCAPED)).encode()
    + rb"]|"
    + _HEX_ESCAPES.encode()
    + rb"))*"
)


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                b"a",
                b" ",
                b'"',
                b"\\",
                b"\\n",
                b'\\"',
                b"\\x4",
                b"\\x41",
                b"\\u00e9",
                b"\\U0001F6",
                b"\t",
                b"\xc3\xa9",
                b"z9",
            ]
        ),
        max_size=12,
    ).map(b"".join)
)
def test_a_double_quoted_line_is_read_in_runs_as_one_character_at_a_time(line: bytes) -> None:
    assert (_DOUBLE_LINE.fullmatch(line) is None) == (_ONE_AT_A_TIME.fullmatch(line) is None)
