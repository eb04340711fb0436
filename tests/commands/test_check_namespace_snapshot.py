"""``--namespace`` on snapshots: a snapshot read as a live session scoped to those
namespaces reads it (their namespaced objects and every cluster-scoped one), so nothing is
said missing outside the scope (R-DOC-10); ``check --fleet --namespace`` scopes every target,
snapshot or live, each exactly as a single scoped ``check`` of it (R-FLT-1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from fleet_support import validate_fleet
from model_builders import csv, namespace, operator_group, subscription
from report_records import validate_report
from snapshot_files import yaml_documents


def _snapshot(path: Path, failing: str) -> Path:
    """``ops`` holds a Subscription whose CatalogSource (in openshift-marketplace) was not
    gathered; ``team-a`` holds a failed CSV named ``failing``."""
    objects = [
        namespace("ops"),
        namespace("team-a"),
        namespace("openshift-marketplace"),
        operator_group("ops", "og", targets=["ops"]),
        csv("ops", "op.v1"),
        subscription("ops", "op", installed="op.v1", current="op.v1", state="AtLatestKnown"),
        operator_group("team-a", "og-a", targets=["team-a"]),
        csv("team-a", failing, phase="Failed", reason="InstallCheckFailed"),
    ]
    path.write_text(yaml_documents(objects))
    return path


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("scoped")
    return [_snapshot(folder / "one.yaml", "a.v1"), _snapshot(folder / "two.yaml", "b.v1")]


def _report(*argv: Any) -> dict[str, Any]:
    result = run_cli("check", *argv, "--output", "json")
    assert result.returncode in (0, 1), result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    validate_report(report)
    return report


def _said(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    return sorted((f["code"], f["namespace"], f["name"], f["message"]) for f in report["findings"])


def test_a_scoped_snapshot_says_nothing_missing_outside_its_scope(snapshots: list[Path]) -> None:
    whole = _report(snapshots[0])
    scoped = _report(snapshots[0], "--namespace", "ops")
    codes = {f["code"] for f in whole["findings"]}
    assert {"CatalogSourceMissing", "CSVFailed"} <= codes  # the whole snapshot says both
    assert not any(f["namespace"] == "team-a" for f in scoped["findings"])
    # the CatalogSource lives in a namespace not read: unknown, not missing (R-DOC-10)
    assert "CatalogSourceMissing" not in {f["code"] for f in scoped["findings"]}
    assert scoped["source"]["namespaces"] == ["ops"]
    assert scoped["source"]["complete"] is False
    assert scoped["source"]["incompleteBecause"] == ["--namespace scope: only ops read"]
    assert [c["name"] for c in scoped["csvs"]] == ["op.v1"]


def test_the_fleet_scopes_every_snapshot_target_as_a_single_check(snapshots: list[Path]) -> None:
    result = run_cli("check", "--fleet", *snapshots, "--namespace", "ops", "--output", "json")
    assert result.returncode in (0, 1), result.stderr
    fleet = json.loads(result.stdout)
    validate_fleet(fleet)
    by_name = {t["name"]: t for t in fleet["targets"]}
    assert set(by_name) == {"one.yaml", "two.yaml"}
    for path in snapshots:
        single = _report(path, "--namespace", "ops")
        target = by_name[path.name]
        assert target["status"] == "ok"
        assert _said(target) == _said(single)
        assert target["source"]["namespaces"] == ["ops"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--sample", "--namespace", "ops"], "--namespace scopes --live or snapshot PATHs"),
        (["--context", "prod"], "--context only applies with --live"),
    ],
)
def test_what_a_scope_does_not_apply_to_is_one_line(
    snapshots: list[Path], argv: list[str], says: str
) -> None:
    paths = [] if "--sample" in argv else [snapshots[0]]
    result = run_cli("check", *paths, *argv)
    assert result.returncode == 2
    assert result.stderr.strip().endswith(says), result.stderr
