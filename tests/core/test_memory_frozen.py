"""Memory stays flat under a stream of watch events: ``gc.freeze`` keeps the cache
out of the collector's view, but whatever holds a cycle when frozen and is dropped later
(the UI's render caches, asyncio's tasks) would never be freed. Counted, not timed: the
objects the collector holds (tracked plus frozen) after many events stay within a bound that
does not grow with the number of events."""

from __future__ import annotations

import copy
import gc
import os
import subprocess
import sys
from typing import Any

import pytest
from data_paths import ROOT
from model_builders import copy_of, csv, namespace, operator_group, subscription

from olmtui import gc_pause
from olmtui.gc_pause import compact_frozen, cyclic_gc_paused
from olmtui.model.incremental.engine import Model
from olmtui.store import Store

NAMESPACES = [f"app-{i:03d}" for i in range(40)]


class _RenderCache:
    """What a widget keeps between two frames: a cycle (a cache that refers back to it)."""

    def __init__(self) -> None:
        self.lines = [[i, str(i)] for i in range(4)]
        self.cache: dict[str, Any] = {"self": self}


def _cluster() -> tuple[Store, Model, list[dict[str, Any]]]:
    parent = csv("operators", "op.v1.0.0", group="global")
    objs = [namespace("operators"), *map(namespace, NAMESPACES)]
    objs.append(operator_group("operators", "global"))
    objs.append(parent)
    objs += [copy_of(parent, ns) for ns in NAMESPACES]
    objs += [subscription(ns, f"sub-{ns}") for ns in NAMESPACES]
    store = Store()
    model = Model(store)
    store.apply_many(objs)
    model.csvs()
    model.findings()
    changing = [o for o in objs if o["kind"] in ("ClusterServiceVersion", "Subscription")]
    return store, model, changing


def _held() -> int:
    gc.collect()  # what the collector can free is not held; frozen cycles are
    return gc.get_freeze_count() + len(gc.get_objects())


def _stream(store: Store, model: Model, changing: list[dict[str, Any]], events: int) -> int:
    """``events`` watch events the way the live dashboard takes them: each applied with a
    render cache alive, dropped after the next frame; every 100th event a relist of every
    object (a block big enough to be frozen); the app's tick after each."""
    for i in range(events):
        frame = [_RenderCache() for _ in range(20)]
        obj = copy.deepcopy(changing[i % len(changing)])
        obj.setdefault("status", {})["message"] = f"event {i}"
        if i % 100 == 99:
            relist = [copy.deepcopy(o) for o in changing]
            for o in relist:
                o.setdefault("status", {})["lastUpdated"] = f"relist {i}"
            with cyclic_gc_paused(keep=True):
                ballast = [[n] for n in range(2 * gc_pause.FREEZE_MIN)]  # a page's worth made
                store.apply_many(relist)
            del ballast
        else:
            store.apply_many([obj])
        model.csvs()
        model.findings()
        del frame
        compact_frozen()
    return _held()


@pytest.fixture
def prompt_compaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tick looks at the frozen generation every time (instead of every 10 s) and
    compacts once it grew by 2,000 objects (not by a quarter of all the suite made)."""
    monkeypatch.setattr(gc_pause, "COMPACT_INTERVAL", 0.0)
    monkeypatch.setattr(gc_pause, "COMPACT_GROWTH", 0.0)
    monkeypatch.setattr(gc_pause, "COMPACT_FLOOR", 2_000)


#: Set in the fresh interpreter the heap-bound test runs in (see below).
CLEAN_PROCESS = "OLMTUI_TEST_CLEAN_PROCESS"


@pytest.mark.usefixtures("prompt_compaction")
def test_objects_held_do_not_grow_with_the_events() -> None:
    """Run in a fresh interpreter: each compaction is a full collection, which walks every
    object the process holds, so in a test process that has imported (and run) the suite the
    same 1,000 events took minutes, not seconds. The counts are the same either way."""
    if os.environ.get(CLEAN_PROCESS) != "1":
        test = f"{__file__}::test_objects_held_do_not_grow_with_the_events"
        argv = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", test]
        done = subprocess.run(
            argv,
            env={**os.environ, CLEAN_PROCESS: "1"},
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
        return
    store, model, changing = _cluster()
    gc_pause.freeze_all()
    _stream(store, model, changing, 200)  # warm-up
    after_warmup = _held()
    at_end = _stream(store, model, changing, 800)
    # each event dropped 20 render caches (~140 objects): frozen, 800 events would keep
    # ~110,000; the tick lets the frozen generation grow by 2,000 before compacting
    assert at_end - after_warmup < 10_000
    compact_frozen(force=True)
    assert _held() - after_warmup < 2_000  # nothing is kept by the cache or the model


def test_small_kept_blocks_are_not_frozen() -> None:
    gc_pause.freeze_all()  # nothing made by kept blocks is pending
    gc.collect()
    frozen = gc.get_freeze_count()
    with cyclic_gc_paused(keep=True):
        alive = _RenderCache()
    del alive
    assert gc.get_freeze_count() == frozen  # the cycle dropped stays collectable
    with cyclic_gc_paused(keep=True):
        kept = [[n] for n in range(2 * gc_pause.FREEZE_MIN)]
    assert gc.get_freeze_count() >= frozen + gc_pause.FREEZE_MIN
    assert not any(obj is kept[0] for obj in gc.get_objects())


def test_compaction_frees_cycles_dropped_while_frozen() -> None:
    with cyclic_gc_paused(keep=True):
        caches = [_RenderCache() for _ in range(gc_pause.FREEZE_MIN)]
    frozen = gc.get_freeze_count()
    del caches
    gc.collect()
    assert gc.get_freeze_count() > frozen - 100  # a plain collection cannot reach them
    assert compact_frozen(force=True)
    assert gc.get_freeze_count() < frozen - 5 * gc_pause.FREEZE_MIN
