"""``csvs[].lifecycle`` and ``clusterExtensions[].lifecycle`` (R-LCY-2), the lines the text
and Markdown reports print, and the incidents the lifecycle findings fold into (R-DIAG-34,
R-DIAG-35), through ``olmtui check`` on a snapshot and ``--catalog`` content."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from check_runs import run_check
from data_paths import DATA
from model_builders import clusterversion, csv, namespace, operator_group, subscription
from v1_objects import extension

from olmtui.cli import main
from olmtui.report import load_schema

EFS_DOC = DATA / "lifecycle" / "aws-efs-csi-driver-operator.lifecycle.yaml"
PACKAGE = "aws-efs-csi-driver-operator"
EFS_CSV = "aws-efs-csi-driver-operator.v4.12.0-202401"
#: The newest time the snapshot records: the day its lifecycle is read on (no gather time).
SEEN = "2027-02-01T08:00:00Z"


def _snapshot(tmp_path: Path, max_openshift: str | None = None) -> Path:
    notes = {}
    if max_openshift is not None:
        notes["operatorframework.io/properties"] = json.dumps(
            {"properties": [{"type": "olm.maxOpenShiftVersion", "value": max_openshift}]}
        )
    efs = csv("efs", EFS_CSV, version="4.12.0-202401", annotations=notes)
    efs["status"]["lastUpdateTime"] = SEEN
    objs = [
        namespace("efs"),
        operator_group("efs", "efs"),
        efs,
        subscription("efs", "efs", package=PACKAGE, installed=EFS_CSV, source="redhat-operators"),
        csv("efs", "other.v1.0.0"),
        extension("efs-v1", package=PACKAGE, installed=("efs.v4.17.2", "4.17.2")),
        clusterversion(("Completed", "4.12.30")),
    ]
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml.safe_dump_all(objs))
    return path


def _report(tmp_path: Path, *catalog: str, max_openshift: str | None = None) -> dict[str, Any]:
    args = [
        str(_snapshot(tmp_path, max_openshift)),
        *(a for c in catalog for a in ("--catalog", c)),
    ]
    _, report = run_check(args)
    jsonschema.validate(report, load_schema())
    return report


def _csv(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in report["csvs"] if c["name"] == name)


def test_without_a_lifecycle_document_lifecycle_is_null(tmp_path: Path) -> None:
    report = _report(tmp_path)
    assert {c["lifecycle"] for c in report["csvs"]} == {None}
    assert report["clusterExtensions"][0]["lifecycle"] is None


def test_the_installed_minor_s_phase_end_and_compatibility(tmp_path: Path) -> None:
    report = _report(tmp_path, str(EFS_DOC))
    assert _csv(report, EFS_CSV)["lifecycle"] == {
        "phase": "Self-support",
        "endDate": "2027-01-17",
        "compatibleOpenShift": ["4.12"],
        "version": "4.12",
        "supportEnds": "2027-01-17",
        "asOf": "2027-02-01",
        "catalog": None,
        "conflictingDocuments": 0,
        "summary": "Support: Self-support since 2027-01-17; compatible: 4.12",
    }
    assert _csv(report, "other.v1.0.0")["lifecycle"] is None, "no document for its package"
    v1 = report["clusterExtensions"][0]["lifecycle"]
    assert (v1["phase"], v1["endDate"], v1["compatibleOpenShift"]) == (
        "Self-support",
        "2026-04-01",
        ["4.17"],
    )


def _by_code(report: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(f["code"], f["name"]): f for f in report["findings"] if f["rule"].startswith("R-LCY")}


def test_out_of_support_is_the_root_of_its_incompatibilities(tmp_path: Path) -> None:
    found = _by_code(_report(tmp_path, str(EFS_DOC)))
    root = found[("OperatorOutOfSupport", "efs-v1")]
    assert root["cause"] is None
    effect = found[("OperatorIncompatibleWithOpenShift", "efs-v1")]
    assert effect["cause"]["code"] == "OperatorOutOfSupport"  # R-DIAG-35
    assert effect["incident"] == root["incident"]
    assert found[("OperatorIncompatibleWithNextOpenShift", EFS_CSV)]["cause"]["code"] == (
        "OperatorOutOfSupport"
    )
    assert root["remedy"]["steps"][0]["text"].startswith("Upgrade the operator")


def test_a_cap_on_the_openshift_version_comes_first(tmp_path: Path) -> None:
    report = _report(tmp_path, str(EFS_DOC), max_openshift="4.12")
    effect = _by_code(report)[("OperatorIncompatibleWithNextOpenShift", EFS_CSV)]
    assert effect["cause"]["code"] == "MaxOpenShiftVersion"  # R-DIAG-34


@pytest.mark.parametrize("output", ["text", "markdown"])
def test_text_and_markdown_say_the_support_line(tmp_path: Path, output: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", str(_snapshot(tmp_path)), "--catalog", str(EFS_DOC), "--output", output])
    shown = " ".join(out.getvalue().split())
    assert "Support: Self-support since 2027-01-17; compatible: 4.12" in shown
    assert "Support: Self-support since 2026-04-01; compatible: 4.17" in shown
