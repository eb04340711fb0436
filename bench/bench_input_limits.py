"""What the input limits cost on a realistic snapshot: the checks that run on every
YAML document before and after it is parsed, against the parse itself.

``input_limits.yaml_nesting`` bounds each document's nesting from its bytes (two
``bytes.count``, one ``translate`` and a ``find``) and ``whole_value_check`` walks the loaded
value only when the bytes say it may be deep or hold aliases. Prints CPU seconds and the ratios
(the machine is shared: the ratio is the figure).

    python bench/bench_input_limits.py [--keep DIR] [--namespaces N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_snapshot import Sizes, generate

from olmtui.sources.input_limits import whole_value_check, yaml_nesting
from olmtui.sources.snapshots.snapshot_documents import _SEPARATOR_AFTER_LF, YamlLoader


def documents(directory: Path) -> list[bytes]:
    """Every YAML document of the snapshot, cut as the loader cuts them."""
    chunks: list[bytes] = []
    for path in sorted(directory.rglob("*.yaml")):
        data = path.read_bytes()
        starts = [0, *(m.start() + 1 for m in _SEPARATOR_AFTER_LF.finditer(data)), len(data)]
        chunks += [data[a:b] for a, b in pairwise(starts)]
    return chunks


def bench(directory: Path) -> None:
    chunks = documents(directory)
    started = time.process_time()
    values = [yaml.load(chunk, Loader=YamlLoader) for chunk in chunks]
    parse = time.process_time() - started
    started = time.process_time()
    nestings = [yaml_nesting(chunk) for chunk in chunks]
    bound = time.process_time() - started
    started = time.process_time()
    checks = [whole_value_check(c, n) for c, n in zip(chunks, nestings, strict=True)]
    problems = [check(v) for v, check in zip(values, checks, strict=True) if check is not None]
    walk = time.process_time() - started
    size = sum(map(len, chunks)) / (1 << 20)
    print(f"{len(chunks)} documents, {size:.0f} MiB of YAML")
    print(f"parse (CSafeLoader, one document at a time): {parse:.2f} s CPU")
    print(f"nesting bound from the bytes: {bound:.3f} s CPU, ratio {bound / parse:.4f}")
    print(f"walks (aliases or maybe deep): {walk:.3f} s CPU, ratio {walk / parse:.4f}")
    print(
        f"documents measured after loading: {sum(n.measure for n in nestings)}, "
        f"refused: {sum(p is not None for p in problems)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="generate into (or reuse) this directory")
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    args = parser.parse_args()
    sizes = Sizes(namespaces=args.namespaces)
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
