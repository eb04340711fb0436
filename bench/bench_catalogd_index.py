"""Bench for indexing catalogd's ``all`` stream (R-V1-21). A script, not a test.

Generates the JSON Lines of a catalog of ``--bundles`` bundles (default 10,000) as
``opm render`` writes them: ``olm.package`` and ``olm.channel`` documents (entries with
``replaces``, ``skips`` and ``skipRange``), bundles with ``olm.package``, ``olm.gvk``,
``olm.gvk.required``, ``olm.package.required``, ``olm.csv.metadata`` (a description of a
few KB, annotations, install modes) and related images; most bundles carry no
``olm.bundle.object`` (as catalogs rendered with ``bundle-object-to-csv-metadata`` do), and
``--objects`` of them (default one in ten) carry their CSV and a CRD as base64 objects.
Then times, best of ``--repeat`` rounds (the two sides taking turns), indexing the stream
into a Catalog the way the live source does (``sources.catalogd.index_lines``: split into
lines across network-sized reads, each decoded once, handed to the FBC loader's document
reading) against bare ``json.loads`` of the same lines, and prints the ratio (target <= 1.5).

    python bench/bench_catalogd_index.py [--bundles N] [--objects FRACTION] [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import random
import time
from collections.abc import AsyncIterator, Callable

from olmtui.model.records.catalog import Catalog
from olmtui.sources.catalog.catalogd import index_lines

TARGET = 1.5
#: The size of one network read handed to the indexer (aiohttp's reads are up to 64 KiB).
READ = 64 * 1024
BUNDLES_PER_PACKAGE = 40
DESCRIPTION = (
    "## About\nThis operator manages the lifecycle of the application: install, upgrade, "
    "backup and restore, scaling and monitoring. "
) * 12


def _crd(group: str, kind: str) -> dict:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{kind.lower()}s.{group}"},
        "spec": {
            "group": group,
            "names": {"kind": kind, "plural": f"{kind.lower()}s"},
            "scope": "Namespaced",
            "versions": [
                {
                    "name": v,
                    "served": True,
                    "storage": v == "v1",
                    "schema": {"openAPIV3Schema": {"type": "object", "description": "x" * 600}},
                }
                for v in ("v1beta1", "v1")
            ],
        },
    }


def _b64(obj: dict) -> str:
    return base64.b64encode(json.dumps(obj).encode()).decode()


def _bundle(package: str, index: int, group: str, with_objects: bool, rng: random.Random) -> dict:
    version = f"1.{index // 10}.{index % 10}"
    name = f"{package}.v{version}"
    kind = f"{package.title().replace('-', '')}App"
    properties: list[dict] = [
        {"type": "olm.gvk", "value": {"group": group, "kind": kind, "version": "v1"}},
        {"type": "olm.gvk", "value": {"group": group, "kind": f"{kind}Backup", "version": "v1"}},
        {"type": "olm.package", "value": {"packageName": package, "version": version}},
    ]
    if rng.random() < 0.2:
        properties.append(
            {"type": "olm.gvk.required", "value": {"group": "x.io", "kind": "Dep", "version": "v1"}}
        )
    if rng.random() < 0.1:
        properties.append(
            {"type": "olm.package.required", "value": {"packageName": "dep", "versionRange": ">=1"}}
        )
    properties.append(
        {
            "type": "olm.csv.metadata",
            "value": {
                "annotations": {
                    "alm-examples": json.dumps([{"kind": kind, "spec": {"size": 3}}] * 3),
                    "capabilities": "Full Lifecycle",
                    "containerImage": f"quay.io/example/{package}:v{version}",
                    "createdAt": "2025-06-01T00:00:00Z",
                    "repository": f"https://github.com/example/{package}",
                },
                "apiServiceDefinitions": {},
                "crdDescriptions": {
                    "owned": [{"name": f"{kind.lower()}s.{group}", "kind": kind, "version": "v1"}]
                },
                "description": DESCRIPTION,
                "displayName": package.title(),
                "installModes": [
                    {"type": "OwnNamespace", "supported": True},
                    {"type": "SingleNamespace", "supported": True},
                    {"type": "MultiNamespace", "supported": False},
                    {"type": "AllNamespaces", "supported": True},
                ],
                "keywords": ["app", "database"],
                "links": [{"name": "Docs", "url": "https://example.com"}],
                "maintainers": [{"email": "dev@example.com", "name": "dev"}],
                "maturity": "stable",
                "provider": {"name": "Example"},
            },
        }
    )
    if with_objects:
        csv = {"apiVersion": "operators.coreos.com/v1alpha1", "kind": "ClusterServiceVersion"}
        csv["metadata"] = {"name": name}
        csv["spec"] = {"description": DESCRIPTION, "version": version}
        properties.append({"type": "olm.bundle.object", "value": {"data": _b64(csv)}})
        properties.append({"type": "olm.bundle.object", "value": {"data": _b64(_crd(group, kind))}})
    return {
        "schema": "olm.bundle",
        "name": name,
        "package": package,
        "image": f"quay.io/example/{package}-bundle@sha256:{index:064x}",
        "properties": properties,
        "relatedImages": [
            {"name": "", "image": f"quay.io/example/{package}-bundle@sha256:{index:064x}"},
            {"name": "operator", "image": f"quay.io/example/{package}@sha256:{index + 1:064x}"},
        ],
    }


def generate(bundles: int, objects: float, seed: int = 14) -> list[bytes]:
    """The JSON Lines of a catalog of ``bundles`` bundles."""
    rng = random.Random(seed)
    lines: list[bytes] = []
    for p in range(max(1, bundles // BUNDLES_PER_PACKAGE)):
        package = f"operator-{p:04d}"
        count = min(BUNDLES_PER_PACKAGE, bundles - p * BUNDLES_PER_PACKAGE)
        if count <= 0:
            break
        group = f"{package}.example.com"
        docs: list[dict] = [{"schema": "olm.package", "name": package, "defaultChannel": "stable"}]
        names = [f"{package}.v1.{i // 10}.{i % 10}" for i in range(count)]
        entries = [
            {
                "name": n,
                **({"replaces": names[i - 1]} if i else {}),
                **({"skipRange": f"<{n.split('.v', 1)[1]}"} if i % 5 == 0 else {}),
                **({"skips": names[max(0, i - 3) : i - 1]} if i % 7 == 0 else {}),
            }
            for i, n in enumerate(names)
        ]
        docs.append(
            {"schema": "olm.channel", "package": package, "name": "stable", "entries": entries}
        )
        docs.append(
            {"schema": "olm.channel", "package": package, "name": "fast", "entries": entries[-5:]}
        )
        docs += [_bundle(package, i, group, rng.random() < objects, rng) for i in range(count)]
        lines += [json.dumps(d, separators=(",", ":")).encode() for d in docs]
    return lines


def best_of(repeat: int, *works: Callable[[], object]) -> list[float]:
    """The best time of each of ``works`` over ``repeat`` rounds, the works taking turns
    within a round: on a shared machine both sides then see the same neighbours."""
    best = [float("inf")] * len(works)
    for _ in range(repeat):
        for i, work in enumerate(works):
            start = time.perf_counter()
            work()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


async def _reads(body: bytes) -> AsyncIterator[bytes]:
    for start in range(0, len(body), READ):
        yield body[start : start + READ]


def bare_loads(lines: list[bytes]) -> None:
    """The baseline: decode every line, keep nothing (the index keeps only its Catalog)."""
    for line in lines:
        json.loads(line)


def index(body: bytes) -> Catalog:
    catalog = Catalog("bench", "bench")
    asyncio.run(index_lines(_reads(body), catalog, "bench"))
    return catalog


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundles", type=int, default=10_000)
    parser.add_argument("--objects", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    lines = generate(args.bundles, args.objects)
    body = b"\n".join(lines) + b"\n"
    catalog = index(body)
    bundles = sum(len(p.bundles) for p in catalog.packages.values())
    assert bundles == args.bundles and not catalog.findings, (bundles, catalog.findings[:1])
    bare, indexed = best_of(args.repeat, lambda: bare_loads(lines), lambda: index(body))
    ratio = indexed / bare
    print(
        f"{len(lines)} lines, {len(body) / 1e6:.1f} MB, {bundles} bundles "
        f"({args.objects:.0%} with olm.bundle.object)"
    )
    print(f"bare json.loads: {bare * 1000:.0f} ms; indexed: {indexed * 1000:.0f} ms")
    print(f"ratio {ratio:.2f} (target <= {TARGET}) {'OK' if ratio <= TARGET else 'OVER'}")


if __name__ == "__main__":
    main()
