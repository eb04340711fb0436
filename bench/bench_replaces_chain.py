"""Bench: one namespace whose CSVs form a ``spec.replaces`` chain of N.

Each CSV ``chain-operator.v<i>`` replaces ``chain-operator.v<i-1>``, the newest Succeeded and
every older one Replacing, as a cluster looks when OLM cannot delete the old ones; every one
owns the same CRD. The replacement findings (R-CSV-R, R-CSV-R2), the CRD owner checks
(R-CSV-O) and the held-upgrade checks (R-CSV-P 1) read that chain for every CSV; they must
cost time linear in N. For N in 1,000 / 2,000 / 4,000 / 8,000 it prints the CPU seconds of
(i) loading the snapshot into a Store alone, the linear baseline, (ii) the same plus the
model's findings, and (iii) the same for a loop of N (the first CSV replaces the last: N
ReplacementCycle findings), each with its ratio to the size before: linear growth doubles
the time when N doubles. (Before the chains were walked once, (ii) took 2.8 s for 1,000
CSVs and ``check`` 32 s for 2,000.)

    python bench/bench_replaces_chain.py [--sizes 1000,2000,4000,8000]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from olmtui.model.incremental.engine import Model
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


def _with_model(objs: list[Obj]) -> float:
    def run() -> None:
        store = Store()
        model = Model(store)
        store.apply_many(objs)
        model.findings()

    return _cpu(run)


def measure(n: int) -> tuple[float, float, float]:
    """CPU seconds of (store alone, store + findings, the same for a loop) at size ``n``."""
    objs = chain_objects(n)
    baseline = _cpu(lambda: Store().apply_many(objs))
    return baseline, _with_model(objs), _with_model(chain_objects(n, cycle=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,2000,4000,8000")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'CSVs':>6} {'store s':>8} {'x':>5} {'chain s':>8} {'x':>5} {'loop s':>8} {'x':>5}")
    before: tuple[float, ...] | None = None
    for n in sizes:
        times = measure(n)
        ratios = [
            f"{t / b:5.2f}" if before and b else f"{'':>5}"
            for t, b in zip(times, before or times, strict=True)
        ]
        print(f"{n:>6} " + " ".join(f"{t:8.2f} {r}" for t, r in zip(times, ratios, strict=True)))
        before = times
    return 0


if __name__ == "__main__":
    sys.exit(main())
