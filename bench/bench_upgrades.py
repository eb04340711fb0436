"""Bench for upgrade resolution over every catalog in tests/data/catalogs. A script,
not a test.

For every package channel: the channel order (R-UPG-1), the catalog validation (R-UPG-7),
then the next bundle and the whole path (R-UPG-2, R-UPG-5) with every entry of the channel
taken in turn as the installed CSV. Loading the catalogs is not timed. Prints the time per
channel (best of ``--repeat`` runs), the slowest channels, the keycloak-operator package in
total (119 bundles) and its ratio to the 20 ms target.

    python bench/bench_upgrades.py [--repeat N] [--all]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from olmtui.model.records.catalog import Catalog, Channel, Package
from olmtui.model.rules.upgrades.graph import UpgradeGraph, channel_order, validate_channel
from olmtui.sources.catalog.catalogs import load_catalog

CATALOGS = Path(__file__).resolve().parent.parent / "tests/data/catalogs"
TARGET_MS = 20.0
TARGET_PACKAGE = "keycloak-operator"


def catalog_specs() -> list[str]:
    """One spec per catalog as it is published: each bundle-format or legacy package
    directory, each rendered FBC, each OLM e2e fixture file."""
    prod = CATALOGS / "community-operators-prod"
    specs = [str(p) for p in sorted((prod / "operators").iterdir()) if p.is_dir()]
    specs += [str(p) for p in sorted((prod / "catalogs" / "v4.20").iterdir()) if p.is_dir()]
    legacy = CATALOGS / "community-operators" / "upstream-community-operators"
    specs += [str(p) for p in sorted(legacy.iterdir()) if p.is_dir()]
    descheduler = CATALOGS / "cluster-kube-descheduler-operator"
    specs += [str(p) for p in sorted(descheduler.iterdir()) if p.is_dir()]
    fixtures = CATALOGS / "operator-lifecycle-manager" / "test" / "e2e" / "testdata"
    specs += [str(p) for p in sorted(fixtures.rglob("*.yaml"))]
    return specs


def resolve_channel(package: Package, channel: Channel) -> int:
    """Everything the model does for one channel; returns the number of hops walked."""
    channel_order(channel)
    validate_channel(channel)
    graph = UpgradeGraph(package, [channel])
    hops = 0
    for entry in channel.entries:
        version = graph.version(entry.name)
        graph.next(entry.name, version)
        hops += len(graph.path(entry.name, version))
    return hops


def time_channel(package: Package, channel: Channel, repeat: int) -> tuple[float, int]:
    best = float("inf")
    hops = 0
    for _ in range(repeat):
        start = time.perf_counter()
        hops = resolve_channel(package, channel)
        best = min(best, time.perf_counter() - start)
    return best * 1000, hops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per channel (best is kept)")
    parser.add_argument("--all", action="store_true", help="print every channel, not the top 10")
    args = parser.parse_args()

    load_start = time.perf_counter()
    catalogs: list[Catalog] = [load_catalog(spec) for spec in catalog_specs()]
    print(
        f"loaded {len(catalogs)} catalogs in {time.perf_counter() - load_start:.1f} s "
        "(not timed below)"
    )

    rows: list[tuple[float, str, str, str, int, int]] = []
    for catalog in catalogs:
        origin = str(Path(catalog.origin).relative_to(CATALOGS))
        for package in catalog.packages.values():
            for channel in package.channels.values():
                ms, hops = time_channel(package, channel, args.repeat)
                rows.append((ms, origin, package.name, channel.name, len(channel.entries), hops))

    total = sum(r[0] for r in rows)
    print(
        f"{len(rows)} channels, {sum(r[4] for r in rows)} entries: {total:.1f} ms in all, "
        f"{total / len(rows):.2f} ms per channel on average"
    )
    shown = sorted(rows, reverse=True) if args.all else sorted(rows, reverse=True)[:10]
    print(f"\n{'ms':>8} {'entries':>7} {'hops':>6}  catalog / package / channel")
    for ms, origin, package, channel, entries, hops in shown:
        print(f"{ms:8.2f} {entries:7d} {hops:6d}  {origin} / {package} / {channel}")
    slowest = max(rows)
    print(f"\nslowest channel: {slowest[2]} / {slowest[3]} ({slowest[1]}): {slowest[0]:.2f} ms")

    target = [r for r in rows if r[2] == TARGET_PACKAGE and "operators/" in r[1]]
    target_ms = sum(r[0] for r in target)
    bundles = sum(
        len(c.packages[TARGET_PACKAGE].bundles)
        for c in catalogs
        if TARGET_PACKAGE in c.packages and "operators/" in c.origin
    )
    print(
        f"{TARGET_PACKAGE} ({bundles} bundles, {len(target)} channels): {target_ms:.2f} ms, "
        f"ratio to the {TARGET_MS:.0f} ms target: {target_ms / TARGET_MS:.2f}"
    )


if __name__ == "__main__":
    main()
