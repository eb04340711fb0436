"""Bench: ``check --output json`` and the dashboard's first screen at 60k and 200k copies,
against the bare parse of the same files in the same run. A script, not a test.

For each size (``--namespaces``, default 3,000 then 10,000, with 20 AllNamespaces operators:
~60,000 and ~200,000 copied CSVs) it generates the ``gen_snapshot.py`` cluster, then runs
three child processes, one at a time, and reads each one's own CPU time and peak RSS
(``getrusage(RUSAGE_SELF)`` and ``VmHWM`` in the child, so one child's peak does not hide
the next):

(a) the bare parse: ``yaml.load_all(bytes, Loader=yaml.CSafeLoader)`` of every file, with the
    cyclic GC paused as olmtui's loader pauses it (as ``bench_check.py``'s (a'));
(b) ``olmtui check DIR --output json`` (``olmtui.cli.main``, output to /dev/null);
(c) the dashboard: the snapshot session, then the app's Overview mounted headless
    (``run_test``) until its first refresh is done.

It prints the CPU seconds and RSS of each, (b)/(a) (target <= 1.25), (c)/(a) (target <= 2),
and RSS (target <= 2 GB at 200k copies), then deletes the generated files.

    python bench/bench_scale.py [--namespaces 3000 10000] [--snapshot-root DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_snapshot import Sizes, generate

CHECK_RATIO_TARGET = 1.25
SCREEN_RATIO_TARGET = 2.0
RSS_TARGET_MB = 2048

#: Peak RSS from VmHWM: Linux keeps ru_maxrss across execve, so a child's getrusage reports
#: the parent's peak (the generator's) whenever that is higher; VmHWM starts afresh.
_REPORT = """
import json, resource, sys, time
def report(extra):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open("/proc/self/status") as status:
        hwm = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    json.dump({"cpu": usage.ru_utime + usage.ru_stime, "rss_mb": hwm / 1024, **extra},
              sys.stderr)
"""
PARSE = (
    _REPORT
    + """
import gc, pathlib, yaml
root = pathlib.Path(sys.argv[1])
gc.disable()
documents = sum(1 for p in sorted(root.rglob("*.yaml"))
                for _ in yaml.load_all(p.read_bytes(), Loader=yaml.CSafeLoader))
report({"documents": documents})
"""
)
CHECK = (
    _REPORT
    + """
import contextlib, os
from olmtui.cli import main
with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
    code = main(["check", sys.argv[1], "--output", "json"])
report({"exit": code})
"""
)
SCREEN = (
    _REPORT
    + """
import asyncio
from olmtui.ui.app import OlmApp
from olmtui.pipeline.build import snapshot_session

async def first_screen():
    session = snapshot_session([sys.argv[1]])
    app = OlmApp(session, initial_view="overview")
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        return len(session.analysis.all_findings())

report({"findings": asyncio.run(first_screen())})
"""
)


def child(script: str, root: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", script, str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    last = done.stderr.strip().splitlines()[-1]
    figures: dict[str, float] = json.loads(last[last.index("{") :])
    return figures


def run(namespaces: int, base: Path) -> None:
    root = base / f"scale-{namespaces}"
    try:
        generated = generate(root, Sizes(namespaces=namespaces))
        print(
            f"{namespaces} namespaces: {len(generated.files)} files, "
            f"{generated.bytes / 1e9:.2f} GB, {generated.csvs} CSVs, {generated.copies} copies",
            flush=True,
        )
        parse = child(PARSE, root)
        print(f"  (a) parse: {parse['cpu']:.1f} s CPU, RSS {parse['rss_mb']:.0f} MB", flush=True)
        check = child(CHECK, root)
        print(
            f"  (b) check --output json: {check['cpu']:.1f} s CPU, RSS {check['rss_mb']:.0f} MB; "
            f"check/parse {check['cpu'] / parse['cpu']:.3f} (target <= {CHECK_RATIO_TARGET})",
            flush=True,
        )
        screen = child(SCREEN, root)
        print(
            f"  (c) first screen: {screen['cpu']:.1f} s CPU, RSS {screen['rss_mb']:.0f} MB; "
            f"screen/parse {screen['cpu'] / parse['cpu']:.3f} (target <= {SCREEN_RATIO_TARGET}),"
            f" {screen['findings']:.0f} findings",
            flush=True,
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, nargs="+", default=[3000, 10000])
    parser.add_argument("--snapshot-root", type=Path, help="generate under DIR (default /tmp)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="olmtui-scale-", dir=args.snapshot_root) as tmp:
        for namespaces in args.namespaces:
            run(namespaces, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
