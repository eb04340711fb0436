"""Slices of a listed page sized by what the previous slice cost."""

from __future__ import annotations

from olmtui.sources.cluster.live_informer import Pacer


def test_cheap_objects_grow_the_slice_up_to_the_cap() -> None:
    pacer = Pacer(budget=0.008, least=50, most=1000)
    assert pacer.size == 50
    pacer.measured(50, 0.001)  # 20 us an object: 400 fit in 8 ms
    assert pacer.size == 400
    pacer.measured(400, 0.001)
    assert pacer.size == 1000


def test_costly_slices_fall_back_to_the_floor_not_below() -> None:
    pacer = Pacer(budget=0.008, least=50)
    pacer.measured(50, 0.001)
    assert pacer.size == 400
    pacer.measured(400, 0.100)  # the slice cost the same whatever its size
    assert pacer.size == 50
    pacer.measured(50, 0.100)
    assert pacer.size == 50


def test_a_slice_too_fast_to_time_changes_nothing() -> None:
    pacer = Pacer(least=50)
    pacer.measured(50, 0.0)
    pacer.measured(0, 0.01)
    assert pacer.size == 50
