"""Read a fleet's targets in a bounded pool, within a deadline, each outcome handed on as it
comes (R-FLT-1).

Snapshot targets are CPU work: they go to worker processes, at most one per core (or
``--jobs``), each parsing in its own process (no pool inside a pool). Live targets mostly
wait on the network: they are read by threads, several at once (``--jobs``, default
:data:`LIVE_DEFAULT`), each with an event loop of its own. Workers are forked when this
process runs one thread, else spawned, as ``parallel_load`` decides, and snapshot targets
are handed to the processes before any live thread starts.

The deadline: targets not read when it passes are reported ``timeout``; their worker
processes are ended, their threads (daemons, each bounded by its own request timeout, at most
the deadline) left to end on their own. Results come back in the order they finish; the
caller sorts them (``fleet.by_name``).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace

from olmtui.pipeline.fleet import FleetSettings, TargetResult, not_read, read_target
from olmtui.pipeline.fleet_targets import Target

#: Live targets read at once when ``--jobs`` is not given.
LIVE_DEFAULT = 16
#: Seconds past the run's deadline a live read left running may last before it ends itself.
_AFTER_DEADLINE = 1.0


@dataclass(frozen=True)
class PoolSizes:
    """Processes for snapshot targets (0 or 1: read in this process) and threads for live
    targets."""

    processes: int
    threads: int


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def pool_sizes(snapshots: int, lives: int, jobs: int | None, cpus: int | None = None) -> PoolSizes:
    """``--jobs N`` bounds both; by default one process per core (never more than the
    snapshot targets) and :data:`LIVE_DEFAULT` threads (never more than the live ones)."""
    cpus = cores() if cpus is None else cpus
    processes = jobs if jobs is not None else cpus
    threads = jobs if jobs is not None else LIVE_DEFAULT
    return PoolSizes(min(processes, snapshots), min(threads, lives))


Outcome = TargetResult | BaseException


def run_fleet(
    targets: Sequence[Target],
    settings: FleetSettings,
    *,
    jobs: int | None = None,
    deadline: float | None = None,
    on_result: Callable[[TargetResult], None] | None = None,
) -> list[TargetResult]:
    """Every target's result, each handed to ``on_result`` (in this thread) as it comes; a
    bug in a target's read is re-raised here."""
    began = time.monotonic()
    ends = None if deadline is None else began + deadline
    if deadline is not None:
        # a live read ends by itself just after the deadline, so that the run's own reason
        # ("not read within the --deadline") is the one reported, never a race with its own
        bound = deadline + _AFTER_DEADLINE
        settings = replace(settings, request_timeout=min(settings.request_timeout or bound, bound))
    snapshots = [t for t in targets if t.kind == "snapshot" and t.problem is None]
    lives = [t for t in targets if t.kind == "live" and t.problem is None]
    sizes = pool_sizes(len(snapshots), len(lives), jobs)
    outcomes: queue.Queue[Outcome] = queue.Queue()
    results: list[TargetResult] = []

    def take(result: TargetResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    for target in targets:
        if target.problem is not None:
            take(read_target(target, settings))
    pool = _processes(snapshots, settings, sizes.processes, outcomes)
    if pool is None and snapshots:
        _threads(snapshots, settings, 1, outcomes)
    if lives:
        _threads(lives, settings, sizes.threads, outcomes)
    waiting = {t.name: t for t in (*snapshots, *lives)}
    try:
        while waiting:
            left = None if ends is None else ends - time.monotonic()
            if left is not None and left <= 0:
                break
            try:
                outcome = outcomes.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(outcome, BaseException):
                raise outcome
            waiting.pop(outcome.name, None)
            take(outcome)
    finally:
        if pool is not None:
            _end(pool, wait=not waiting)
    for target in waiting.values():
        reason = f"not read within the fleet's --deadline of {deadline:g} s"
        take(not_read(target, "timeout", reason))
    return results


def _processes(
    targets: list[Target], settings: FleetSettings, count: int, outcomes: queue.Queue[Outcome]
) -> ProcessPoolExecutor | None:
    """The snapshot targets handed to ``count`` worker processes (None: fewer than two
    would run, they are read in this process)."""
    if count < 2:
        return None
    method = "fork" if threading.active_count() == 1 else "spawn"
    pool = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context(method))
    for target in targets:
        future = pool.submit(read_target, target, settings)
        future.add_done_callback(lambda f: outcomes.put(_outcome(f)))
    return pool


def _outcome(future: Future[TargetResult]) -> Outcome:
    if future.cancelled():
        return RuntimeError("a fleet target's read was cancelled")
    error = future.exception()
    return error if error is not None else future.result()


def _end(pool: ProcessPoolExecutor, *, wait: bool) -> None:
    """Shut the pool down; past the deadline, its workers are ended rather than waited for
    (Python 3.11's executor has no way to stop a running task but ending its process)."""
    if wait:
        pool.shutdown(wait=True)
        return
    workers = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()


def _threads(
    targets: list[Target], settings: FleetSettings, count: int, outcomes: queue.Queue[Outcome]
) -> None:
    """``count`` daemon threads reading ``targets`` in turn."""
    pending = deque(targets)
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                if not pending:
                    return
                target = pending.popleft()
            try:
                outcomes.put(read_target(target, settings))
            except BaseException as exc:  # a bug: re-raised by the runner
                outcomes.put(exc)

    for n in range(max(count, 1)):
        threading.Thread(target=work, name=f"olmtui-fleet-{n}", daemon=True).start()
