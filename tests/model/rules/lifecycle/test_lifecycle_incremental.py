"""R-LCY-*: the screens' HealthIndex keeps the lifecycle findings as ``check`` computes them
from scratch, as an installed CSV moves to another minor and the cluster version changes."""

from __future__ import annotations

from data_paths import DATA
from model_builders import clusterversion, csv, subscription

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.types import Finding
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.store import Store

EFS_DOC = DATA / "lifecycle" / "aws-efs-csi-driver-operator.lifecycle.yaml"
NAME = "aws-efs-csi-driver-operator.v4.12.0"


def _lifecycle(found: list[Finding]) -> list[tuple[str, str]]:
    return sorted((f.code, f.name) for f in found if f.rule.startswith("R-LCY"))


def test_the_index_follows_the_installed_minor_and_the_cluster_version() -> None:
    catalogs = [load_catalog(str(EFS_DOC))]
    efs = csv("efs", NAME, version="4.12.0")
    efs["status"]["lastUpdateTime"] = "2026-05-01T00:00:00Z"
    store = Store()
    store.apply_many(
        [
            efs,
            subscription("efs", "efs", package="aws-efs-csi-driver-operator", installed=NAME),
            clusterversion(("Completed", "4.12.9")),
        ]
    )
    model = Model(store)
    index = HealthIndex(store, model, lambda: catalogs, [])

    def same() -> list[tuple[str, str]]:
        kept = _lifecycle(list(index.findings()))
        assert kept == _lifecycle(health_findings(store, catalogs, model.subscriptions()))
        return kept

    assert same() == [("OperatorIncompatibleWithNextOpenShift", NAME)]
    store.apply("MODIFIED", {**efs, "spec": {**efs["spec"], "version": "4.17.1"}})
    assert same() == [
        ("OperatorIncompatibleWithOpenShift", NAME),
        ("OperatorOutOfSupport", NAME),
    ]
    store.apply("MODIFIED", clusterversion(("Completed", "4.17.2")))
    assert same() == [
        ("OperatorIncompatibleWithNextOpenShift", NAME),
        ("OperatorOutOfSupport", NAME),
    ]
