"""Bench for the whole resolver, end to end (``resolve_cluster``). A script, not a test.

Writes a file-based catalog of ``--packages`` packages of ``--bundles`` bundles (one channel,
a replaces chain; every bundle of a package provides that package's API and requires the APIs
of up to three other packages), loads it as ``--catalog`` does (the baseline), and resolves a
namespace with ``--subscriptions`` Subscriptions against it from a cache of objects: once as it
is (a solution), once with an orphaned CSV blocking the first Subscription's package (an
explanation). Prints each time and its ratio to loading the catalog, and the targets
(resolve < 1 s, explain < 2 s).

    python bench/bench_resolve.py [--packages 1000] [--bundles 10] [--subscriptions 20]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from olmtui.model.records.catalog import Catalog
from olmtui.pipeline.resolution_inputs import resolve_cluster
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_catalog_load import best_of

NS = "team"
CATALOG_NS = "olm"


def gvk(p: int) -> dict[str, str]:
    return {"group": f"p{p}.example.com", "kind": f"Kind{p}", "version": "v1"}


def fbc(packages: int, bundles: int) -> list[dict[str, Any]]:
    """The catalog's blobs (same dependency shape as ``bench_solver.py``)."""
    rng = random.Random(13)
    blobs: list[dict[str, Any]] = []
    for p in range(packages):
        requires = rng.sample(range(packages), k=rng.randint(0, 3))
        name = f"p{p}"
        blobs.append({"schema": "olm.package", "name": name, "defaultChannel": "stable"})
        entries = [
            {"name": f"{name}.v{v}", **({"replaces": f"{name}.v{v - 1}"} if v else {})}
            for v in range(bundles)
        ]
        blobs.append(
            {"schema": "olm.channel", "package": name, "name": "stable", "entries": entries}
        )
        for v in range(bundles):
            properties = [
                {"type": "olm.package", "value": {"packageName": name, "version": f"1.{v}.0"}},
                {"type": "olm.gvk", "value": gvk(p)},
                *({"type": "olm.gvk.required", "value": gvk(r)} for r in requires if r != p),
            ]
            blobs.append(
                {
                    "schema": "olm.bundle",
                    "name": f"{name}.v{v}",
                    "package": name,
                    "image": f"example.com/{name}:v{v}",
                    "properties": properties,
                }
            )
    return blobs


def cluster(subscriptions: int, orphan: bool) -> Store:
    store = Store()
    objects: list[dict[str, Any]] = [
        {"kind": "Namespace", "metadata": {"name": NS}},
        {"kind": "OperatorGroup", "metadata": {"namespace": NS, "name": "og"}, "spec": {}},
        {
            "kind": "CatalogSource",
            "metadata": {"namespace": CATALOG_NS, "name": "big"},
            "spec": {"sourceType": "grpc"},
            "status": {"connectionState": {"lastObservedState": "READY", "lastConnect": "t"}},
        },
    ]
    for s in range(subscriptions):
        objects.append(
            {
                "kind": "Subscription",
                "metadata": {"namespace": NS, "name": f"p{s * 7}"},
                "spec": {
                    "name": f"p{s * 7}",
                    "channel": "stable",
                    "source": "big",
                    "sourceNamespace": CATALOG_NS,
                },
            }
        )
    if orphan:
        properties = {
            "properties": [
                {"type": "olm.package", "value": {"packageName": "p0", "version": "1.0.0"}},
                {"type": "olm.gvk", "value": gvk(0)},
            ]
        }
        objects.append(
            {
                "kind": "ClusterServiceVersion",
                "metadata": {
                    "namespace": NS,
                    "name": "p0.v0",
                    "annotations": {"operatorframework.io/properties": json.dumps(properties)},
                },
                "spec": {"version": "1.0.0"},
                "status": {"phase": "Succeeded"},
            }
        )
    store.apply_many(objects)
    return store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", type=int, default=1000)
    parser.add_argument("--bundles", type=int, default=10)
    parser.add_argument("--subscriptions", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "catalog.json"
        path.write_text("\n".join(json.dumps(b) for b in fbc(args.packages, args.bundles)))
        spec = f"{CATALOG_NS}/big={path}"
        catalog: Catalog = load_catalog(spec)
        base = best_of(args.repeat, lambda: load_catalog(spec))
    bundles = sum(len(p.bundles) for p in catalog.packages.values())
    print(f"catalog: {len(catalog.packages)} packages, {bundles} bundles")
    print(f"baseline (loading the catalog): {base:.3f} s")
    for label, orphan, status, target in (
        ("resolve", False, "resolved", 1.0),
        ("explain", True, "unsatisfiable", 2.0),
    ):
        store = cluster(args.subscriptions, orphan)
        [result] = resolve_cluster(store, [catalog])
        assert result.status == status, (result.status, result.reason)
        took = best_of(args.repeat, lambda s=store: resolve_cluster(s, [catalog]))  # type: ignore[misc]
        size = len(result.changes) if status == "resolved" else len(result.explanation)
        print(
            f"{label}: {took:.3f} s ({took / base:.2f}x loading the catalog; target < "
            f"{target:.0f} s) -> {size} {'changes' if status == 'resolved' else 'constraints'}"
        )


if __name__ == "__main__":
    main()
