"""``check --fleet --namespace`` over real must-gather folders: each folder is read as a
single ``check FOLDER --namespace NS`` reads it (R-FLT-1), so every target says exactly what
its single scoped check says, and nothing about a namespace outside the scope, where the
fleet has read nothing and so can claim nothing missing (R-DOC-10)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_in_process import run_cli
from data_paths import DATA
from fleet_support import validate_fleet
from report_records import validate_report

MUST_GATHERS = DATA / "must-gather" / "must-gather-clean"
#: The namespace where the azure, metal and vsphere dumps hold a failed InstallPlan.
SCOPE = "cfe-test-namespace"


def _said(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    return sorted((f["code"], f["namespace"], f["name"], f["message"]) for f in report["findings"])


@pytest.fixture(scope="module")
def fleet() -> dict[str, Any]:
    result = run_cli("check", "--fleet", MUST_GATHERS, "--namespace", SCOPE, "--output", "json")
    assert result.returncode in (0, 1), result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    validate_fleet(report)
    return report


def test_each_must_gather_target_says_what_its_scoped_single_check_says(
    fleet: dict[str, Any],
) -> None:
    by_name = {t["name"].rsplit("/", 1)[-1]: t for t in fleet["targets"]}
    assert set(by_name) == {p.name for p in MUST_GATHERS.iterdir() if p.is_dir()}
    for name, target in by_name.items():
        result = run_cli("check", MUST_GATHERS / name, "--namespace", SCOPE, "--output", "json")
        assert result.returncode in (0, 1), result.stderr
        single = json.loads(result.stdout)
        validate_report(single)
        assert target["status"] == "ok", target["reason"]
        assert target["source"]["namespaces"] == [SCOPE]
        assert _said(target) == _said(single)
    # the scope does not hide what is in it: the failed InstallPlan is still said
    assert "InstallPlanFailed" in {f["code"] for f in by_name["must-gather-azure"]["findings"]}


def test_no_target_says_anything_of_a_namespace_outside_the_scope(fleet: dict[str, Any]) -> None:
    for target in fleet["targets"]:
        assert {f["namespace"] for f in target["findings"]} <= {SCOPE, None}, target["name"]
        # openshift-monitoring's static OperatorGroup is read by the whole dump, not this scope
        assert "StaticProvidedAPIs" not in {f["code"] for f in target["findings"]}
