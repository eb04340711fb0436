"""Bench for ``olmtui check`` on a large synthetic snapshot . A script,
not a test.

Generates the snapshot of ``gen_snapshot.py`` (or reuses ``--keep DIR``), then, in the same
run and over the same files:

(a) parses them with ``yaml.load_all(bytes, Loader=yaml.CSafeLoader)`` and nothing else,
    with the cyclic garbage collector paused as olmtui pauses it (CPU and wall);
(b) runs ``python -m olmtui check --output json`` in a subprocess (olmtui byte-compiled
    first, as installed) through a wrapper that reports the child's own peak RSS
    (``VmHWM`` in the child) and its parse workers' (``RUSAGE_CHILDREN``
    there); its CPU is its own plus its workers' (``RUSAGE_CHILDREN`` here), its wall the
    clock's. Printed as ratios against (a): targets CPU <= 0.2, RSS <= 1 GB;
(c) runs the same check in-process with one worker, timing the copies' fast path
    (``fast_yaml.cut`` and ``copy_of``) and the full parses apart: the scan/parse split;
(d) times ``json.loads`` against msgspec (``fast_json.loads``) on the same objects as a
    ``kubectl get -o json`` List and as watch events;

then times one incremental change on the loaded store: a modified copied CSV and a modified
CSV applied through ``Store.apply`` until the model has absorbed them (target < 5 ms).

``--layouts`` measures the real must-gather layout instead: the same objects
written one file per namespace and one object per file (``gen_snapshot.py --layout
must-gather``), and that must-gather again with ``--pods`` Pods, ``--events`` Events and
``--jobs`` Jobs. For each, (a) (in a fresh process, as (b)) and (b), alternated ``--rounds``
times (3) and the least of each kept (a shared machine's speed drifts by a quarter from one
minute to the next), then their ratio (target <= 0.2 on the must-gather); for the added
Pods/Events/Jobs files, the share of ``check``'s CPU they add against their share of the
bytes and of the bare parse (target: no more than the bytes' share, judged on the median of
the must-gather checked with and without them back to back, ``--rounds`` times), and the
peak RSS.

    python bench/bench_check.py [--namespaces N] [--keep DIR] [--profile FILE]
    python bench/bench_check.py --layouts [--namespaces 300] [--pods 10000] [--events 100000]
"""

from __future__ import annotations

import argparse
import compileall
import copy
import cProfile
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_snapshot import GLOBAL_NS, Extras, Sizes, generate

import olmtui
from olmtui.cli import build_parser
from olmtui.commands.check import check
from olmtui.model.incremental.engine import Model
from olmtui.report import dumps
from olmtui.sources import fast_json
from olmtui.sources.snapshots import fast_yaml, snapshot_documents
from olmtui.store import Store

CPU_TARGET = 0.2
RSS_TARGET_MB = 1024
INCREMENTAL_TARGET_MS = 5.0
#: Run in the child: ``olmtui check``, then its own peak RSS and its workers' on stderr.
#: Its own is ``VmHWM``: ``ru_maxrss`` survives ``execve``, so a child of a bench that had
#: just generated the snapshot in-process reported the generator's peak (430 MB at 1,000
#: namespaces, against ~100 MB its own).
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


def compiled_like_installed() -> None:
    """Byte-compile olmtui as ``pip install`` does before any child runs: where
    ``PYTHONDONTWRITEBYTECODE`` is set (this VM sets it), each ``check`` child compiled
    olmtui's ~300 modules from source again, ~0.25 s of CPU an installed olmtui never pays."""
    compileall.compile_dir(Path(olmtui.__file__).parent, quiet=1)


def snapshot_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.yaml"))


def layouts(args: argparse.Namespace, root: Path) -> None:
    """``--layouts``: the same objects one file per namespace and one object per file, and
    the must-gather with Pods, Events and Jobs, in one run (module docstring)."""
    sizes = Sizes(namespaces=args.namespaces)
    extras = Extras(pods=args.pods, events=args.events, jobs=args.jobs)
    cases = (
        ("one file per namespace", root / "namespace", "namespace", Extras()),
        ("must-gather, one object per file", root / "must-gather", "must-gather", Extras()),
        (
            f"must-gather + {extras.pods:,} Pods, {extras.events:,} Events, {extras.jobs} Jobs",
            root / "must-gather-extras",
            "must-gather",
            extras,
        ),
    )
    measured: list[tuple[float, float, int, list[Path]]] = []
    for label, folder, layout, extra in cases:
        if not folder.exists() or not any(folder.iterdir()):
            generate(folder, sizes, layout=layout, extras=extra)
        files = snapshot_files(folder)
        size = sum(p.stat().st_size for p in files)
        for path in files:  # warm the page cache
            path.read_bytes()
        parses: list[float] = []
        checks: list[tuple[float, float, float, float]] = []
        for _ in range(args.rounds):  # alternated: a slow minute slows both alike
            parse_cpu, documents = parse_in_child(folder)
            parses.append(parse_cpu)
            checks.append(check_in_child(folder))
        parse_cpu = min(parses)
        cpu, wall, rss, workers_rss = min(checks)
        # each round's (b) against its own (a): a machine whose speed drifts between rounds
        # (the least parse went 15.8 to 20.7 s from one run to the next) moves these less
        paired = sorted(c[0] / p for p, c in zip(parses, checks, strict=True))
        print(
            f"{label}: {len(files):,} files, {size / 1e6:.1f} MB, {documents:,} documents\n"
            f"  (a) bare parse {parse_cpu:.2f} s CPU (rounds: {_seconds(parses)}); "
            f"(b) check {cpu:.2f} s CPU with workers, {wall:.2f} s wall "
            f"(rounds: {_seconds(c[0] for c in checks)}); "
            f"**check/parse {cpu / parse_cpu:.3f}** (target <= {CPU_TARGET}, the least of each; "
            f"round by round {' '.join(f'{r:.3f}' for r in paired)}, median "
            f"{statistics.median(paired):.3f}); "
            f"peak RSS {rss:.0f} MB, workers {workers_rss:.0f} MB each at most"
        )
        measured.append((parse_cpu, cpu, size, files))
    (base_parse, base_check, base_size, _), (parse, cpu, size, files) = measured[1:]
    # the must-gather's check with and without the added files back to back, round by
    # round: the least of each above comes from rounds minutes apart, and a machine whose
    # speed drifts by a fifth between them moved the share from 0.24 to 0.51 run to run
    (_, base_folder, _, _), (_, added_folder, _, _) = cases[1:]
    shares = []
    for _ in range(args.rounds):
        without = check_in_child(base_folder)[0]
        with_added = check_in_child(added_folder)[0]
        shares.append((with_added - without) / with_added)
    shares.sort()
    added_bytes = size - base_size
    extra_files = [p for p in files if p.name in ("pods.yaml", "events.yaml", "jobs.yaml")]
    extra_parse, _, _ = timed(paused(lambda: parse_only(extra_files)))
    print(
        f"Pods/Events/Jobs: {added_bytes / 1e6:.1f} MB added = {added_bytes / size:.3f} of the "
        f"bytes; the bare parse of their files {extra_parse:.2f} s CPU = "
        f"{extra_parse / parse:.3f} of the parse; check's CPU grew {cpu - base_check:+.2f} s = "
        f"{(cpu - base_check) / cpu:.3f} of check's CPU (the least of each); the two checks "
        f"back to back, round by round {' '.join(f'{r:.3f}' for r in shares)}, **median "
        f"{statistics.median(shares):.3f}** (target <= {added_bytes / size:.3f}, the bytes' "
        f"share); the parse grew {parse / base_parse:.2f}x"
    )


def _seconds(values: Iterable[float]) -> str:
    return " ".join(f"{v:.2f}" for v in values)


#: (a) in a fresh process, as (b) runs: in the bench's own process the must-gather's bare
#: parse took 16.0 to 26.3 s from one round to the next (what the bench had allocated before),
#: in a fresh one 21.1 to 22.3 s.
PARSE_CHILD = """
import gc, sys, yaml
from pathlib import Path
gc.disable()
documents = 0
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    for _ in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader):
        documents += 1
print(documents)
"""


def parse_in_child(root: Path) -> tuple[float, int]:
    """(a) of ``--layouts``: CPU seconds of the bare parse of every file in a child process,
    and the documents it read."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", PARSE_CHILD, str(root)],
        capture_output=True,
        check=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, int(done.stdout)


def parse_only(files: list[Path]) -> int:
    """(a): the YAML parse of every document, nothing else."""
    documents = 0
    for path in files:
        for _ in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader):
            documents += 1
    return documents


def timed(action: Callable[[], Any]) -> tuple[float, float, Any]:
    """CPU seconds of this process and wall seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def paused(action: Callable[[], Any]) -> Callable[[], Any]:
    """The action with the cyclic collector paused, as olmtui's loader runs."""

    def run() -> Any:
        gc.disable()
        try:
            return action()
        finally:
            gc.enable()

    return run


def check_in_child(root: Path) -> tuple[float, float, float, float]:
    """(b): CPU (the child and its workers), wall, and the child's and its workers' peak
    RSS (MB) of ``python -m olmtui check ROOT --output json``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "check", str(root), "--output", "json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = next(x for x in reversed(done.stderr.splitlines()) if x.startswith("RSS "))
    self_kb, workers_kb = json.loads(line[4:])
    return cpu, wall, self_kb / 1024, workers_kb / 1024


class Split:
    """CPU seconds in the copies' fast path (its scan and its section parses) and in full
    parses of the other documents, counted while (c) runs."""

    def __init__(self) -> None:
        self.fast_s = 0.0
        self.fast_n = 0
        self.full_s = 0.0
        self.full_n = 0

    @contextmanager
    def counting(self) -> Iterator[None]:
        cut, copy_of, load = fast_yaml.cut, fast_yaml.copy_of, snapshot_documents.load_yaml

        def timed_cut(chunk: bytes) -> Any:
            start = time.process_time()
            try:
                return cut(chunk)
            finally:
                self.fast_s += time.process_time() - start

        def timed_copy_of(document_cut: Any, _: Any, whole_problem: Any = None) -> Any:
            start = time.process_time()  # its sections: the untimed load
            try:
                return copy_of(document_cut, load, whole_problem)
            finally:
                self.fast_s += time.process_time() - start
                self.fast_n += 1

        def timed_load(chunk: bytes) -> Any:
            start = time.process_time()
            try:
                return load(chunk)
            finally:
                self.full_s += time.process_time() - start
                self.full_n += 1

        fast_yaml.cut, fast_yaml.copy_of = timed_cut, timed_copy_of
        snapshot_documents.load_yaml = timed_load
        try:
            yield
        finally:
            fast_yaml.cut, fast_yaml.copy_of = cut, copy_of
            snapshot_documents.load_yaml = load


def check_in_process(root: Path) -> tuple[Store, Model, str]:
    """(c): ``olmtui check ROOT --output json`` as the command runs it, printing included,
    parsing in this process (one worker) so that the split is all counted here."""
    from olmtui.sources.snapshots import parallel_load

    workers = parallel_load.worker_count
    parallel_load.worker_count = lambda: 1
    try:
        args = build_parser().parse_args(["check", str(root), "--output", "json"])
        checked = check(args)
    finally:
        parallel_load.worker_count = workers
    text = dumps(checked.report)
    with open(os.devnull, "w") as sink:
        sink.write(text)
    return checked.store, checked.model, text


def json_texts(files: list[Path], limit: int = 40) -> tuple[bytes, list[bytes]]:
    """The objects of the first files as one ``kubectl get -o json`` List (indent 4) and
    as watch events (one compact line each)."""
    objects = [
        doc
        for path in files[:limit]
        for doc in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader)
        if doc
    ]
    listed = json.dumps({"kind": "List", "items": objects}, indent=4, default=str).encode()
    events = [json.dumps({"type": "ADDED", "object": o}, default=str).encode() for o in objects]
    return listed, events


def json_ratios(files: list[Path]) -> tuple[float, float]:
    """(d): msgspec's CPU over json.loads' for the List and for the events, GC paused.

    Each is run once untimed, then the two alternate: in a process that holds a large store
    (after (c)), whichever ran first paid for fresh memory pages (1.10-1.30 for the List
    with msgspec first, 0.76-0.79 in a fresh process)."""
    listed, events = json_texts(files)

    def each(load: Callable[[bytes], Any], texts: list[bytes], rounds: int) -> float:
        cpu, _, _ = timed(paused(lambda: [load(t) for _ in range(rounds) for t in texts]))
        return cpu

    def ratio(texts: list[bytes], rounds: int) -> float:
        each(fast_json.loads, texts, 1), each(json.loads, texts, 1)
        fast = slow = 0.0
        for _ in range(3):
            fast += each(fast_json.loads, texts, rounds)
            slow += each(json.loads, texts, rounds)
        return fast / slow

    return ratio([listed], 5), ratio(events, 5)


def incremental(
    store: Store, model: Model, copy_key: tuple[str, str], csv_key: tuple[str, str], run: int
) -> float:
    """CPU seconds for one modified copy and one modified CSV to pass through store and model,
    including rebuilding the lists a reader asks for next. ``run`` varies the change so
    that every call really modifies both objects."""
    copied = copy.deepcopy(store.get("ClusterServiceVersion", *copy_key))
    parent = copy.deepcopy(store.get("ClusterServiceVersion", *csv_key))
    assert copied is not None and parent is not None
    phase, reason = (
        ("Installing", "InstallWaiting") if run % 2 == 0 else ("Succeeded", "InstallSucceeded")
    )
    copied["metadata"]["resourceVersion"] = str(100 + run)
    copied["status"]["phase"] = phase
    parent["metadata"]["resourceVersion"] = str(100 + run)
    parent["status"] = {**parent["status"], "phase": phase, "reason": reason}
    start = time.process_time()
    changed = [store.apply("MODIFIED", copied), store.apply("MODIFIED", parent)]
    model.findings()
    model.csvs()
    model.copied_csvs()
    elapsed = time.process_time() - start
    assert all(changed), "both objects must really change"
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    parser.add_argument("--keep", type=Path, help="generate into DIR (reused if there)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of (c) to FILE")
    parser.add_argument("--layouts", action="store_true", help="the must-gather layout (above)")
    parser.add_argument("--pods", type=int, default=10_000, help="with --layouts")
    parser.add_argument("--events", type=int, default=100_000, help="with --layouts")
    parser.add_argument("--jobs", type=int, default=50, help="with --layouts")
    parser.add_argument(
        "--rounds", type=int, default=3, help="with --layouts: (a) and (b) alternated, least kept"
    )
    args = parser.parse_args(argv)
    compiled_like_installed()
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-") as tmp:
        root = args.keep or Path(tmp)
        if args.layouts:
            layouts(args, root)
            return 0
        if not root.exists() or not any(root.iterdir()):
            generate(root, Sizes(namespaces=args.namespaces))
        files = snapshot_files(root)
        size = sum(p.stat().st_size for p in files)
        print(f"snapshot: {root}, {len(files)} files, {size / 1e6:.0f} MB")
        for path in files:  # warm the page cache so (a), (b) and (c) read alike
            path.read_bytes()

        parse_cpu, parse_wall, documents = timed(paused(lambda: parse_only(files)))
        print(
            f"(a) parse only (CSafeLoader, GC paused): {parse_cpu:.2f} s CPU, "
            f"{parse_wall:.2f} s wall, {documents} documents"
        )
        cpu, wall, rss, workers_rss = check_in_child(root)
        print(
            f"(b) check --output json, subprocess: {cpu:.2f} s CPU (with its workers), "
            f"{wall:.2f} s wall; peak RSS {rss:.0f} MB, workers {workers_rss:.0f} MB each at most"
        )
        print(
            f"    CPU/parse CPU {cpu / parse_cpu:.3f} (target <= {CPU_TARGET}), "
            f"wall/parse wall {wall / parse_wall:.3f}, wall/parse CPU {wall / parse_cpu:.3f}; "
            f"RSS {'within' if rss <= RSS_TARGET_MB else 'OVER'} {RSS_TARGET_MB} MB"
        )

        split = Split()
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        with split.counting():
            check_s, _, (store, model, text) = timed(lambda: check_in_process(root))
        if profiler:
            profiler.disable()
            profiler.dump_stats(args.profile)
        rest = check_s - split.fast_s - split.full_s
        print(
            f"(c) check --output json in-process, one worker: {check_s:.2f} s CPU "
            f"({check_s / parse_cpu:.3f} of the parse), report {len(text) / 1e6:.1f} MB, "
            f"{len(store)} objects cached"
        )
        print(
            f"    split: fast path (scan, copies' sections) {split.fast_s:.2f} s "
            f"({split.fast_n} documents), full parses {split.full_s:.2f} s "
            f"({split.full_n} documents), the rest (store, model, report) {rest:.2f} s"
        )
        list_ratio, event_ratio = json_ratios(files)
        print(
            f"(d) msgspec/json.loads CPU: {list_ratio:.2f} for a kubectl List, "
            f"{event_ratio:.2f} for watch events"
        )

        copy_key = ("app-0001", "global-op-01.v0.9.4")
        single = ("team-0001", "team-op-0001.v0.9.4")
        global_parent = (GLOBAL_NS, "global-op-02.v0.9.4")
        for label, key in (("single-namespace CSV", single), ("AllNamespaces CSV", global_parent)):
            runs = sorted(incremental(store, model, copy_key, key, run) * 1000 for run in range(11))
            print(
                f"incremental (1 copy + 1 {label}): median {runs[5]:.2f} ms CPU, "
                f"best {runs[0]:.2f}, worst {runs[-1]:.2f} (target < {INCREMENTAL_TARGET_MS} ms)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
