"""The collector pause around bulk work: resumed afterwards, and with ``keep`` what the
block made is out of the collector's view."""

from __future__ import annotations

import gc

from olmtui import gc_pause
from olmtui.gc_pause import cyclic_gc_paused


def test_the_collector_is_paused_in_the_block_and_resumed_after() -> None:
    assert gc.isenabled()
    with cyclic_gc_paused():
        assert not gc.isenabled()
        with cyclic_gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_kept_objects_are_frozen_before_the_collector_resumes() -> None:
    with cyclic_gc_paused(keep=True):
        made = [[i] for i in range(2 * gc_pause.FREEZE_MIN)]  # only much is frozen
    assert gc.isenabled()
    in_generations = {id(obj) for obj in gc.get_objects()}
    assert not any(id(obj) in in_generations for obj in made)
    with cyclic_gc_paused():
        loose = [[i] for i in range(10)]
    assert any(obj is loose[0] for obj in gc.get_objects())


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        with cyclic_gc_paused(keep=True):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
