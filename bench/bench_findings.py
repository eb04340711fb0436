"""Bench: one object change -> findings updated and read back, on the generated 20,000-copy
snapshot. A script, not a test.

Loads the ``gen_snapshot.py`` cluster (1,000 namespaces, 19,980 copies) into a Store with the
engine and the screens' HealthIndex (``olmtui.pipeline.analysis``) following it, then, for one
change of each kind (a copied CSV, a single-namespace CSV, a Subscription, an InstallPlan),
times (i) ``Store.apply`` with the engine's own recompute and (ii) the screens' reads after
it: ``Analysis.all_findings``, ``severity_counts``, ``approvals``, ``behind_head`` and
``metrics``. It prints the medians of 11 runs in CPU ms and the ratio (ii)/(i) (target:
(ii) < 5 ms), and, for reference, one from-scratch ``merged_findings`` + ``health_findings``
(what the screens did per model version before).

    python bench/bench_findings.py [--snapshot DIR]
"""

from __future__ import annotations

import argparse
import copy
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_snapshot import Sizes, generate

from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session

TARGET_MS = 5.0
RUNS = 11


def read_back(session: Session) -> None:
    """What the Overview and Findings screens read after a change."""
    session.analysis.all_findings()
    session.analysis.severity_counts()
    session.analysis.approvals()
    session.analysis.behind_head()
    session.analysis.metrics()


def changed(obj: dict[str, Any], run: int, edit: Callable[[dict[str, Any], int], None]) -> Any:
    new = copy.deepcopy(obj)
    new["metadata"]["resourceVersion"] = f"bench-{run}"
    edit(new, run)
    return new


def _phase(obj: dict[str, Any], run: int) -> None:
    obj["status"] = {**obj.get("status", {}), "phase": ("Failed", "Succeeded")[run % 2]}


def _sub_state(obj: dict[str, Any], run: int) -> None:
    obj["status"] = {**obj.get("status", {}), "state": ("UpgradePending", "AtLatestKnown")[run % 2]}


def _plan_approved(obj: dict[str, Any], run: int) -> None:
    obj["spec"] = {**obj.get("spec", {}), "approved": bool(run % 2)}


def one_change(
    session: Session, kind: str, slot: tuple[str, str], edit: Any, run: int
) -> tuple[float, float]:
    store = session.store
    obj = store.get(kind, *slot)
    assert obj is not None, (kind, slot)
    new = changed(obj, run, edit)
    start = time.process_time()
    assert store.apply("MODIFIED", new) is not None
    applied = time.process_time()
    read_back(session)
    done = time.process_time()
    return applied - start, done - applied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapshot", type=Path, help="a gen_snapshot.py directory to reuse")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-") as tmp:
        root = args.snapshot or Path(tmp)
        if args.snapshot is None:
            generate(root, Sizes())
        session = snapshot_session([str(root)])
        store, model = session.store, session.model
        start = time.process_time()
        read_back(session)
        print(
            f"{store.count('ClusterServiceVersion')} CSVs cached; first read (index built): "
            f"{(time.process_time() - start) * 1000:.1f} ms CPU, "
            f"{len(session.analysis.all_findings())} findings"
        )
        start = time.process_time()
        for _ in range(RUNS):
            merged_findings(
                model=model.findings(),
                health=health_findings(store, [], model.subscriptions()),
                unreadable=store.unreadable,
            )
        scratch_ms = (time.process_time() - start) / RUNS * 1000
        print(f"from-scratch merged_findings: {scratch_ms:.1f} ms CPU")
        cases = (
            ("copied CSV", "ClusterServiceVersion", ("app-0001", "global-op-01.v0.9.4"), _phase),
            ("CSV", "ClusterServiceVersion", ("team-0001", "team-op-0001.v0.9.4"), _phase),
            ("Subscription", "Subscription", ("team-0001", "team-op-0001"), _sub_state),
        )
        plan = next(store.list("InstallPlan"))
        plan_slot = (plan["metadata"]["namespace"], plan["metadata"]["name"])
        for label, kind, slot, edit in (
            *cases,
            ("InstallPlan", "InstallPlan", plan_slot, _plan_approved),
        ):
            runs = [one_change(session, kind, slot, edit, run) for run in range(RUNS)]
            engine = sorted(r[0] for r in runs)[RUNS // 2] * 1000
            reads = sorted(r[1] for r in runs)[RUNS // 2] * 1000
            print(
                f"one {label}: engine {engine:.2f} ms, findings updated + read back "
                f"{reads:.2f} ms (ratio {reads / engine:.1f}; target < {TARGET_MS} ms)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
