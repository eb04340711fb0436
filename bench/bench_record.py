"""Bench for recordings (``olmtui record``, ``--record``): a script, not a test. Ratios and
sizes in one run, each printed with its target.

(a) Bytes per modification of a full-size CSV: real CSVs from the test data (15-80 KB each,
    installed in namespaces with an OLM-like status) fed to a Store with the recording's
    writer, then status updates as OLM makes them (a new resourceVersion and lastUpdateTime,
    now and then a phase change whose condition joins a history capped at 20). The file's
    growth over the updates, checkpoints included, divided by their number (target <= 300).
(b) CPU: a loopback API server in a child process updates CSVs at 1,000 events/s; this
    process follows it with the live source and a Store (headless, as ``olmtui record``
    does), then with the dashboard's Model too, each for the same span without and with the
    writer, three times interleaved; the least CPU this process spent with / without
    (target <= 1.10).
(c) Jumping: a 1,000,000-change recording (2,000 objects, 1,000 changes/s of recorded time);
    in a fresh process, open it and ask ``state(count)`` at random positions: the worst time
    (target <= 1 s) and that process's peak RSS (target <= 1 GB).

    python bench/bench_record.py [--changes N] [--seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_support import loaded_server
from gen_snapshot import Sizes, generate

from olmtui.model.incremental.engine import Model
from olmtui.sources.cluster.live import LiveOptions, LiveSource
from olmtui.sources.recording.writer import RecorderStatus, RecordingWriter
from olmtui.store import Store

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "tests" / "data" / "catalogs"
BYTES_TARGET = 300
CPU_TARGET = 1.10
JUMP_TARGET = 1.0
RSS_TARGET_MB = 1024
RATE = 1000
#: Runs of (b) per configuration: the machine's other load only ever adds CPU.
ROUNDS = 3


# -- (a) bytes per modification --------------------------------------------------------------
def full_size_csvs(limit: int = 40) -> list[dict[str, Any]]:
    """Real CSVs of 15 KB or more (as YAML files) from the catalogs in the test data."""
    found = []
    for path in sorted(CATALOGS.rglob("*.clusterserviceversion.yaml")):
        if path.stat().st_size < 15_000:
            continue
        csv = yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)
        if isinstance(csv, dict) and csv.get("kind") == "ClusterServiceVersion":
            found.append(csv)
        if len(found) == limit:
            break
    return found


def installed(csv: dict[str, Any], index: int) -> dict[str, Any]:
    obj = copy.deepcopy(csv)
    obj["metadata"]["namespace"] = f"ns-{index:03d}"
    obj["metadata"]["resourceVersion"] = "1"
    obj["metadata"]["uid"] = f"uid-{index:06d}"
    obj["status"] = {
        "phase": "Succeeded",
        "reason": "InstallSucceeded",
        "message": "install strategy completed with no errors",
        "lastUpdateTime": "2026-11-28T10:00:00Z",
        "lastTransitionTime": "2026-11-28T10:00:00Z",
        "conditions": [
            {
                "phase": phase,
                "reason": "InstallSucceeded",
                "message": "install strategy completed with no errors",
                "lastUpdateTime": "2026-11-28T10:00:00Z",
                "lastTransitionTime": "2026-11-28T10:00:00Z",
            }
            for phase in ["Pending", "InstallReady", "Installing", "Succeeded"] * 5
        ],
        "requirementStatus": [
            {
                "group": "apiextensions.k8s.io",
                "kind": "CustomResourceDefinition",
                "name": f"crd-{n}.example.com",
                "status": "Present",
                "version": "v1",
                "message": "CRD is present and Established condition is true",
                "uuid": f"uuid-{index}-{n}",
            }
            for n in range(8)
        ],
    }
    return obj


def status_update(obj: dict[str, Any], step: int, rng: random.Random) -> dict[str, Any]:
    """OLM's update of a CSV's status: new resourceVersion and times, sometimes a phase."""
    new = {**obj, "metadata": {**obj["metadata"]}, "status": {**obj["status"]}}
    new["metadata"]["resourceVersion"] = str(1000 + step)
    stamp = f"2026-11-28T{10 + step // 3600 % 10:02d}:{step // 60 % 60:02d}:{step % 60:02d}Z"
    new["status"]["lastUpdateTime"] = stamp
    if rng.random() < 0.2:
        phase = rng.choice(["Installing", "Succeeded", "Failed"])
        new["status"]["phase"] = phase
        new["status"]["lastTransitionTime"] = stamp
        condition = {**obj["status"]["conditions"][-1], "phase": phase, "lastUpdateTime": stamp}
        new["status"]["conditions"] = [*obj["status"]["conditions"][1:], condition]
    return new


def bytes_per_modification(tmp: Path, updates: int) -> float:
    csvs = [installed(c, i) for i, c in enumerate(full_size_csvs())]
    sizes = [len(yaml.safe_dump(c)) for c in csvs]
    print(
        f"(a) {len(csvs)} real CSVs, {min(sizes) // 1000}-{max(sizes) // 1000} KB as YAML, "
        f"{updates} status updates"
    )
    store = Store()
    writer = RecordingWriter(str(tmp / "size.rec"))
    writer.attach(store)
    store.apply_many(csvs)
    writer.flush()
    before = (tmp / "size.rec").stat().st_size
    rng = random.Random(1)
    current = list(csvs)
    for step in range(updates):
        index = rng.randrange(len(current))
        current[index] = status_update(current[index], step, rng)
        store.apply("MODIFIED", current[index])
        if step % 1000 == 999:
            writer.tick()  # a flush a second at 1,000 updates/s
    writer.close()
    per = ((tmp / "size.rec").stat().st_size - before) / updates
    print(f"    bytes per modification: {per:.0f} (target <= {BYTES_TARGET})")
    return per


# -- (b) CPU at 1,000 events/s -------------------------------------------------------------
def serve(conn: Connection, snapshot: str) -> None:
    """A loopback server holding the snapshot; ``N SECONDS``: update CSVs at N/s."""
    handle = loaded_server(snapshot, bookmark_interval=60.0)
    conn.send(handle.url)
    while True:
        command = conn.recv()
        if command == "stop":
            handle.stop()
            return
        rate, seconds = command
        paced(handle, rate, seconds)
        conn.send("done")


def paced(handle: Any, rate: int, seconds: float) -> None:
    csvs = [
        c
        for c in handle.call(handle.server.state.list, "ClusterServiceVersion")
        if "olm.copiedFrom" not in c["metadata"].get("labels", {})
    ]
    start = time.perf_counter()
    batch = rate // 20
    for tick in range(int(seconds * 20)):

        def step(tick: int = tick) -> None:
            for i in range(batch):
                obj = csvs[(tick * batch + i) % len(csvs)]
                obj["status"]["message"] = f"bench update {tick}-{i}"
                handle.server.state.update(obj)

        handle.call(step)
        delay = start + (tick + 1) / 20 - time.perf_counter()
        if delay > 0:
            time.sleep(delay)


async def follow(
    kubeconfig: Path, conn: Connection, tmp: Path, seconds: float, model: bool, record: bool
) -> float:
    """CPU seconds this process spent while the server sent ``RATE`` events/s."""
    store = Store()
    if model:
        Model(store)
    writer = None
    if record:
        writer = RecordingWriter(str(tmp / f"cpu-{model}.rec"))
        writer.attach(store)
    source = LiveSource(store, LiveOptions(kubeconfig=str(kubeconfig)))
    await source.connect()
    task = asyncio.ensure_future(source.run())
    while not source.status.streams or any(
        s.state == "syncing" for s in source.status.streams.values()
    ):
        await asyncio.sleep(0.1)

    async def ticking() -> None:
        while writer is not None:
            await asyncio.sleep(0.5)
            writer.set_status(RecorderStatus((), True))
            writer.tick()

    ticker = asyncio.ensure_future(ticking())
    loop = asyncio.get_running_loop()
    cpu = time.process_time()
    conn.send((RATE, seconds))
    await loop.run_in_executor(None, conn.recv)
    await asyncio.sleep(0.5)  # the last events
    spent = time.process_time() - cpu
    ticker.cancel()
    task.cancel()
    await asyncio.gather(task, ticker, return_exceptions=True)
    await source.close()
    if writer is not None:
        writer.close()
    return spent


def cpu_ratios(tmp: Path, seconds: float) -> dict[str, float]:
    snapshot = tmp / "snapshot"
    generate(snapshot, Sizes(namespaces=300, global_operators=5, single_operators=250))
    parent, child = mp.Pipe()
    server = mp.get_context("spawn").Process(target=serve, args=(child, str(snapshot)), daemon=True)
    server.start()
    url = parent.recv()
    kubeconfig = tmp / "kubeconfig"
    kubeconfig.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "bench",
                "clusters": [{"name": "bench", "cluster": {"server": url}}],
                "users": [{"name": "bench", "user": {"token": "bench"}}],
                "contexts": [{"name": "bench", "context": {"cluster": "bench", "user": "bench"}}],
            }
        )
    )
    ratios = {}
    try:
        for model in (False, True):
            what = "with the Model (the dashboard)" if model else "headless (olmtui record)"
            runs: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(ROUNDS):  # interleaved; the least CPU of each is its cost
                for record in (False, True):
                    spent = asyncio.run(follow(kubeconfig, parent, tmp, seconds, model, record))
                    runs[record].append(spent)
            without, with_ = min(runs[False]), min(runs[True])
            ratios[what] = with_ / without
            print(
                f"(b) {what}: {RATE} events/s for {seconds:g} s, {ROUNDS} rounds: least CPU "
                f"{without:.2f} s without the writer, {with_:.2f} s with: {with_ / without:.3f} "
                f"(target <= {CPU_TARGET})"
            )
    finally:
        parent.send("stop")
        server.join(30)
    return ratios


# -- (c) jumping in 1,000,000 changes ------------------------------------------------------
def big_recording(path: Path, changes: int) -> None:
    """2,000 objects (the full-size CSVs of (a) among them), then ``changes`` updates at
    1,000/s, one in ten a full-size CSV's status."""
    now = [1_790_000_000.0]
    store = Store()
    writer = RecordingWriter(str(path), clock=lambda: now[0])
    writer.attach(store)
    full = [installed(c, i) for i, c in enumerate(full_size_csvs())]
    small = [
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "Subscription",
            "metadata": {
                "name": f"sub-{i}",
                "namespace": f"ns-{i % 300:03d}",
                "resourceVersion": "1",
            },
            "spec": {
                "name": f"pkg-{i}",
                "channel": "stable",
                "source": "cat",
                "sourceNamespace": "olm",
            },
            "status": {"state": "AtLatestKnown", "currentCSV": f"pkg-{i}.v1.0.0"},
        }
        for i in range(2000 - len(full))
    ]
    store.apply_many([*full, *small])
    rng = random.Random(2)
    started = time.perf_counter()
    for step in range(changes):
        now[0] += 1 / RATE
        if step % 10 == 0:
            index = rng.randrange(len(full))
            full[index] = status_update(full[index], step, rng)
            store.apply("MODIFIED", full[index])
        else:
            index = rng.randrange(len(small))
            obj = small[index]
            small[index] = {
                **obj,
                "metadata": {**obj["metadata"], "resourceVersion": str(step + 2)},
                "status": {**obj["status"], "lastUpdated": str(step)},
            }
            store.apply("MODIFIED", small[index])
        if step % RATE == RATE - 1:
            writer.tick()
    writer.close()
    print(
        f"(c) wrote {changes} changes in {time.perf_counter() - started:.0f} s: "
        f"{path.stat().st_size / 1e6:.0f} MB"
    )


_JUMPS = """
import random, resource, sys, time
from olmtui.sources.recording.reader import open_recording
started = time.perf_counter()
timeline = open_recording(sys.argv[1])
opened = time.perf_counter() - started
rng = random.Random(3)
worst = 0.0
for _ in range(20):
    count = rng.randrange(len(timeline) + 1)
    started = time.perf_counter()
    timeline.state(count)
    worst = max(worst, time.perf_counter() - started)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{len(timeline)} {opened:.2f} {worst:.3f} {rss:.0f}")
"""


def jumps(path: Path) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", _JUMPS, str(path)], capture_output=True, text=True, check=True
    ).stdout.split()
    count, opened, worst, rss = int(out[0]), float(out[1]), float(out[2]), float(out[3])
    print(
        f"    {count} changes: opened in {opened:.2f} s; state(count) at 20 random positions: "
        f"worst {worst:.3f} s (target <= {JUMP_TARGET}); peak RSS {rss:.0f} MB "
        f"(target <= {RSS_TARGET_MB})"
    )
    return worst, rss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=1_000_000, help="for (c)")
    parser.add_argument("--seconds", type=float, default=10.0, help="for (b), each run")
    parser.add_argument("--updates", type=int, default=20_000, help="for (a)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-record-") as name:
        tmp = Path(name)
        per = bytes_per_modification(tmp, args.updates)
        ratios = cpu_ratios(tmp, args.seconds)
        big = tmp / "big.rec"
        big_recording(big, args.changes)
        worst, rss = jumps(big)
        os.remove(big)
    met = (
        per <= BYTES_TARGET
        and all(r <= CPU_TARGET for r in ratios.values())
        and worst <= JUMP_TARGET
        and rss <= RSS_TARGET_MB
    )
    print("all targets met" if met else "TARGET MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
