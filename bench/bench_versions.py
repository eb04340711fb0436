"""Bench for the version type on its hot paths. A script, not a test.

The versions and skipRanges are every ``version`` and ``olm.skipRange`` written in the
catalogs of tests/data/catalogs (CSVs, FBC bundles), each repeated to ``--count`` items. Timed,
best of ``--repeat`` runs, in CPU time: parsing each version (blang, R-SEM-1); sorting them by
``version_key`` (R-SEM-6, how bundle directories and PackageManifest entries are ordered);
parsing each skipRange (R-SEM-2..5) and asking each of it for 100 versions; and OLM v1's
Masterminds constraints (R-V1-12) asked of the same versions. Prints microseconds per item.

    python bench/bench_versions.py [--count 20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import contextlib
import re
import time
from collections.abc import Callable
from pathlib import Path

from olmtui.model.primitives.semver_range import parse_range
from olmtui.model.primitives.version import parse_version, version_key
from olmtui.model.rules.v1.versions import parse_constraint

CATALOGS = Path(__file__).resolve().parent.parent / "tests/data/catalogs"
#: ``version: 1.2.3`` (CSV spec, FBC olm.package) and ``olm.skipRange: '>=1.0.0 <1.2.3'``.
VERSION = re.compile(r"""^\s*"?version"?:\s*["']?([0-9]+\.[0-9]+\.[0-9][0-9A-Za-z.+-]*)""", re.M)
SKIP_RANGE = re.compile(r"""olm\.skipRange"?:\s*["']([^"'\n]+)["']""")
CONSTRAINTS = [">=1.0.0", ">=1.2, <3.0", "~1.4", "^0.9.1 || 2.x", "1.0.0 - 2.5.0"]


def corpus(count: int) -> tuple[list[str], list[str]]:
    """The versions and skipRanges found in the catalogs, each list repeated to ``count``."""
    versions: list[str] = []
    ranges: list[str] = []
    for path in sorted(CATALOGS.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        versions += VERSION.findall(text)
        ranges += SKIP_RANGE.findall(text)
    return (versions * (count // len(versions) + 1))[:count], (
        ranges * (count // 10 // len(ranges) + 1)
    )[: count // 10]


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The least CPU time of ``repeat`` runs (CPU time: the bench machine is shared)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts, range_texts = corpus(args.count)
    parsed = [v for v in map(parse_version, texts) if v is not None]
    probes = parsed[:100]
    ranges = []
    for text in range_texts:
        with contextlib.suppress(ValueError):
            ranges.append(parse_range(text))
    constraints = [parse_constraint(c) for c in CONSTRAINTS] * (len(ranges) // 5 or 1)
    print(f"{len(texts)} versions ({len(parsed)} parse), {len(range_texts)} skipRanges")
    timings = {
        "parse a version": (best_of(args.repeat, lambda: list(map(parse_version, texts))), texts),
        "sort by version_key": (
            best_of(args.repeat, lambda: sorted(texts, key=version_key)),
            texts,
        ),
        "parse a skipRange": (
            best_of(args.repeat, lambda: list(map(parse_range, range_texts)))
            if len(ranges) == len(range_texts)
            else float("nan"),
            range_texts,
        ),
        "skipRange x 100 versions": (
            best_of(args.repeat, lambda: [r.contains(v) for r in ranges for v in probes]),
            ranges,
        ),
        "constraint x 100 versions": (
            best_of(args.repeat, lambda: [c.contains(v) for c in constraints for v in probes]),
            constraints,
        ),
    }
    for name, (seconds, items) in timings.items():
        print(f"{name:28} {seconds * 1e6 / max(len(items), 1):8.2f} us per item ({seconds:.3f} s)")


if __name__ == "__main__":
    main()
