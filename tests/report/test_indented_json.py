"""``indented_json`` is ``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte:
the report's text may not move because it is written faster."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.report.indented_json import indented_json


def _reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


#: Every character class a report may hold: controls, quotes, backslashes, bidi controls,
#: lone surrogates, astral characters.
_TEXT = st.text(
    st.one_of(
        st.characters(codec=None),
        st.sampled_from(['"', "\\", "\n", "\x00", "\x1f", "\x7f", "\x85", "\u202e", "\ud800"]),
    ),
    max_size=12,
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    _TEXT,
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.tuples(inner, inner),
        st.dictionaries(_TEXT, inner, max_size=5),
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_any_json_value_is_written_as_json_dumps_writes_it(value: Any) -> None:
    assert indented_json(value) == _reference(value)


@pytest.mark.parametrize(
    "value",
    [
        float("nan"),
        [float("inf"), -float("inf"), -0.0, 1e300, 5e-324],
        {"big": 10**30, "true": True, "false": False, "null": None},
        {"": [], "empty": {}, "deep": [[[{"a": [{}]}]]]},
        '\ud800 \u202e \x85 \x7f \x00 "quoted" back\\slash',
    ],
)
def test_the_edge_values_are_written_as_json_dumps_writes_them(value: Any) -> None:
    assert indented_json(value) == _reference(value)


class _Level(enum.IntEnum):
    HIGH = 3


class _Name(str):
    pass


def test_subclasses_of_the_scalar_types_are_written_as_their_base_type() -> None:
    value = {"level": _Level.HIGH, "name": _Name("x"), "nested": [_Level.HIGH, _Name("y"), 1.5]}
    assert indented_json(value) == _reference(value)


@pytest.mark.parametrize(
    "value",
    [
        {1: "int key", 2.5: "float key", False: "bool key", None: "null key"},
        {"outer": {3: "a key json turns into a string"}},
        [{"a": 1}, {_Name("sub"): 2}],
    ],
)
def test_keys_json_converts_are_converted_as_json_converts_them(value: Any) -> None:
    assert indented_json(value) == _reference(value)


def test_what_json_refuses_is_refused_with_its_error() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular reference"):
        indented_json({"a": cycle})
    with pytest.raises(TypeError, match="not JSON serializable"):
        indented_json({"a": [object()]})
    with pytest.raises(TypeError, match="keys must be"):
        indented_json({(1, 2): "tuple key"})
