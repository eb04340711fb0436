"""R-LCY-2 .. R-LCY-6 as health findings: an installed CSV or ClusterExtension out of support,
near its end, not compatible with the OpenShift minor the cluster runs or the next one, each
naming the way out; nothing without a lifecycle document (unknown is not unsupported)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import yaml
from data_paths import DATA
from model_builders import clusterversion, csv, subscription
from v1_objects import extension

from olmtui.model.incremental.health import health_findings
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.lifecycle import LIFECYCLE_SCHEMA
from olmtui.model.records.types import Finding
from olmtui.model.rules.lifecycle.findings import lifecycle_views
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.store import Store

EFS_DOC = DATA / "lifecycle" / "aws-efs-csi-driver-operator.lifecycle.yaml"
PACKAGE = "aws-efs-csi-driver-operator"
CSV_NAME = "aws-efs-csi-driver-operator.v4.12.0-202401"


def _efs(cluster: str | None = "4.12.30", version: str = "4.12.0-202401") -> list[Any]:
    objs = [
        csv("efs", CSV_NAME, version=version),
        subscription("efs", "efs", package=PACKAGE, installed=CSV_NAME, source="redhat-operators"),
    ]
    return objs + ([clusterversion(("Completed", cluster))] if cluster else [])


def _findings(objs: list[Any], catalogs: list[Catalog], now: dt.datetime | None) -> list[Finding]:
    store = Store()
    store.apply_many(objs)
    found = health_findings(store, catalogs, now=now)
    return sorted((f for f in found if f.rule.startswith("R-LCY")), key=lambda f: f.code)


def _on(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(f"{day}T12:00:00+00:00")


def _codes(found: list[Finding]) -> list[tuple[str, str, str]]:
    return [(f.code, f.severity, f.rule) for f in found]


def test_no_lifecycle_document_no_finding() -> None:
    other = load_catalog(str(DATA / "catalogs/cluster-kube-descheduler-operator/v4.16"))
    assert _findings(_efs(), [other], _on("2027-02-01")) == []
    assert _findings(_efs(), [], _on("2027-02-01")) == []


def test_out_of_support_after_the_last_phase() -> None:
    found = _findings(_efs(), [load_catalog(str(EFS_DOC))], _on("2027-01-18"))
    assert _codes(found) == [
        ("OperatorIncompatibleWithNextOpenShift", "warning", "R-LCY-5"),
        ("OperatorOutOfSupport", "warning", "R-LCY-3"),
    ]
    out = found[1]
    assert (out.kind, out.namespace, out.name) == ("ClusterServiceVersion", "efs", CSV_NAME)
    assert "ended on 2027-01-17" in out.message
    assert "lists no newer minor of the operator in support" in out.message


def test_the_last_day_of_a_phase_is_still_in_support_and_ending_soon() -> None:
    found = _findings(_efs(), [load_catalog(str(EFS_DOC))], _on("2027-01-17"))
    assert [f.code for f in found] == [
        "OperatorIncompatibleWithNextOpenShift",
        "OperatorSupportEndingSoon",
    ]
    assert "0 day(s) after 2027-01-17" in found[1].message


def test_ending_soon_is_ninety_days_also_on_a_day_that_is_a_lower_bound() -> None:
    catalogs = [load_catalog(str(EFS_DOC))]
    assert "OperatorSupportEndingSoon" in {
        f.code for f in _findings(_efs(), catalogs, _on("2026-10-19"))
    }
    assert "OperatorSupportEndingSoon" not in {
        f.code for f in _findings(_efs(), catalogs, _on("2026-10-18"))
    }
    # no clock: the newest time the objects record, a day the input was taken on or after
    dated = _efs()
    dated[0]["status"]["lastUpdateTime"] = "2026-12-01T00:00:00Z"
    (soon,) = [f for f in _findings(dated, catalogs, None) if f.code == "OperatorSupportEndingSoon"]
    assert "47 day(s) after 2026-12-01" in soon.message
    dated[0]["status"]["lastUpdateTime"] = "2027-03-01T00:00:00Z"
    (out,) = [f for f in _findings(dated, catalogs, None) if f.code == "OperatorOutOfSupport"]
    assert "out of support on 2027-03-01" in out.message
    assert _findings(_efs(), catalogs, None) == [
        f for f in _findings(_efs(), catalogs, None) if f.code != "OperatorOutOfSupport"
    ], "no day known: no phase claimed"


def test_a_way_out_is_named_when_a_newer_minor_is_in_support(tmp_path: Path) -> None:
    doc = yaml.safe_load(EFS_DOC.read_text())
    doc["versions"][1]["platformCompatibility"][0]["versions"] = ["4.12", "4.13", "4.17"]
    doc["versions"][1]["phases"][-1]["endDate"] = "2028-04-01"
    path = tmp_path / "lifecycle.yaml"
    path.write_text(yaml.safe_dump(doc))
    found = _findings(_efs(), [load_catalog(str(path))], _on("2027-02-01"))
    assert _codes(found) == [
        # a newer minor lists the next OpenShift: upgrade with the cluster, an info
        ("OperatorIncompatibleWithNextOpenShift", "info", "R-LCY-5"),
        ("OperatorOutOfSupport", "warning", "R-LCY-3"),
    ]
    for finding in found:
        assert "Way out: upgrade to 4.17 (supported until 2028-04-01;" in finding.message
        assert "holds no bundle of it" in finding.message


def test_not_compatible_with_the_running_minor() -> None:
    found = _findings(_efs(cluster="4.17.3"), [load_catalog(str(EFS_DOC))], _on("2025-06-01"))
    assert _codes(found) == [("OperatorIncompatibleWithOpenShift", "warning", "R-LCY-5")]
    assert "not compatible with the OpenShift 4.17 the cluster runs" in found[0].message


def test_without_the_cluster_version_nothing_is_said_of_compatibility() -> None:
    assert _findings(_efs(cluster=None), [load_catalog(str(EFS_DOC))], _on("2025-06-01")) == []


def test_a_minor_the_document_does_not_list_is_an_info() -> None:
    found = _findings(_efs(version="4.14.1"), [load_catalog(str(EFS_DOC))], _on("2025-06-01"))
    assert _codes(found) == [("LifecycleVersionNotListed", "info", "R-LCY-2")]


def test_two_documents_for_a_package_are_no_data(tmp_path: Path) -> None:
    other = {
        "schema": LIFECYCLE_SCHEMA,
        "package": PACKAGE,
        "versions": [
            {
                "name": "4.12",
                "phases": [{"name": "Full", "startDate": "2020-01-01", "endDate": "2021-01-01"}],
            }
        ],
    }
    path = tmp_path / "two.yaml"
    path.write_text(yaml.safe_dump_all([yaml.safe_load(EFS_DOC.read_text()), other]))
    found = _findings(_efs(), [load_catalog(str(path))], _on("2027-02-01"))
    assert _codes(found) == [("LifecycleDocumentsConflict", "info", "R-LCY-2")]


def test_content_for_another_catalog_source_does_not_speak_for_it() -> None:
    bound = load_catalog(f"openshift-marketplace/certified-operators={EFS_DOC}")
    assert _findings(_efs(), [bound], _on("2027-02-01")) == []
    own = load_catalog(f"openshift-marketplace/redhat-operators={EFS_DOC}")
    assert "OperatorOutOfSupport" in {f.code for f in _findings(_efs(), [own], _on("2027-02-01"))}


def test_a_cluster_extension_is_read_by_its_package_and_installed_version() -> None:
    objs = [
        extension("efs", package=PACKAGE, installed=("efs.v4.17.2", "4.17.2")),
        clusterversion(("Completed", "4.17.9")),
    ]
    found = _findings(objs, [load_catalog(str(EFS_DOC))], _on("2026-05-01"))
    assert _codes(found) == [
        ("OperatorIncompatibleWithNextOpenShift", "warning", "R-LCY-5"),
        ("OperatorOutOfSupport", "warning", "R-LCY-3"),
    ]
    assert {(f.kind, f.name) for f in found} == {("ClusterExtension", "efs")}


def test_the_support_line_without_a_day_and_before_the_first_phase() -> None:
    catalogs = [load_catalog(str(EFS_DOC))]
    objs = _efs()
    (view,) = lifecycle_views([objs[0]], [objs[1]], [], catalogs, None)
    assert view.line() == (
        "Support: phase not known (the input has no date); support ends 2027-01-17; "
        "compatible: 4.12"
    )
    (early,) = lifecycle_views([objs[0]], [objs[1]], [], catalogs, _on("2022-12-01"))
    assert early.line() == (
        "Support: not started on 2022-12-01; support ends 2027-01-17; compatible: 4.12"
    )
