"""Bench for live faults: a script, not a test.

Follows the sample cluster on the loopback API server with olmtui's DEFAULT timings
(``LiveOptions()``), injects one fault at a time, and prints how long after the fault
cleared the cache matched the server again, against the targets: 10 s after any fault
clears, 30 s for a forbidden kind whose permission is given back. Each fault lasts long
enough (``--outage``) for the backoff to reach its cap, so the figures are the worst case
of the backoff's range, not its first step. The server sends BOOKMARKs every minute, as a
real one does.

Faults that show only as silence: watches that hang (no answer) or go silent (answered, then
nothing) for the outage; watches that go half-open for good (open, never sending again, not
even their end: the network is fine at once, so that row is measured from the fault); a
relist (after a compaction) whose LISTs are never answered for the outage (not even after
it: only olmtui giving up on them ends them). And a storm: every
watch answered 410 for the outage, with the LISTs it cost (a relist at once each time was
480 LISTs in 8 s).

    python bench/bench_live_faults.py [--outage 20]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
from collections.abc import Awaitable, Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from olmtui.apiserver import LoopbackAPIServer
from olmtui.sources.cluster.live import LiveOptions, LiveSource
from olmtui.sources.cluster.live_resources import csv_from_partial, read_live
from olmtui.store import COPIED_FROM_LABEL, WATCHED_KINDS, Store

SAMPLE = files("olmtui").joinpath("samples", "cluster.yaml")
Obj = dict[str, Any]


def expected(server: LoopbackAPIServer) -> dict[str, dict[tuple[str, str], Obj]]:
    """What the cache must hold (copied CSVs are read as metadata only; of the evidence
    kinds, what the live selectors pick)."""
    store = Store()
    for kind in sorted(WATCHED_KINDS, key=lambda k: k == "Event"):  # Events by what is read
        for obj in (o for o in server.state.list(kind) if read_live(o, store)):
            labels = (obj.get("metadata") or {}).get("labels") or {}
            if kind == "ClusterServiceVersion" and COPIED_FROM_LABEL in labels:
                obj = csv_from_partial(obj, obj["apiVersion"])
            store.apply("ADDED", obj)
    return contents(store)


def contents(store: Store) -> dict[str, dict[tuple[str, str], Obj]]:
    return {k: {(key.namespace, key.name): o for key, o in store.items(k)} for k in WATCHED_KINDS}


async def converge_time(store: Store, server: LoopbackAPIServer, since: float) -> float:
    while contents(store) != expected(server):
        await asyncio.sleep(0.05)
    return time.monotonic() - since


def namespace(name: str) -> Obj:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


Fault = Callable[[LoopbackAPIServer, float], Awaitable[None]]


async def restart(server: LoopbackAPIServer, outage: float) -> None:
    await server.stop()
    server.state.create(namespace("restart"))
    await asyncio.sleep(outage)
    await server.restart()


async def compaction(server: LoopbackAPIServer, outage: float) -> None:
    await server.stop()
    server.state.create(namespace("compacted"))
    await asyncio.sleep(outage)
    await server.restart(clear_history=True)


async def dropped(server: LoopbackAPIServer, _outage: float) -> None:
    server.drop_connections()
    server.state.create(namespace("dropped"))


def on_watch(code: int) -> Fault:
    async def fault(server: LoopbackAPIServer, outage: float) -> None:
        server.fail_watches(code, "TooManyRequests" if code == 429 else "InternalError")
        server.drop_connections()
        server.state.create(namespace(f"status-{code}"))
        await asyncio.sleep(outage)
        server.fail_watches(None)

    return fault


async def forbidden(server: LoopbackAPIServer, outage: float) -> None:
    server.forbid("namespaces")
    server.drop_connections()
    server.state.create(namespace("forbidden"))
    await asyncio.sleep(outage * 2)  # long enough for the 403 backoff to reach its cap
    server.allow("namespaces")


def stalled(hung: bool) -> Fault:
    async def fault(server: LoopbackAPIServer, outage: float) -> None:
        server.stall_watches(True)
        if hung:
            server.drop_connections()  # the new watches get no answer at all
        server.state.create(namespace(f"stalled-{hung}"))
        await asyncio.sleep(outage)
        server.stall_watches(False)

    return fault


async def half_open(server: LoopbackAPIServer, _outage: float) -> None:
    server.half_open_watches()  # for good: only a new watch sees anything again
    server.state.create(namespace("half-open"))


async def hung_list(server: LoopbackAPIServer, outage: float) -> None:
    await server.stop()
    server.state.create(namespace("hung-list"))
    server.lose_lists(True)
    await server.restart(clear_history=True)  # the watches meet 410: relist, which hangs
    await asyncio.sleep(outage)
    server.lose_lists(False)  # what was asked meanwhile stays unanswered


async def gone_storm(server: LoopbackAPIServer, outage: float) -> None:
    server.fail_watches(410, "Expired")
    server.drop_connections()
    server.state.create(namespace("gone-storm"))
    before = lists(server)
    await asyncio.sleep(outage)
    STORM_LISTS.append(lists(server) - before)
    server.fail_watches(None)


#: The LISTs sent during each 410 storm (read by ``main``).
STORM_LISTS: list[int] = []


def lists(server: LoopbackAPIServer) -> int:
    return sum(1 for r in server.requests if r.query.get("watch") != "true" and "limit" in r.query)


async def measure(name: str, fault: Fault, outage: float, tmp: Path) -> float:
    server = LoopbackAPIServer(bookmark_interval=60)
    server.state.load([o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o], skip_unknown=True)
    await server.start()
    store = Store()
    source = LiveSource(store, LiveOptions(kubeconfig=str(server.write_kubeconfig(tmp / name))))
    await source.connect()
    task = asyncio.ensure_future(source.run())
    try:
        await converge_time(store, server, time.monotonic())
        await fault(server, outage)
        return await converge_time(store, server, time.monotonic())
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await source.close()
        await server.stop()


async def main(outage: float) -> None:
    faults: list[tuple[str, Fault, float]] = [
        ("dropped connections", dropped, 10),
        (f"server restart ({outage:g} s down)", restart, 10),
        (f"500 on watch ({outage:g} s)", on_watch(500), 10),
        (f"429 on watch ({outage:g} s)", on_watch(429), 10),
        (f"410 after compaction ({outage:g} s down)", compaction, 10),
        (f"410 on every watch ({outage:g} s)", gone_storm, 10),
        (f"403 lifted ({2 * outage:g} s forbidden)", forbidden, 30),
        (f"hung watches ({outage:g} s)", stalled(True), 10),
        (f"silent watches ({outage:g} s)", stalled(False), 10),
        ("half-open watches (from the fault)", half_open, 10),
        (f"hung list ({outage:g} s)", hung_list, 10),
    ]
    print(f"{'fault':<40} {'converged after':>16} {'target':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, fault, target in faults:
            seconds = await measure(name.split(" (")[0].replace(" ", "-"), fault, outage, Path(tmp))
            extra = f"  ({STORM_LISTS[-1]} LISTs during it)" if fault is gone_storm else ""
            print(
                f"{name:<40} {seconds:>14.2f} s {target:>6g} s  ratio {seconds / target:.2f}{extra}"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outage", type=float, default=20.0)
    args = parser.parse_args()
    asyncio.run(main(args.outage))
