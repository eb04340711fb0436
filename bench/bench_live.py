"""Bench for the live source: a script, not a test.

A loopback API server runs in a child process (so it does not share the GIL with the
client) holding about 2,000 non-copied CSVs and 20,000 copies, made by ``gen_snapshot.py``
(10 AllNamespaces operators copied into ~1,990 namespaces, 1,990 single-namespace operators).
Then, in this process:

(a) raw aiohttp GETs of the same pages olmtui requests (same paths, selectors, page size,
    Accept headers), plus ``json.loads`` and nothing else;
(b) olmtui's initial sync (``LiveSource.sync_once``) into the Store, with the incremental
    ``Model`` subscribed, then the lists a screen reads from the model;

and prints (b)/(a) (target <= 1.5). Then the source watches while the server makes 20,000
modifications (half on CSVs, half on copies). The server makes them all before it writes
the first event and can send ~9,000 events/s to a reader that only counts lines, so the
stream is bound by olmtui, not the server: the bench prints the events/s applied to cache
and model from the first event to the last (target >= 5,000/s), the CPU this process spent
per event over the same span, and the longest event-loop stall seen by a 5 ms ticker
(target < 50 ms), during the sync and during the stream.

    python bench/bench_live.py [--profile DIR] [--keep DIR]

``--profile DIR`` writes cProfile files of this process: ``sync.prof`` (the last sync) and
``stream.prof`` (the stream), to read with ``python -m pstats``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import multiprocessing as mp
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_support import loaded_server
from gen_snapshot import Sizes, generate

from olmtui.apiserver import LoopbackAPIServer
from olmtui.model.incremental.engine import Model
from olmtui.sources.cluster.live import LiveOptions, LiveSource
from olmtui.sources.cluster.live_http import PAGE_SIZE
from olmtui.sources.cluster.live_resources import METADATA_LIST_ACCEPT, STREAMS
from olmtui.store import Change, Store

SIZES = Sizes(namespaces=1992, global_operators=10, single_operators=1990, subscriptions=500)
MODIFICATIONS = 20_000
RATIO_TARGET = 1.5
RATE_TARGET = 5_000
STALL_TARGET_MS = 50.0


# -- the server, in a child process --------------------------------------------------------
def serve(conn: Connection, snapshot: str) -> None:
    """Load the snapshot into a loopback server, send its URL, then obey commands."""
    handle = loaded_server(snapshot, bookmark_interval=60.0)
    conn.send(handle.url)
    while True:
        command = conn.recv()
        if command == "stop":
            handle.stop()
            return
        handle.call(modify, handle.server, int(command))
        conn.send("done")


def modify(server: LoopbackAPIServer, count: int) -> None:
    """``count`` status updates, alternating between real CSVs and copies."""
    csvs = server.state.list("ClusterServiceVersion")
    real = [c for c in csvs if "olm.copiedFrom" not in c["metadata"].get("labels", {})]
    copies = [c for c in csvs if "olm.copiedFrom" in c["metadata"].get("labels", {})]
    for i in range(count):
        pool = real if i % 2 == 0 else copies
        obj = pool[(i // 2) % len(pool)]
        obj["status"]["message"] = f"bench update {i}"
        obj["metadata"].setdefault("annotations", {})["bench/round"] = str(i)
        server.state.update(obj)


# -- measuring -----------------------------------------------------------------------------
class Ticker:
    """The longest gap between 5 ms ticks: how long the event loop was not available."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            self.worst = max(self.worst, now - last - 0.005)
            last = now

    def start(self) -> None:
        self.worst = 0.0
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> float:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        return self.worst * 1000


async def raw_pages(url: str) -> int:
    """(a): the same list requests as olmtui's sync, concurrently; json.loads each page."""
    async with aiohttp.ClientSession() as session:

        async def one(path: str, selector: str, accept: str, page_size: int) -> int:
            count, token = 0, ""
            while True:
                params = {"limit": str(page_size)}
                if selector:
                    params["labelSelector"] = selector
                if token:
                    params["continue"] = token
                async with session.get(
                    url + path, params=params, headers={"Accept": accept}
                ) as response:
                    page = json.loads(await response.read())
                count += len(page.get("items") or [])
                token = page["metadata"].get("continue") or ""
                if not token:
                    return count

        jobs = []
        for spec in STREAMS:
            resource = spec.resource
            accept = METADATA_LIST_ACCEPT if spec.metadata_only else "application/json"
            jobs.append(
                one(
                    resource.path(resource.versions[0]), spec.label_selector, accept, spec.page_size
                )
            )
        pm = "/apis/packages.operators.coreos.com/v1/packagemanifests"
        jobs.append(one(pm, "", "application/json", PAGE_SIZE))
        return sum(await asyncio.gather(*jobs))


async def olmtui_sync(
    kubeconfig: Path, profiler: cProfile.Profile | None
) -> tuple[float, LiveSource, Store, Model]:
    """(b): connect (untimed: config and discovery), then time sync + model reads."""
    store = Store()
    model = Model(store)
    source = LiveSource(store, LiveOptions(kubeconfig=str(kubeconfig), context=None, namespaces=[]))
    await source.connect()
    if profiler:
        profiler.enable()
    start = time.perf_counter()
    await source.sync_once()
    model.csvs()
    model.copied_csvs()
    model.findings()
    elapsed = time.perf_counter() - start
    if profiler:
        profiler.disable()
    return elapsed, source, store, model


def profiler_for(profile: Path | None) -> cProfile.Profile | None:
    return cProfile.Profile() if profile else None


def dump(profiler: cProfile.Profile | None, profile: Path | None, name: str) -> None:
    if profiler and profile:
        profile.mkdir(parents=True, exist_ok=True)
        profiler.dump_stats(profile / name)


async def bench(url: str, kubeconfig: Path, conn: Connection, profile: Path | None) -> None:
    raw_best, sync_best = float("inf"), float("inf")
    objects = 0
    for run in range(3):
        start = time.perf_counter()
        objects = await raw_pages(url)
        raw_best = min(raw_best, time.perf_counter() - start)
        ticker = Ticker()
        ticker.start()
        profiler = profiler_for(profile) if run == 2 else None
        elapsed, source, store, model = await olmtui_sync(kubeconfig, profiler)
        sync_stall = await ticker.stop()
        dump(profiler, profile, "sync.prof")
        sync_best = min(sync_best, elapsed)
        if run < 2:
            await source.close()
    print(
        f"objects listed: {objects} (cache: {len(store)}, "
        f"CSVs {store.count('ClusterServiceVersion')})"
    )
    print(f"(a) raw aiohttp + json.loads: {raw_best:.2f} s")
    print(f"(b) olmtui sync into cache + model: {sync_best:.2f} s")
    print(f"(b)/(a) = {sync_best / raw_best:.2f} (target <= {RATIO_TARGET})")
    print(f"worst event-loop stall during the sync: {sync_stall:.1f} ms")

    seen = 0
    first = last = 0.0
    cpu_first = cpu_last = 0.0

    def count(changes: list[Change]) -> None:
        nonlocal seen, first, last, cpu_first, cpu_last
        now, cpu = time.perf_counter(), time.process_time()
        if not first:
            first, cpu_first = now, cpu
        last, cpu_last = now, cpu
        seen += len(changes)

    store.subscribe(count)
    runner = asyncio.create_task(source.run())
    while any(s.state == "syncing" for s in source.status.streams.values()):
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    ticker = Ticker()
    ticker.start()
    loop = asyncio.get_running_loop()
    profiler = profiler_for(profile)
    if profiler:
        profiler.enable()
    await loop.run_in_executor(None, conn.send, str(MODIFICATIONS))
    await loop.run_in_executor(None, conn.recv)
    deadline = time.perf_counter() + 900
    while seen < MODIFICATIONS and time.perf_counter() < deadline:
        await asyncio.sleep(0.01)
    if profiler:
        profiler.disable()
    dump(profiler, profile, "stream.prof")
    stream_stall = await ticker.stop()
    runner.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await runner
    await source.close()
    wall, cpu = last - first, cpu_last - cpu_first
    print(f"modifications applied: {seen}/{MODIFICATIONS}")
    print(
        f"events/s applied to cache and model, first to last event: {seen / wall:,.0f} "
        f"(target >= {RATE_TARGET:,})"
    )
    print(
        f"CPU of this process per event over that span (parse + cache + model): "
        f"{cpu / seen * 1e6:,.0f} us ({seen / cpu:,.0f} events per CPU second)"
    )
    print(
        f"worst event-loop stall while streaming: {stream_stall:.1f} ms "
        f"(target < {STALL_TARGET_MS:.0f} ms)"
    )
    print(
        f"model after the stream: {len(model.csvs())} CSVs, "
        f"{model.copied_csvs().present} copies present"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--profile", type=Path, help="write cProfile files of the last sync and the stream to DIR"
    )
    parser.add_argument(
        "--keep", type=Path, help="generate the snapshot into DIR and keep it; reuse it if there"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-live-") as tmp:
        snapshot = args.keep or Path(tmp) / "snapshot"
        if args.keep and any(args.keep.glob("*.yaml")):
            print(f"reusing the snapshot in {args.keep}")
        else:
            generated = generate(snapshot, SIZES)
            print(f"generated {generated.csvs} CSVs and {generated.copies} copies")
        parent, child = mp.Pipe()
        server = mp.get_context("spawn").Process(
            target=serve, args=(child, str(snapshot)), daemon=True
        )
        server.start()
        url = parent.recv()
        kubeconfig = Path(tmp) / "kubeconfig"
        kubeconfig.write_text(
            yaml.safe_dump(
                {
                    "apiVersion": "v1",
                    "kind": "Config",
                    "current-context": "bench",
                    "clusters": [{"name": "bench", "cluster": {"server": url}}],
                    "users": [{"name": "bench", "user": {"token": "bench"}}],
                    "contexts": [
                        {"name": "bench", "context": {"cluster": "bench", "user": "bench"}}
                    ],
                }
            )
        )
        try:
            asyncio.run(bench(url, kubeconfig, parent, args.profile))
        finally:
            parent.send("stop")
            server.join(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
