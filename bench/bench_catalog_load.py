"""Bench for reading catalogs with ``load_catalog``. A script, not a test.

Times (best of ``--repeat``) the load of keycloak-operator (119 bundle-format CSVs, the
target being well under a second), of the whole community-operators-prod checkout and of the
descheduler v4.16 JSON FBC (base64 ``olm.bundle.object`` manifests), and prints each against
a plain libyaml parse of the same CSV files, and keycloak against the one-second target.
The catalogs are the copies in tests/data, whose CSVs are already slimmed (tests/data/SOURCES.md):
times are lower than on a published checkout, the plain parse baseline most of all.

    python bench/bench_catalog_load.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from olmtui.sources.catalog.catalogs import load_catalog

CATALOGS = Path(__file__).resolve().parent.parent / "tests/data/catalogs"
PROD = CATALOGS / "community-operators-prod"
TARGET_S = 1.0


def best_of(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def plain_parse(root: Path) -> Callable[[], None]:
    """Parse every CSV under ``root`` whole with libyaml: the naive baseline."""
    files = [p.read_bytes() for p in sorted(root.rglob("*.clusterserviceversion.yaml"))]

    def parse() -> None:
        for data in files:
            yaml.load(data, Loader=yaml.CSafeLoader)

    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cases = [
        ("keycloak-operator", PROD / "operators" / "keycloak-operator"),
        ("community-operators-prod", PROD),
        ("descheduler v4.16 (JSON FBC)", CATALOGS / "cluster-kube-descheduler-operator/v4.16"),
    ]
    for label, path in cases:
        loaded = best_of(args.repeat, lambda p=path: load_catalog(str(p)))
        baseline = best_of(args.repeat, plain_parse(path))
        ratio = f"{loaded / baseline:.2f}x plain CSV parse" if baseline > 0.001 else "no CSVs"
        print(f"{label:32} {loaded * 1000:8.1f} ms   {ratio}")
        if label == "keycloak-operator":
            print(f"{'':32} {loaded / TARGET_S:8.2f} of the {TARGET_S:.0f} s target")


if __name__ == "__main__":
    main()
