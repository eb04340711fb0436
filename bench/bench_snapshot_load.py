"""Time ``load_snapshot`` against merely parsing the same files with libyaml.

The loader's budget is the parse itself: splitting, validation, counting and feeding the
store should add little on top. Prints CPU seconds (the bench machine is shared) and the
ratio load / parse.

    python bench/bench_snapshot_load.py [--keep DIR] [--namespaces N ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_snapshot import Sizes, generate

from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_only(files: list[Path]) -> int:
    documents = 0
    for path in files:
        for _ in yaml.load_all(path.read_bytes(), Loader=Loader):
            documents += 1
    return documents


def bench(directory: Path) -> None:
    files = sorted(p for p in directory.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
    started = time.process_time()
    documents = parse_only(files)
    parse = time.process_time() - started
    started = time.process_time()
    result = load_snapshot([directory], Store())
    load = time.process_time() - started
    print(f"{len(files)} files, {documents} documents, {result.objects} objects loaded")
    print(f"parse only (CSafeLoader load_all): {parse:.2f} s CPU")
    print(f"load_snapshot into the store:      {load:.2f} s CPU")
    print(f"ratio load / parse: {load / parse:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="generate into (or reuse) this directory")
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    parser.add_argument("--global-operators", type=int, default=Sizes.global_operators)
    args = parser.parse_args()
    sizes = Sizes(namespaces=args.namespaces, global_operators=args.global_operators)
    if args.keep is not None:
        if not args.keep.exists():
            generate(args.keep, sizes)
        bench(args.keep)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp), sizes)
        bench(Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
