"""Bench for live faults (issue 15): a script, not a test.

Follows the sample cluster on the loopback API server with olmtui's DEFAULT timings
(``LiveOptions()``), injects one fault at a time, and prints how long after the fault
cleared the cache matched the server again, against the targets: 10 s after any fault
clears, 30 s for a forbidden kind whose permission is given back. Each fault lasts long
enough (``--outage``) for the backoff to reach its cap, so the figures are the worst case
of the backoff's range, not its first step.

A hung or a silent watch does not clear by itself: olmtui must notice it. Those two rows are
measured from the fault's start with ``read_timeout`` set to ``--read-timeout`` (the
default, 90 s, would only make the bench long): the figure is the read timeout plus what
replacing the watch took, and the recovery part is printed apart.

    python bench/bench_live_faults.py [--outage 20] [--read-timeout 10]
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
from olmtui.sources.live import LiveOptions, LiveSource
from olmtui.sources.live_resources import csv_from_partial
from olmtui.store import COPIED_FROM_LABEL, WATCHED_KINDS, Store

SAMPLE = files("olmtui").joinpath("samples", "cluster.yaml")
Obj = dict[str, Any]


def expected(server: LoopbackAPIServer) -> dict[str, dict[tuple[str, str], Obj]]:
    """What the cache must hold (copied CSVs are read as metadata only)."""
    store = Store()
    for kind in WATCHED_KINDS:
        for obj in server.state.list(kind):
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


async def stalled(server: LoopbackAPIServer, hung: bool) -> None:
    server.stall_watches(True)
    if hung:
        server.drop_connections()  # the new watches get no answer at all
    server.state.create(namespace(f"stalled-{hung}"))


async def measure(name: str, fault: Fault, outage: float, tmp: Path) -> float:
    server = LoopbackAPIServer()
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


async def measure_stall(hung: bool, read_timeout: float, tmp: Path) -> tuple[float, float]:
    """(seconds from the fault to convergence, of which after the read timeout)."""
    server = LoopbackAPIServer()
    server.state.load([o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o], skip_unknown=True)
    await server.start()
    store = Store()
    options = LiveOptions(kubeconfig=str(server.write_kubeconfig(tmp / f"stall-{hung}")))
    options.read_timeout = read_timeout
    source = LiveSource(store, options)
    await source.connect()
    task = asyncio.ensure_future(source.run())
    try:
        await converge_time(store, server, time.monotonic())
        began = time.monotonic()
        await stalled(server, hung)
        stream = source.status.stream("Namespace")
        while "read timeout" not in stream.last_error:
            await asyncio.sleep(0.05)
        server.stall_watches(False)  # what replacing the connection finds: a working server
        noticed = time.monotonic()
        await converge_time(store, server, noticed)
        return time.monotonic() - began, time.monotonic() - noticed
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await source.close()
        await server.stop()


async def main(outage: float, read_timeout: float) -> None:
    faults: list[tuple[str, Fault, float]] = [
        ("dropped connections", dropped, 10),
        (f"server restart ({outage:g} s down)", restart, 10),
        (f"500 on watch ({outage:g} s)", on_watch(500), 10),
        (f"429 on watch ({outage:g} s)", on_watch(429), 10),
        (f"410 after compaction ({outage:g} s down)", compaction, 10),
        (f"403 lifted ({2 * outage:g} s forbidden)", forbidden, 30),
    ]
    print(f"{'fault':<40} {'converged after':>16} {'target':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, fault, target in faults:
            seconds = await measure(name.split(" (")[0].replace(" ", "-"), fault, outage, Path(tmp))
            print(f"{name:<40} {seconds:>14.2f} s {target:>6g} s  ratio {seconds / target:.2f}")
        for hung in (True, False):
            total, after = await measure_stall(hung, read_timeout, Path(tmp))
            label = f"{'hung' if hung else 'silent'} watch (read timeout {read_timeout:g} s)"
            print(f"{label:<40} {total:>14.2f} s {'':>8}  of which after detection {after:.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outage", type=float, default=20.0)
    parser.add_argument("--read-timeout", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(main(args.outage, args.read_timeout))
