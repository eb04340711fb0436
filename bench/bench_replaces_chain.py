"""Bench: one namespace whose CSVs form a ``spec.replaces`` chain of N (issue 24 item 10).

Each CSV ``chain-operator.v<i>`` replaces ``chain-operator.v<i-1>``, the newest Succeeded and
every older one Replacing, as a cluster looks when OLM cannot delete the old ones. The
replacement findings (R-CSV-R, R-CSV-R2) and the held-upgrade checks (R-CSV-P 1) walk that
chain for every CSV; they must cost time linear in N. For N in 1,000 / 2,000 / 4,000 / 8,000
it prints the CPU seconds of (i) loading the snapshot into a Store alone, the linear baseline,
and (ii) the same plus the model's findings, and the ratio of each to the size before: linear
growth doubles the time when N doubles.

    python bench/bench_replaces_chain.py [--sizes 1000,2000,4000,8000]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from olmtui.model.engine import Model
from olmtui.store import Store

NAMESPACE = "chain"
Obj = dict[str, Any]


def csv_name(i: int) -> str:
    return f"chain-operator.v0.0.{i}"


def chain_objects(n: int, cycle: bool = False) -> list[Obj]:
    """The namespace, its OperatorGroup and ``n`` CSVs each replacing the one before (with
    ``cycle`` the first replaces the last, a loop of ``n``)."""
    objs: list[Obj] = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}},
        {
            "apiVersion": "operators.coreos.com/v1",
            "kind": "OperatorGroup",
            "metadata": {"name": "og", "namespace": NAMESPACE},
            "spec": {"targetNamespaces": [NAMESPACE]},
            "status": {"namespaces": [NAMESPACE]},
        },
    ]
    for i in range(n):
        spec: Obj = {
            "version": f"0.0.{i}",
            "installModes": [{"type": "OwnNamespace", "supported": True}],
            # Every version owns the same CRD, as a real chain does (R-CSV-O reads it).
            "customresourcedefinitions": {
                "owned": [{"name": "chains.example.com", "kind": "Chain", "version": "v1"}]
            },
        }
        if i or cycle:
            spec["replaces"] = csv_name((i - 1) % n)
        newest = i == n - 1 and not cycle
        objs.append(
            {
                "apiVersion": "operators.coreos.com/v1alpha1",
                "kind": "ClusterServiceVersion",
                "metadata": {
                    "name": csv_name(i),
                    "namespace": NAMESPACE,
                    "annotations": {
                        "olm.operatorGroup": "og",
                        "olm.operatorNamespace": NAMESPACE,
                        "olm.targetNamespaces": NAMESPACE,
                    },
                },
                "spec": spec,
                "status": {
                    "phase": "Succeeded" if newest else "Replacing",
                    "reason": "InstallSucceeded" if newest else "BeingReplaced",
                },
            }
        )
    return objs


def _cpu(run: Any) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def measure(n: int) -> tuple[float, float, int]:
    """(store-only seconds, store + findings seconds, findings count) for a chain of ``n``."""
    objs = chain_objects(n)
    baseline = _cpu(lambda: Store().apply_many(objs))
    counted: list[int] = []

    def with_model() -> None:
        store = Store()
        model = Model(store)
        store.apply_many(objs)
        counted.append(len(model.findings()))

    return baseline, _cpu(with_model), counted[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,2000,4000,8000")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'CSVs':>6} {'store s':>8} {'x prev':>7} {'+model s':>9} {'x prev':>7} {'findings':>9}")
    before: tuple[float, float] | None = None
    for n in sizes:
        base, full, count = measure(n)
        ratios = (f"{base / before[0]:7.2f}", f"{full / before[1]:7.2f}") if before else ("", "")
        print(f"{n:>6} {base:8.2f} {ratios[0]:>7} {full:9.2f} {ratios[1]:>7} {count:>9}")
        before = (base, full)
    return 0


if __name__ == "__main__":
    sys.exit(main())
