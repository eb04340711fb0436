"""Bench for ``olmtui check`` on a large synthetic snapshot (issue 2 §7). A script, not a test.

Generates the snapshot of ``gen_snapshot.py`` into a temporary directory, then, in the same
run and over the same files:

(a) parses them with ``yaml.load_all(bytes, Loader=yaml.CSafeLoader)`` and nothing else;
(b) runs the whole of ``olmtui check --output json`` in-process (load into the store, model,
    health rules, report, JSON text) through ``olmtui.commands.check.check``;

and prints ``check/parse ratio`` (target <= 1.25), then runs ``python -m olmtui check
--output json`` in a subprocess for its peak RSS (target <= 1 GB), and finally times one
incremental change on the loaded store: a modified copied CSV and a modified CSV applied
through ``Store.apply`` until the model has absorbed them (target < 5 ms). In-process times
are CPU seconds of this process (``time.process_time``), so other work on a shared machine
does not skew the ratio; the subprocess is timed by the wall clock.

    python bench/bench_check.py [--keep DIR] [--profile FILE]
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import gc
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_snapshot import GLOBAL_NS, Sizes, generate

from olmtui.cli import build_parser
from olmtui.commands.check import check
from olmtui.model.engine import Model
from olmtui.report import dumps
from olmtui.store import Store

RATIO_TARGET = 1.25
RSS_TARGET_MB = 1024
INCREMENTAL_TARGET_MS = 5.0


def parse_only(files: list[Path]) -> int:
    """(a): the YAML parse of every document, nothing else."""
    documents = 0
    for path in files:
        for _ in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader):
            documents += 1
    return documents


def check_in_process(root: Path) -> tuple[Store, Model, str]:
    """(b): ``olmtui check ROOT --output json`` as the command runs it, printing included."""
    args = build_parser().parse_args(["check", str(root), "--output", "json"])
    checked = check(args)
    text = dumps(checked.report)
    with open(os.devnull, "w") as sink:
        sink.write(text)
    return checked.store, checked.model, text


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of this process: the bench machine is shared, wall time is noise."""
    start = time.process_time()
    result = action()
    return time.process_time() - start, result


def peak_rss_of_check(root: Path) -> tuple[float, float]:
    """Wall time and peak RSS (MB) of ``python -m olmtui check ROOT --output json``."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "olmtui", "check", str(root), "--output", "json"],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    elapsed = time.perf_counter() - start
    # ru_maxrss is in KiB on Linux: the largest child waited for so far (the only one).
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


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
    parser.add_argument("--keep", type=Path, help="generate into DIR and keep it")
    parser.add_argument("--profile", type=Path, help="write a cProfile of (b) to FILE")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-") as tmp:
        root = args.keep or Path(tmp)
        generated = generate(root, Sizes())
        print(
            f"snapshot: {len(generated.files)} files, {generated.bytes / 1e6:.0f} MB, "
            f"{generated.csvs} CSVs, {generated.copies} copied CSVs"
        )
        for path in generated.files:  # warm the page cache so (a) and (b) read alike
            path.read_bytes()

        parse_s, documents = timed(lambda: parse_only(generated.files))
        print(f"(a) parse only (CSafeLoader): {parse_s:.2f} s CPU, {documents} documents")
        # The loader pauses the cyclic GC while it loads; the same parse with it paused
        # shows what check adds on top of the parse alone.
        gc.disable()
        try:
            paused_s, _ = timed(lambda: parse_only(generated.files))
        finally:
            gc.enable()
        print(f"(a') parse only, GC paused: {paused_s:.2f} s CPU")
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        check_s, (store, model, text) = timed(lambda: check_in_process(root))
        if profiler:
            profiler.disable()
            profiler.dump_stats(args.profile)
        print(
            f"(b) check --output json in-process: {check_s:.2f} s CPU, "
            f"report {len(text) / 1e6:.1f} MB, {len(store)} objects cached"
        )
        ratio = check_s / parse_s
        print(
            f"check/parse ratio: {ratio:.3f} (target <= {RATIO_TARGET}); "
            f"against the GC-paused parse: {check_s / paused_s:.3f}"
        )

        sub_s, rss_mb = peak_rss_of_check(root)
        print(
            f"subprocess check: {sub_s:.2f} s wall, peak RSS {rss_mb:.0f} MB "
            f"(target <= {RSS_TARGET_MB} MB)"
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
