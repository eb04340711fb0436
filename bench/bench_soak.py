"""Soak bench: RSS of the live dashboard over many watch events
and over idle time. A script, not a test.

How close to the real thing: a loopback API server (``olmtui.apiserver``) runs in a child
process holding a cluster made by ``gen_snapshot.py`` (real published CSVs, their copies in
every namespace, Subscriptions, InstallPlans); this process runs the real dashboard
(``OlmApp`` headless, ``run_test``) on a real live session (``pipeline.build.live_session``:
the kubeconfig, ``LiveSource``, its informers and watches over HTTP, the Store, the Model,
the header's connection state, the CSVs view rebuilt by the app's refresh tick). The only
differences from a terminal: Textual's headless driver writes no bytes, and nobody presses
keys. The server makes the events in rounds of ``--round`` and the bench waits for the
dashboard's store to have applied each round before asking for the next (so the server's
watch history never overflows into relists): modifications of CSV status (real CSVs and
copies) and of Subscription status, and every tenth event a real CSV deleted or added back
(the CSV alone: the server runs no OLM, so its copies stay).

It samples this process's RSS and the objects Python's cyclic collector holds (tracked plus
frozen) after each round, and prints RSS at the end of the warm-up (``--warmup`` events) and
at the end, and the slope of a least-squares line through the samples after warm-up, in KB
per 100,000 events, with the verdict "flat" when the line's rise over the run stays under
the noise of RSS sampling (``NOISE_MB``). ``--idle SECONDS`` then leaves the dashboard
running on the live session with no events (watches and bookmarks only) and prints the
slope in MB per minute the same way.

    python bench/bench_soak.py [--events 1000000] [--idle 300] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing as mp
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_support import loaded_server
from gen_snapshot import Sizes, generate

from olmtui.apiserver import LoopbackAPIServer
from olmtui.pipeline.build import live_session
from olmtui.pipeline.session import Session
from olmtui.sources.cluster.live import LiveOptions
from olmtui.store import Change
from olmtui.ui.app import OlmApp

SIZES = Sizes(namespaces=300, global_operators=4, single_operators=100, subscriptions=100)
#: RSS moves by a few MB as the allocator's arenas come and go: a rise of the fitted line
#: below this over the whole measured span is noise ("flat").
NOISE_MB = 4.0
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


# -- the server, in a child process --------------------------------------------------------
def serve(conn: Connection, snapshot: str) -> None:
    """Load the snapshot into a loopback server, send its URL, then obey commands."""
    handle = loaded_server(snapshot, bookmark_interval=30.0)
    conn.send(handle.url)
    events = Events()
    while True:
        command = conn.recv()
        if command == "stop":
            handle.stop()
            return
        handle.call(events.make, handle.server, int(command))
        conn.send("done")


@dataclass
class Events:
    """Realistic changes, in turn: CSV status (real CSVs and copies), Subscription status,
    and a real CSV deleted or added back every tenth event."""

    made: int = 0
    removed: list[dict] = field(default_factory=list)

    def make(self, server: LoopbackAPIServer, count: int) -> None:
        state = server.state
        csvs = state.list("ClusterServiceVersion")
        copies = [c for c in csvs if "olm.copiedFrom" in c["metadata"].get("labels", {})]
        real = [c for c in csvs if "olm.copiedFrom" not in c["metadata"].get("labels", {})]
        # the first half of the real CSVs is modified, the second half deleted and added back
        kept, churned = real[: len(real) // 2], real[len(real) // 2 :]
        subs = state.list("Subscription")
        for _ in range(count):
            i = self.made
            self.made += 1
            if i % 10 == 9:
                self._add_or_delete(server, churned, i)
                continue
            pool = (kept, copies, subs)[i % 3]
            obj = pool[(i // 3) % len(pool)]
            status = obj.setdefault("status", {})
            if obj["kind"] == "Subscription":
                status["lastUpdated"] = f"2026-11-02T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:00Z"
            else:
                status["message"] = f"soak update {i}"
                status["lastUpdateTime"] = f"2026-11-02T09:{i // 60 % 60:02d}:{i % 60:02d}Z"
            state.update(obj)

    def _add_or_delete(self, server: LoopbackAPIServer, churned: list[dict], i: int) -> None:
        """Delete the next churned CSV, or add back the one deleted last (in turn)."""
        if self.removed and (i // 10) % 2 == 1:
            obj = self.removed.pop()
            obj["metadata"].pop("resourceVersion", None)
            server.state.create(obj)
            churned.append(obj)
            return
        obj = churned.pop(0)
        meta = obj["metadata"]
        server.state.delete("ClusterServiceVersion", meta["namespace"], meta["name"])
        self.removed.append(obj)


# -- measuring -----------------------------------------------------------------------------
def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE_KB / 1024


def gc_objects() -> int:
    """Objects the cyclic collector holds: tracked in a generation or frozen."""
    return gc.get_freeze_count() + len(gc.get_objects())


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of ``(x, y)`` points."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def verdict(rise_mb: float) -> str:
    if rise_mb > NOISE_MB:
        return "GROWING"
    return "flat" if rise_mb > -NOISE_MB else "falling (memory given back)"


@dataclass
class Soak:
    url: str
    kubeconfig: Path
    conn: Connection
    events: int
    warmup: int
    round: int
    idle: float
    seen: int = 0

    def count(self, changes: list[Change]) -> None:
        self.seen += len(changes)

    async def wait_for(self, target: int, limit: float) -> bool:
        deadline = time.monotonic() + limit
        while self.seen < target and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return self.seen >= target

    async def run(self, session: Session) -> None:
        app = OlmApp(session, initial_view="csvs")
        assert session.status is not None
        async with app.run_test(size=(160, 40)) as pilot:
            while session.status().state != "live":
                await pilot.pause(0.1)
            await pilot.pause(1.0)
            session.store.subscribe(self.count)
            print(
                f"synced: {len(session.store)} objects, "
                f"{session.store.count('ClusterServiceVersion')} CSVs; RSS {rss_mb():.1f} MB",
                flush=True,
            )
            await self._stream()
            if self.idle:
                await self._idle()
            await pilot.press("q")

    async def _stream(self) -> None:
        loop = asyncio.get_running_loop()
        samples: list[tuple[float, float, float]] = []
        started = time.monotonic()
        sent = 0
        while sent < self.events:
            step = min(self.round, self.events - sent)
            target = self.seen + step
            await loop.run_in_executor(None, self.conn.send, str(step))
            if not await loop.run_in_executor(None, self.conn.poll, 600):
                print("the server did not answer", flush=True)
                return
            await loop.run_in_executor(None, self.conn.recv)
            if not await self.wait_for(target, 120):
                print(f"stalled: {self.seen} changes seen, {target} expected", flush=True)
                return
            sent += step
            samples.append((sent, rss_mb(), gc_objects()))
            if sent % (self.events // 10 or 1) < step:
                rate = sent / (time.monotonic() - started)
                print(
                    f"{sent:>9,} events  RSS {samples[-1][1]:7.1f} MB  "
                    f"gc objects {samples[-1][2]:>10,.0f}  ({rate:,.0f} events/s)",
                    flush=True,
                )
        after = [(x, rss, objs) for x, rss, objs in samples if x >= self.warmup]
        if len(after) < 2:
            print("too few samples after the warm-up: use more --events or a lower --warmup")
            return
        at_warmup, at_end = after[0], after[-1]
        per_100k = slope([(x, rss) for x, rss, _ in after]) * 100_000 * 1024
        objs_100k = slope([(x, objs) for x, _, objs in after]) * 100_000
        rise = per_100k / 1024 * (at_end[0] - at_warmup[0]) / 100_000
        print(f"RSS after warm-up ({at_warmup[0]:,.0f} events): {at_warmup[1]:.1f} MB")
        print(f"RSS at the end ({at_end[0]:,.0f} events): {at_end[1]:.1f} MB")
        print(
            f"slope after warm-up: {per_100k:+,.0f} KB per 100k events "
            f"({objs_100k:+,.0f} gc objects per 100k events): {verdict(rise)} "
            f"(fitted rise {rise:+.1f} MB, noise {NOISE_MB:.0f} MB)",
            flush=True,
        )

    async def _idle(self) -> None:
        print(f"idle for {self.idle:.0f} s (live session, no events)", flush=True)
        samples: list[tuple[float, float]] = []
        objects: list[tuple[float, float]] = []
        started = time.monotonic()
        while (now := time.monotonic() - started) < self.idle:
            samples.append((now / 60, rss_mb()))
            objects.append((now / 60, gc_objects()))
            await asyncio.sleep(min(10.0, self.idle / 30))
        samples.append(((time.monotonic() - started) / 60, rss_mb()))
        warm = [s for s in samples if s[0] >= min(1.0, self.idle / 600)]
        per_min = slope(warm)
        rise = per_min * (warm[-1][0] - warm[0][0]) if warm else 0.0
        print(
            f"idle: RSS {samples[0][1]:.1f} -> {samples[-1][1]:.1f} MB, "
            f"slope {per_min:+.2f} MB per minute: {verdict(rise)} "
            f"(gc objects {gc_objects():,}, {slope(objects):+,.0f} per minute)",
            flush=True,
        )


def kubeconfig_for(url: str, path: Path) -> None:
    path.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "soak",
                "clusters": [{"name": "soak", "cluster": {"server": url}}],
                "users": [{"name": "soak", "user": {"token": "soak"}}],
                "contexts": [{"name": "soak", "context": {"cluster": "soak", "user": "soak"}}],
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="watch events to make")
    parser.add_argument(
        "--warmup", type=int, help="events before the slope is measured (default: a tenth)"
    )
    parser.add_argument("--round", type=int, default=2_000, help="events per server round")
    parser.add_argument("--idle", type=float, default=0.0, help="seconds idle after the events")
    parser.add_argument(
        "--keep", type=Path, help="generate the snapshot into DIR and keep it; reuse it if there"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-soak-") as tmp:
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
        kubeconfig_for(url, kubeconfig)
        warmup = args.events // 10 if args.warmup is None else args.warmup
        soak = Soak(url, kubeconfig, parent, args.events, warmup, args.round, args.idle)
        try:
            asyncio.run(soak.run(live_session(LiveOptions(kubeconfig=str(kubeconfig)))))
        finally:
            parent.send("stop")
            server.join(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
