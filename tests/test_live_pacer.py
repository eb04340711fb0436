"""Slices of a listed page sized by what the previous slice cost."""

from __future__ import annotations

from olmtui.sources.live_informer import Pacer


def test_cheap_objects_grow_the_slice_up_to_the_cap() -> None:
    pacer = Pacer(budget=0.008, first=50, most=1000)
    pacer.measured(50, 0.001)  # 20 us an object: 400 fit in 8 ms
    assert pacer.size == 400
    pacer.measured(400, 0.001)
    assert pacer.size == 1000


def test_costly_objects_shrink_the_slice_but_never_to_nothing() -> None:
    pacer = Pacer(budget=0.008, first=50)
    pacer.measured(50, 0.020)  # 400 us an object: 20 fit
    assert pacer.size == 20
    pacer.measured(20, 1.0)
    assert pacer.size == 1


def test_a_slice_too_fast_to_time_changes_nothing() -> None:
    pacer = Pacer(first=50)
    pacer.measured(50, 0.0)
    pacer.measured(0, 0.01)
    assert pacer.size == 50
