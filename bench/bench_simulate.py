"""Bench for the simulation of OLM's next step: ``check`` with every remedy tried on the
state against ``check`` alone, and one ``whatif`` answer, on the synthetic snapshot of
``gen_snapshot.py`` (1,000 namespaces, ~20,000 copied CSVs). A script, not a test.

In one run:

(a) ``check --output json`` with the proof of remedies switched off
    (``Analysis.report(verify_remedies=False)``): load the snapshot, build and write the JSON
    report (CPU of this process and its parse workers, and wall);
(b) ``check --output json`` as it runs: every finding's remedy planned and tried on the
    state as its entry is written (``pipeline/remedy_proof.py``, in place). With catalog
    content made for the snapshot's Subscriptions (``--no-catalog``: without), so that a
    trial after which OLM resolves again runs the resolver. Target: (b) / (a) <= 1.3;
(c) one ``whatif`` answer on the loaded snapshot: the first (which builds what the trials
    follow) and the next ones. Target <= 1 s.

    python bench/bench_simulate.py [--namespaces N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_snapshot import Sizes, generate

from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session
from olmtui.pipeline.simulation import Simulator
from olmtui.report import Report, write_json

RATIO_TARGET = 1.3
WHATIF_TARGET_S = 1.0


def cpu() -> float:
    """CPU seconds of this process and of its finished children (the parse workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(action: Callable[[], Any]) -> tuple[float, float, Any]:
    cpu0, wall0 = cpu(), time.perf_counter()
    value = action()
    return cpu() - cpu0, time.perf_counter() - wall0, value


def catalog_for(files: list[Path], out: Path) -> Path:
    """FBC for community-operators holding, for every Subscription of the snapshot, its
    package with one bundle in channel ``alpha``: its current CSV, with that CSV's version
    and owned APIs when it is installed. Resolution then runs everywhere (a trial that makes
    OLM resolve again costs a real resolution)."""
    store = snapshot_session([str(f) for f in files]).store
    docs: list[dict[str, Any]] = []
    for sub in store.list("Subscription"):
        package = sub["spec"]["name"]
        bundle = sub["status"]["currentCSV"]
        csv = store.get("ClusterServiceVersion", sub["metadata"]["namespace"], bundle) or {}
        version = (csv.get("spec") or {}).get("version") or bundle.rpartition(".v")[2]
        owned = ((csv.get("spec") or {}).get("customresourcedefinitions") or {}).get("owned")
        gvks = [
            {
                "type": "olm.gvk",
                "value": {
                    "group": c["name"].split(".", 1)[1],
                    "kind": c["kind"],
                    "version": c["version"],
                },
            }
            for c in owned or ()
        ]
        docs += [
            {"schema": "olm.package", "name": package, "defaultChannel": "alpha"},
            {
                "schema": "olm.channel",
                "package": package,
                "name": "alpha",
                "entries": [{"name": bundle}],
            },
            {
                "schema": "olm.bundle",
                "name": bundle,
                "package": package,
                "image": f"quay.io/example/{bundle}:bundle",
                "properties": [
                    {"type": "olm.package", "value": {"packageName": package, "version": version}},
                    *gvks,
                ],
            },
        ]
    out.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return out


def check(files: list[Path], catalogs: list[str], verify: bool) -> tuple[Session, Report]:
    """What ``olmtui check --output json`` does, output to /dev/null: ``verify`` as check
    does it (every remedy tried on the state, ``Analysis.report(verify_remedies=True)``), or
    with the proof switched off."""
    session = snapshot_session([str(f) for f in files], catalogs)
    report = session.analysis.report(streamed=True, verify_remedies=verify)
    with open(os.devnull, "w", encoding="utf-8") as sink:
        write_json(report, sink)
    return session, report


def verdicts(report: Report) -> Counter[str]:
    """The report's remedies by ``verified`` (``refused``: tried, and it fails), read from
    its findings built again (the trials are kept: no remedy is tried twice)."""
    counted: Counter[str] = Counter()
    for finding in report["findings"]:
        remedy = finding["remedy"]
        if remedy is not None:
            refused = remedy["missing"] is None and remedy["verified"] != "simulated"
            counted["refused" if refused else remedy["verified"]] += 1
    return counted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    parser.add_argument("--keep", type=Path, help="generate into DIR (reused if there)")
    parser.add_argument(
        "--no-catalog",
        dest="catalog",
        action="store_false",
        help="without catalog content (no resolution: a trial never resolves)",
    )
    args = parser.parse_args(argv)
    root = args.keep or Path(tempfile.mkdtemp(prefix="olmtui-sim-"))
    if not any(root.glob("*.yaml")):
        generate(root, Sizes(namespaces=args.namespaces))
    files = sorted(root.glob("*.yaml"))
    catalogs = []
    if args.catalog:
        fbc = catalog_for(files, Path(tempfile.mkdtemp(prefix="olmtui-fbc-")) / "catalog.json")
        catalogs = [f"openshift-marketplace/community-operators={fbc}"]
        print(f"catalog content: {fbc}")

    check(files, catalogs, verify=False)  # once untimed: the first load pays for imports
    check_cpu, check_wall, _ = timed(lambda: check(files, catalogs, verify=False))
    print(f"(a) check, remedies not proven: {check_cpu:.2f} s CPU, {check_wall:.2f} s wall")
    proof_cpu, proof_wall, (session, report) = timed(lambda: check(files, catalogs, True))
    print(
        f"(b) check, every remedy proven: {proof_cpu:.2f} s CPU, {proof_wall:.2f} s wall; "
        f"ratio {proof_cpu / check_cpu:.2f} (target <= {RATIO_TARGET}); {dict(verdicts(report))}"
    )
    session.analysis.simulator(in_place=True).close()

    copies = session.model.copied_csvs().present
    plan = next(
        (
            k
            for k, o in session.store.items("InstallPlan")
            if (o.get("status") or {}).get("phase") == "RequiresApproval"
        ),
        None,
    )
    if plan is None:
        print("(c) no InstallPlan waiting for approval: no whatif to time")
        return 0
    change = [Change("approve", ObjectRef("InstallPlan", plan.namespace, plan.name))]
    for label, in_place in (("whatif (in place)", True), ("copy (dashboard)", False)):
        simulator = Simulator(session, in_place=in_place)
        first_cpu, first_wall, _ = timed(lambda s=simulator: s.run(change))
        _, next_wall, _ = timed(lambda s=simulator: s.run(change))
        simulator.close()
        print(
            f"(c) one answer at {copies:,} copies, {label}: first {first_wall:.2f} s wall "
            f"({first_cpu:.2f} s CPU), next {next_wall * 1000:.0f} ms wall "
            f"(target <= {WHATIF_TARGET_S} s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
