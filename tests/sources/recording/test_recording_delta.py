"""Deltas: a modification is written as what changed against the object's previous version,
and applying it gives back the new version exactly, with its keys in their order."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.sources.recording.format import delta, encode, patched

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
_KEYS = st.sampled_from(["a", "b", "c", "d", "e"])
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=12,
)
_OBJECTS = st.dictionaries(_KEYS, _VALUES, max_size=5)


@settings(max_examples=400, deadline=None)
@given(_OBJECTS, _OBJECTS)
def test_a_delta_applied_gives_the_new_version_in_its_order(old: Any, new: Any) -> None:
    change = delta(old, new)
    if change is None:  # the keys' order moved: written whole
        return
    result = patched(old, change)
    assert result == new
    assert encode(result) == encode(new)  # the same keys in the same order, all the way down


def test_a_status_update_is_written_as_what_changed() -> None:
    old = {
        "metadata": {"name": "x", "resourceVersion": "1"},
        "spec": {"big": "y" * 5000},
        "status": {"conditions": [{"phase": "Pending"}], "phase": "Pending"},
    }
    new = {
        "metadata": {"name": "x", "resourceVersion": "2"},
        "spec": {"big": "y" * 5000},
        "status": {
            "conditions": [{"phase": "Pending"}, {"phase": "Succeeded"}],
            "phase": "Succeeded",
        },
    }
    change = delta(old, new)
    assert change == {
        "metadata": {"resourceVersion": ["2"]},
        "status": {"conditions": [1, [{"phase": "Succeeded"}]], "phase": ["Succeeded"]},
    }
    assert patched(old, change) == new
    assert old["status"]["phase"] == "Pending"  # the previous version is not touched


def test_a_key_removed_and_one_added_keep_the_order_or_go_whole() -> None:
    assert patched({"a": 1, "b": 2}, delta({"a": 1, "b": 2}, {"a": 1}) or {}) == {"a": 1}
    assert delta({"a": 1, "b": 2}, {"b": 2, "a": 1}) is None
    assert delta({"a": 1}, {"z": 0, "a": 1}) is None


def test_a_capped_history_is_written_as_what_fell_off_and_what_came() -> None:
    old = {"conditions": [{"n": i} for i in range(20)]}
    new = {"conditions": [{"n": i} for i in range(3, 23)]}
    change = delta(old, new)
    assert change == {"conditions": [3, 17, [{"n": 20}, {"n": 21}, {"n": 22}]]}
    assert patched(old, change) == new
