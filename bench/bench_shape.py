"""What checking field types where objects enter the cache costs (R-SRC-4).

Feeds the same parsed objects (the generated snapshot: ~20,000 copied CSVs and the rest) into
a fresh Store twice per run, once as it is and once with the type checks replaced by the
identity, alternating, and prints CPU seconds and the ratio checked / unchecked (the bench
machine is shared: only the ratio means anything).

    python bench/bench_shape.py [--runs N] [--namespaces N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_snapshot import Sizes, generate

import olmtui.store as store_module
from olmtui.store import Store

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parsed(directory: Path) -> list[Any]:
    objects: list[Any] = []
    for path in sorted(directory.rglob("*.yaml")):
        for document in yaml.load_all(path.read_bytes(), Loader=Loader):
            if isinstance(document, dict):
                objects.extend(document.get("items") or [document])
    return objects


def feed(objects: list[Any]) -> float:
    started = time.process_time()
    Store().apply_many(objects)
    return time.process_time() - started


def unchecked(objects: list[Any]) -> float:
    checked = (store_module.clean_envelope, store_module.clean)
    store_module.clean_envelope = lambda obj, out: obj  # type: ignore[assignment]
    store_module.clean = lambda kind, obj, out: obj  # type: ignore[assignment]
    try:
        return feed(objects)
    finally:
        store_module.clean_envelope, store_module.clean = checked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        generated = generate(Path(tmp), Sizes(namespaces=args.namespaces))
        objects = parsed(Path(tmp))
    print(f"{len(objects)} objects ({generated.csvs} CSVs, {generated.copies} copies)")
    with_checks, without = [], []
    for _ in range(args.runs):
        without.append(unchecked(objects))
        with_checks.append(feed(objects))
    base, checked = statistics.median(without), statistics.median(with_checks)
    print(f"apply_many without type checks: {base:.3f} s CPU (median of {args.runs})")
    print(f"apply_many with type checks:    {checked:.3f} s CPU")
    print(f"ratio checked / unchecked: {checked / base:.3f}")


if __name__ == "__main__":
    main()
