"""Bench for ``olmtui check --fleet``. A script, not a test; ratios in one run.

(a) Snapshots: one synthetic must-gather of ``--namespaces`` namespaces
    (``gen_snapshot.py --layout must-gather``) hard-linked ``--targets`` times into one folder
    (a folder of must-gathers: one target each). The sum of ``--targets`` single
    ``python -m olmtui check TARGET --output json`` runs' wall time, one after another, against
    one ``check --fleet FOLDER --jobs 2 --output json`` run between their two halves (so a
    change in the machine's load weighs on both alike): target ratio <= 0.6.
(b) Live: ``--contexts`` loopback API servers (the sample cluster each, all on one event loop
    in a child process), one kubeconfig with a context for each; ``check --fleet
    --all-contexts`` in a child whose peak RSS (``VmHWM``) and its workers' are read at its
    end: target <= 1.5 GB.
(c) A dead target: a socket that accepts and never answers, beside one healthy cluster, with
    ``--connect-timeout``; the fleet with it against the fleet without it: it may cost no
    more than its timeout.

    python bench/bench_fleet.py [--namespaces 300] [--targets 50] [--contexts 100] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_support import children_cpu
from gen_snapshot import Sizes, generate

import olmtui
from olmtui.apiserver import LoopbackAPIServer
from olmtui.apiserver.kubeconfig import kubeconfig, write_kubeconfig

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "olmtui" / "samples" / "cluster.yaml"
RATIO_TARGET = 0.6
RSS_TARGET_MB = 1536
#: Run in the child: the CLI, then its own peak RSS and its workers' on stderr (``VmHWM``:
#: ``ru_maxrss`` survives ``execve``, see ``bench_check.py``).
CHILD = """
import json, resource, sys
from olmtui.cli import main
try:
    code = main(sys.argv[1:])
finally:
    with open("/proc/self/status") as status:
        self_kb = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    workers_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    sys.stderr.write("\\nRSS " + json.dumps([self_kb, workers_kb]) + "\\n")
raise SystemExit(code)
"""


def olmtui_run(*argv: str | Path) -> tuple[float, int, str, list[int]]:
    """``olmtui ARGV`` in a child, stdout dropped: wall seconds, exit status, stderr, and the
    child's peak RSS and its workers' (KiB)."""
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *map(str, argv)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    wall = time.perf_counter() - began
    rss = [0, 0]
    for line in done.stderr.splitlines():
        if line.startswith("RSS "):
            rss = json.loads(line[4:])
    return wall, done.returncode, done.stderr, rss


# -- (a) snapshots ----------------------------------------------------------------------------
def snapshot_fleet(root: Path, namespaces: int, targets: int) -> Path:
    """``targets`` copies (hard links) of one must-gather of ``namespaces`` namespaces."""
    one = root / "one"
    if not one.exists():
        singles = min(namespaces // 3, 300)
        generate(
            one,
            Sizes(namespaces=namespaces, single_operators=singles, subscriptions=singles + 50),
            layout="must-gather",
        )
    folder = root / f"fleet-{targets}"
    for n in range(targets):
        target = folder / f"cluster-{n:03d}"
        if target.exists():
            continue
        for path in one.rglob("*"):
            copy = target / path.relative_to(one)
            if path.is_dir():
                copy.mkdir(parents=True, exist_ok=True)
            else:
                copy.parent.mkdir(parents=True, exist_ok=True)
                os.link(path, copy)
    return folder


def single_checks(members: list[Path], first: int, targets: int) -> tuple[float, float]:
    """``check MEMBER`` for each member, one after another: their wall and CPU seconds."""
    wall_sum = 0.0
    cpu = children_cpu()
    for n, member in enumerate(members, first):
        wall, code, err, _ = olmtui_run("check", member, "--output", "json")
        assert code in (0, 1), err
        wall_sum += wall
        print(f"    single check {n}/{targets}: {wall:.2f} s", end="\r", flush=True)
    return wall_sum, children_cpu() - cpu


def bench_snapshots(root: Path, namespaces: int, targets: int) -> bool:
    folder = snapshot_fleet(root, namespaces, targets)
    members = sorted(p for p in folder.iterdir() if p.is_dir())
    print(f"(a) {targets} must-gathers of {namespaces} namespaces each")
    # interleaved: half the single checks, the fleet, the other half, so that the load other
    # processes put on the machine drifts over both sides alike
    half = len(members) // 2
    singles, singles_cpu = single_checks(members[:half], 1, targets)
    cpu = children_cpu()
    fleet, code, err, rss = olmtui_run(
        "check", "--fleet", folder, "--jobs", "2", "--output", "json"
    )
    fleet_cpu = children_cpu() - cpu
    assert code in (0, 1), err
    more, more_cpu = single_checks(members[half:], half + 1, targets)
    singles += more
    singles_cpu += more_cpu
    ratio = fleet / singles
    print(
        f"    sum of {targets} single checks: {singles:.1f} s wall, {singles_cpu:.1f} s CPU"
        + " " * 20
    )
    print(
        f"    check --fleet --jobs 2:        {fleet:.1f} s wall, {fleet_cpu:.1f} s CPU, "
        f"peak RSS {rss[0] / 1024:.0f} MB "
        f"(workers {rss[1] / 1024:.0f} MB)"
    )
    print(
        f"    CPU ratio {fleet_cpu / singles_cpu:.2f}; wall ratio {ratio:.2f} (target <= "
        f"{RATIO_TARGET}); load average {os.getloadavg()[0]:.1f}"
    )
    return ratio <= RATIO_TARGET


# -- (b) live -------------------------------------------------------------------------------
def serve_many(conn: Connection, count: int) -> None:
    """``count`` loopback servers of the sample cluster on one loop; their URLs, then wait."""

    async def main() -> None:
        objects = [o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o]
        servers = []
        for _ in range(count):
            server = LoopbackAPIServer(bookmark_interval=60.0)
            server.state.load(objects, skip_unknown=True)
            servers.append(server)
        urls = [await s.start() for s in servers]
        conn.send(urls)
        await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        for server in servers:
            await server.stop()

    asyncio.run(main())


def many_contexts(path: Path, urls: list[str]) -> Path:
    """One kubeconfig with a context per server (``cluster-NNN``)."""
    documents = [kubeconfig(url, context=f"cluster-{n:03d}") for n, url in enumerate(urls)]
    merged = documents[0]
    for key in ("clusters", "users", "contexts"):
        merged[key] = [entry for d in documents for entry in d[key]]
    for n, user in enumerate(merged["users"]):
        user["name"] = f"user-{n:03d}"
    for n, context in enumerate(merged["contexts"]):
        context["context"]["user"] = f"user-{n:03d}"
    path.write_text(yaml.safe_dump(merged))
    path.chmod(0o600)
    return path


def bench_live(root: Path, contexts: int) -> bool:
    ours, theirs = multiprocessing.Pipe()
    child = multiprocessing.get_context("spawn").Process(
        target=serve_many, args=(theirs, contexts), daemon=True
    )
    child.start()
    urls = ours.recv()
    config = many_contexts(root / "many.kubeconfig", urls)
    try:
        wall, code, err, rss = olmtui_run(
            "check", "--fleet", "--all-contexts", "--kubeconfig", config, "--output", "json"
        )
    finally:
        ours.send("stop")
        child.join(30)
    assert code in (0, 1), err[-2000:]
    peak = (rss[0] + rss[1]) / 1024
    print(
        f"(b) {contexts} live contexts: {wall:.1f} s wall, peak RSS {peak:.0f} MB "
        f"(target <= {RSS_TARGET_MB} MB)"
    )
    return peak <= RSS_TARGET_MB


# -- (c) a dead target ----------------------------------------------------------------------
def bench_dead(root: Path, timeout: float) -> bool:
    ours, theirs = multiprocessing.Pipe()
    child = multiprocessing.get_context("spawn").Process(
        target=serve_many, args=(theirs, 1), daemon=True
    )
    child.start()
    (url,) = ours.recv()
    healthy = write_kubeconfig(root / "healthy.kubeconfig", url, context="healthy")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        dead = write_kubeconfig(
            root / "dead.kubeconfig",
            f"http://127.0.0.1:{listener.getsockname()[1]}",
            context="dead",
        )
        flags = ["--connect-timeout", f"{timeout:g}s", "--output", "json"]
        alone, code, err, _ = olmtui_run("check", "--fleet", "--kubeconfig", healthy, *flags)
        assert code in (0, 1), err
        both, code, err, _ = olmtui_run(
            "check", "--fleet", "--kubeconfig", healthy, "--kubeconfig", dead, *flags
        )
        assert code == 4, err
        print("    " + "\n    ".join(line for line in err.splitlines() if "fleet [" in line))
    ours.send("stop")
    child.join(30)
    cost = both - alone
    print(
        f"(c) a dead target with --connect-timeout {timeout:g}s costs {cost:.2f} s "
        f"({alone:.2f} s without it, {both:.2f} s with it; target <= {timeout:g} s)"
    )
    return cost <= timeout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--namespaces", type=int, default=300)
    parser.add_argument("--targets", type=int, default=50)
    parser.add_argument("--contexts", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=3.0, help="(c)'s --connect-timeout")
    parser.add_argument("--keep", type=Path, help="generate into (and reuse) this folder")
    parser.add_argument("--only", choices=("snapshots", "live", "dead"), action="append")
    args = parser.parse_args()
    compileall.compile_dir(Path(olmtui.__file__).parent, quiet=1)  # as installed
    parts = args.only or ["snapshots", "live", "dead"]
    with tempfile.TemporaryDirectory(prefix="olmtui-fleet-") as scratch:
        root = args.keep or Path(scratch)
        root.mkdir(parents=True, exist_ok=True)
        met = []
        if "snapshots" in parts:
            met.append(bench_snapshots(root, args.namespaces, args.targets))
        if "live" in parts:
            met.append(bench_live(root, args.contexts))
        if "dead" in parts:
            met.append(bench_dead(root, args.timeout))
    print("all targets met" if all(met) else "a target was missed")
    return 0 if all(met) else 1


if __name__ == "__main__":
    raise SystemExit(main())
