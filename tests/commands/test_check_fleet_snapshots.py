"""``olmtui check --fleet`` over snapshots: a folder of small must-gathers (one target each),
a real must-gather, a broken archive and a path that does not exist. Each target read equals
a single ``check`` of it; the broken ones are ``bad-input`` (R-FLT-1); the output does not
depend on the order the targets were given or finished in; the roll-up shows the skew only a
fleet shows (R-FLT-3, R-FLT-4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from data_paths import DATA
from fleet_support import parse_exposition, validate_fleet
from fleet_view_support import small_must_gather

REAL = DATA / "must-gather" / "must-gather-clean" / "must-gather-azure"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("fleet-snapshots")
    folder = tmp / "gathers"
    small_must_gather(folder / "alpha", "1.0.0", "quay.io/x/index:v1")
    small_must_gather(folder / "bravo", "1.0.0", "quay.io/x/index:v1")
    small_must_gather(folder / "charlie", "2.0.0", "quay.io/x/index:v2")
    broken = tmp / "broken.tar.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00 not a gzip stream at all")
    return {"folder": folder, "broken": broken, "missing": tmp / "missing"}


def _fleet(*argv: Any) -> tuple[int, dict[str, Any], str]:
    result = run_cli("check", "--fleet", *argv, "--output", "json")
    document = json.loads(result.stdout)
    validate_fleet(document)
    return result.returncode, document, result.stderr


@pytest.fixture(scope="module")
def run(inputs: dict[str, Path]) -> tuple[int, dict[str, Any], str]:
    """The fleet read by two worker processes."""
    return _fleet(inputs["folder"], REAL, inputs["broken"], inputs["missing"], "--jobs", "2")


def _by_name(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in document["targets"]}


def test_a_folder_of_must_gathers_is_one_target_each_and_bad_paths_are_bad_input(
    run: tuple[int, dict[str, Any], str],
) -> None:
    code, document, _ = run
    assert code == 4
    statuses = {n: t["status"] for n, t in _by_name(document).items()}
    assert statuses == {
        "alpha": "ok",
        "bravo": "ok",
        "charlie": "ok",
        "must-gather-azure": "ok",
        "broken": "bad-input",
        "missing": "bad-input",
    }
    assert [t["name"] for t in document["targets"]] == sorted(statuses)
    missing = _by_name(document)["missing"]
    assert missing["summary"] is None and missing["findings"] == []
    assert "no such file" in missing["reason"]


@pytest.mark.parametrize("name", ["alpha", "charlie", "must-gather-azure"])
def test_each_target_equals_a_single_check_of_it(
    run: tuple[int, dict[str, Any], str], inputs: dict[str, Path], name: str
) -> None:
    path = REAL if name == "must-gather-azure" else inputs["folder"] / name
    single = run_cli("check", path, "--output", "json")
    assert single.returncode in (0, 1), single.stderr
    report = json.loads(single.stdout)
    target = _by_name(run[1])[name]
    assert target["findings"] == report["findings"]
    assert target["incidents"] == report["incidents"]
    assert target["summary"] == report["summary"]
    assert target["source"] == report["source"]


def test_the_broken_archive_says_why(run: tuple[int, dict[str, Any], str]) -> None:
    reason = _by_name(run[1])["broken"]["reason"]
    assert reason and "broken.tar.gz" in reason and "\n" not in reason


def test_the_output_does_not_depend_on_the_order_of_the_targets(
    run: tuple[int, dict[str, Any], str], inputs: dict[str, Path]
) -> None:
    folder = inputs["folder"]
    _, again, _ = _fleet(
        inputs["missing"],
        folder / "charlie",
        REAL,
        folder / "bravo",
        inputs["broken"],
        folder / "alpha",
        "--jobs",
        "1",
    )
    assert again == run[1]


def test_the_rollup_shows_package_and_catalog_skew(run: tuple[int, dict[str, Any], str]) -> None:
    rollup = run[1]["rollup"]
    assert {
        "package": "pkg",
        "versions": {"1.0.0": ["alpha", "bravo"], "2.0.0": ["charlie"]},
        "channels": {"stable": ["alpha", "bravo", "charlie"]},
    } in rollup["skew"]
    assert {
        "kind": "CatalogSource",
        "name": "openshift-marketplace/cat",
        "refs": {"quay.io/x/index:v1": ["alpha", "bravo"], "quay.io/x/index:v2": ["charlie"]},
    } in rollup["catalogSkew"]
    assert rollup["statuses"] == {
        "ok": 4,
        "partial": 0,
        "unreachable": 0,
        "unauthorized": 0,
        "timeout": 0,
        "bad-input": 2,
    }


def test_all_read_exits_by_the_worst_finding(inputs: dict[str, Path]) -> None:
    folder = inputs["folder"]
    singles = [run_cli("check", folder / n).returncode for n in ("alpha", "bravo")]
    code, _, _ = _fleet(folder / "alpha", folder / "bravo", "--jobs", "1")
    assert code == max(singles)
    code, _, _ = _fleet(folder / "alpha", REAL, "--jobs", "1")
    assert code == 1  # the real must-gather has an error finding


def test_text_markdown_jsonl_and_prometheus_outputs(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    folder = inputs["folder"]
    argv = ["check", "--fleet", folder, inputs["missing"], "--jobs", "1"]
    text = run_cli(*argv)
    assert text.returncode == 4
    assert text.stdout.splitlines()[0].startswith("alpha  ok  ")
    assert "missing  bad-input  no such file" in text.stdout
    assert "package pkg at 2 versions: 1.0.0 on alpha, bravo; 2.0.0 on charlie" in text.stdout
    markdown = run_cli(*argv, "--output", "markdown").stdout
    assert "| target | status | error | warning | info | incidents | reason |" in markdown
    assert "| missing | bad-input |" in markdown
    assert "on 3 clusters: alpha, bravo, charlie" in markdown
    prom = tmp_path / "fleet.prom"
    lines = run_cli(*argv, "--output", "jsonl", "--prometheus", prom).stdout.splitlines()
    parsed = [json.loads(line) for line in lines]
    assert sorted(p["name"] for p in parsed[:-1]) == ["alpha", "bravo", "charlie", "missing"]
    assert list(parsed[-1]) == ["rollup"]
    metrics = parse_exposition(prom.read_text())
    up = {s[1]["target"]: s[2] for s in metrics["samples"] if s[0] == "olmtui_target_up"}
    assert up == {"alpha": 1, "bravo": 1, "charlie": 1, "missing": 0}
    assert not [p for p in tmp_path.iterdir() if p.name != "fleet.prom"]  # no temporary left


def test_a_single_check_refuses_the_fleet_flags(inputs: dict[str, Path]) -> None:
    result = run_cli("check", inputs["folder"] / "alpha", "--jobs", "2")
    assert result.returncode == 2
    assert "--jobs only apply with --fleet" in result.stderr
    result = run_cli("check", "--live", "--context", "a", "--context", "b")
    assert result.returncode == 2 and "several --context" in result.stderr
    result = run_cli("check", "--fleet")
    assert result.returncode == 2 and "--fleet needs targets" in result.stderr
