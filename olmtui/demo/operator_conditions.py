"""The OperatorConditions OLM v0 makes: one per installed CSV, named after it in its namespace,
owned by it. The demo's operators set no condition on theirs, so none holds an upgrade
(R-CSV-P) and none is a use of the API: the migration tool's C4 passes (R-MIG-5), and the
Migration view (``:migration``) can show an eligible operator, its ClusterExtension to copy."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from olmtui.kinds import CSV, OPERATOR_CONDITION
from olmtui.store import is_copied_csv

Obj = dict[str, Any]


def operator_conditions(objects: Iterable[Obj], now: str) -> list[Obj]:
    """An empty OperatorCondition for every original CSV among ``objects``."""
    out: list[Obj] = []
    for csv in objects:
        if csv.get("kind") != CSV or is_copied_csv(csv):
            continue
        csv_meta = csv.get("metadata") or {}
        owner = {
            "apiVersion": csv.get("apiVersion", "operators.coreos.com/v1alpha1"),
            "kind": CSV,
            "name": csv_meta.get("name"),
            "uid": csv_meta.get("uid"),
            "controller": True,
            "blockOwnerDeletion": False,
        }
        out.append(
            {
                "apiVersion": "operators.coreos.com/v2",
                "kind": OPERATOR_CONDITION,
                "metadata": {
                    "name": csv_meta.get("name"),
                    "namespace": csv_meta.get("namespace"),
                    "creationTimestamp": now,
                    "ownerReferences": [{k: v for k, v in owner.items() if v is not None}],
                },
                "spec": {},
                "status": {},
            }
        )
    return out
