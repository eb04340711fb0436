"""``simple_fields``: a one-line mapping entry read without a parser is what PyYAML reads,
value and type, or is left to PyYAML."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.sources.snapshots.simple_fields import simple_field

TRICKY_VALUES = [
    "abc",
    "a.b-c/d_e",
    "global-op-01.v0.9.4",
    "9c4a97e2-b688-5f5f-aae9-42772769abcd",
    "0",
    "1",
    "123",
    "09",
    "010",
    "0x1f",
    "0o17",
    "0b101",
    "1_000",
    "-1",
    "+1",
    "1.0",
    "1e5",
    "1.5e+3",
    ".inf",
    ".nan",
    "12:30",
    "1:20:30",
    "2021-01-01",
    "2021-13-45",
    "2021-01-01T00:00:00Z",
    "true",
    "True",
    "TRUE",
    "false",
    "yes",
    "Yes",
    "no",
    "NO",
    "on",
    "Off",
    "y",
    "n",
    "Y",
    "null",
    "Null",
    "NULL",
    "~",
    "",
    "_",
    "_x",
    "-",
    "a b",
    "a #c",
    "a: b",
    "'quoted'",
    "'it''s'",
    "'a\\b'",
    '"dq"',
    '"a\\nb"',
    '"a\\"b"',
    "'2021-01-01'",
    '"123"',
    '"true"',
    "'  spaced  '",
    "&a x",
    "*a",
    "!!str 1",
    "[1]",
    "{a: 1}",
    "|",
    ">",
    "@x",
    "`x",
    "%x",
    "a\tb",
    "é",
    "'é'",
    "12345678901234567890123",
]
TRICKY_KEYS = ["name", "uid", "true", "y", "on", "1", "null", "a.b/c", "_k", "k-1", "0x1"]


def parsed(line: str) -> Any:
    try:
        return yaml.load(line, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return "unparsable"


def assert_as_pyyaml(line: str) -> None:
    got = simple_field(line.encode("utf-8", errors="surrogatepass"))
    if got is None:
        return
    whole = parsed(line)
    assert isinstance(whole, dict) and len(whole) == 1, (line, got, whole)
    ((key, value),) = whole.items()
    assert (type(key), key, type(value), value) == (type(got[0]), *got[:1], type(got[1]), got[1])


@pytest.mark.parametrize("key", TRICKY_KEYS)
@pytest.mark.parametrize("value", TRICKY_VALUES)
@pytest.mark.parametrize("indent", ["", "  "])
def test_a_field_read_plainly_is_what_pyyaml_reads(key: str, value: str, indent: str) -> None:
    assert_as_pyyaml(f"{indent}{key}: {value}\n")


def test_the_plain_forms_are_read_and_the_others_left_to_pyyaml() -> None:
    assert simple_field(b"  name: etcd.v0.9.4\n") == ("name", "etcd.v0.9.4")
    assert simple_field(b"  namespace: 'app-0500'\n") == ("namespace", "app-0500")
    assert simple_field(b'  creationTimestamp: "2021-08-03T09:20:25Z"\n') == (
        "creationTimestamp",
        "2021-08-03T09:20:25Z",
    )
    assert simple_field(b"  generation: 1\n") == ("generation", 1)
    for left in (b"  a: true\n", b"  a: 2021-01-01\n", b"  a: 010\n", b"  true: x\n"):
        assert simple_field(left) is None
    assert simple_field(b"  a: x\n  b: y\n") is None  # one line only
    assert simple_field(b"  a: x") is None  # the line feed ends it


_ALPHABET = st.sampled_from([*list("aZ09_.-/:'\" \\#&*!|>{}[],~@`%\ttyn"), "é", "\n"])


@settings(max_examples=500, deadline=None)
@given(key=st.text(_ALPHABET, min_size=1, max_size=6), value=st.text(_ALPHABET, max_size=12))
def test_random_lines_read_plainly_are_what_pyyaml_reads(key: str, value: str) -> None:
    assert_as_pyyaml(f"  {key}: {value}\n")
