"""Helpers for the simulation tests: sessions over fixtures of ``tests/data/resolution``
changed in the test, and the objects a failed or pending InstallPlan leaves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from data_paths import DATA
from snapshot_files import yaml_documents

from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session

Obj = dict[str, Any]
RESOLUTION = DATA / "resolution"
#: Fail-forward's own resolver test (step_resolver_test.go): a.v1 Replacing, a.v2 Failed,
#: a.v3 in the catalog replaces a.v2.
FAIL_FORWARD = RESOLUTION / "TestResolver-FailForwardEnabled-2EntryReplacementChain-Satisfiable"
#: An etcd CSV left by a deleted Subscription blocks the new one (R-DOC-14).
ORPHAN = RESOLUTION / "orphaned-csv-blocks-package"


def fixture_objects(case: Path) -> list[Obj]:
    return [d for d in yaml.safe_load_all((case / "cluster.yaml").read_text()) if d]


def catalog_specs(case: Path) -> list[str]:
    expect = yaml.safe_load((case / "expect.yaml").read_text())
    specs = []
    for spec in expect.get("catalogs") or ():
        ref, _, file = spec.rpartition("=")
        specs.append(f"{ref}={case / file}" if ref else str(case / file))
    return specs


def session_of(objects: list[Obj], tmp: Path, catalogs: list[str] | None = None) -> Session:
    path = tmp / "cluster.yaml"
    path.write_text(yaml_documents(objects, sort_keys=False))
    return snapshot_session([str(path)], catalogs or [])


def find(objects: list[Obj], kind: str, name: str) -> Obj:
    return next(o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name)


def references_plan(sub: Obj, plan: str, *, state: str, failed: bool = True) -> None:
    """Point a Subscription at ``plan`` with the conditions OLM writes (R-SUB-5)."""
    status = sub.setdefault("status", {})
    status["state"] = state
    status["installPlanRef"] = {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "InstallPlan",
        "name": plan,
        "namespace": sub["metadata"]["namespace"],
    }
    status["installplan"] = {"kind": "InstallPlan", "name": plan}
    conditions = [
        c for c in status.get("conditions") or () if not c["type"].startswith("InstallPlan")
    ]
    if failed:
        conditions.append(
            {
                "type": "InstallPlanFailed",
                "status": "True",
                "reason": "InstallComponentFailed",
                "message": "error creating csv: admission webhook denied the request",
            }
        )
    status["conditions"] = conditions
