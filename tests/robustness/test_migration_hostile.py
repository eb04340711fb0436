"""Wrong-typed fields the migration rules read (R-MIG-1..14) never crash them: read raw (no
field check at the input; metadata aside, whose shape the cache guarantees) and through the
cache, every field the rules read is replaced by each wrong type in turn, and every operator
still gets a state."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from migration_support import CSV_NAME, NS, content, eligible, healthy_subscription
from model_builders import catalog_source, csv, install_plan, operator_condition, operator_group
from v1_objects import catalog

from olmtui.model.rules.migration.states import migrations
from olmtui.model.viewmodels.migration import migration_rows
from olmtui.store import Store

WRONG: tuple[Any, ...] = (7, "text", ["a", 1, None], {"a": 1}, None, True)
#: ``(which object, path)`` of every field the rules read.
FIELDS = [
    ("sub", ("spec", "name")),
    ("sub", ("spec", "channel")),
    ("sub", ("spec", "source")),
    ("sub", ("spec", "config")),
    ("sub", ("spec", "installPlanApproval")),
    ("sub", ("status", "installedCSV")),
    ("sub", ("status", "state")),
    ("sub", ("status", "installPlanRef")),
    ("sub", ("metadata", "annotations")),
    ("group", ("spec", "targetNamespaces")),
    ("group", ("spec", "selector")),
    ("group", ("spec", "serviceAccountName")),
    ("group", ("status", "namespaces")),
    ("csv", ("spec", "installModes")),
    ("csv", ("spec", "version")),
    ("csv", ("spec", "install")),
    ("csv", ("spec", "customresourcedefinitions")),
    ("csv", ("spec", "apiservicedefinitions")),
    ("csv", ("status", "phase")),
    ("csv", ("metadata", "annotations")),
    ("condition", ("status", "conditions")),
    ("plan", ("status", "bundleLookups")),
    ("source", ("spec", "sourceType")),
    ("source", ("spec", "image")),
]


def _objects() -> dict[str, dict[str, Any]]:
    rbac = {"clusterPermissions": [{"rules": [{"apiGroups": 3, "resources": "x"}]}]}
    return {
        "sub": healthy_subscription(plan="install-1", approval="Manual", config={"env": []}),
        "group": operator_group(NS, "og", status=[""]),
        "csv": csv(NS, CSV_NAME, spec={"install": {"strategy": "deployment", "spec": rbac}}),
        "condition": operator_condition(CSV_NAME, "True", ns=NS),
        "plan": install_plan(NS, "install-1", csvs=[(CSV_NAME, None)]),
        "source": catalog_source("openshift-marketplace", "cat"),
    }


def _set(obj: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for step in path[:-1]:
        obj = obj.setdefault(step, {}) if isinstance(obj.get(step), dict) else obj
    obj[path[-1]] = value


@pytest.mark.parametrize(("which", "path"), FIELDS, ids=[f"{w}.{'.'.join(p)}" for w, p in FIELDS])
def test_a_wrong_typed_field_leaves_every_operator_a_state(
    which: str, path: tuple[str, ...]
) -> None:
    for wrong in WRONG:
        objects = copy.deepcopy(_objects())
        _set(objects[which], path, wrong)

        def inputs_of(sub: dict[str, Any], o: dict[str, Any] = objects) -> Any:
            return eligible(
                subscription=sub,
                groups=[o["group"]],
                csv=o["csv"],
                condition=o["condition"],
                install_plan=o["plan"],
                catalog_sources={("openshift-marketplace", "cat"): o["source"]},
            )

        if path[0] != "metadata":  # a wrong-typed metadata never leaves the cache (R-SRC-4)
            (raw,) = migrations([objects["sub"]], [], inputs_of)
            assert raw.state in ("Eligible", "Ineligible")
        store = Store()
        store.apply_many([*objects.values(), catalog("operatorhubio")])
        (cached,) = migration_rows(store, [content()])
        assert cached.state in ("Eligible", "Ineligible")
