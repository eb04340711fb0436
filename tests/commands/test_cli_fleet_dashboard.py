"""``olmtui --fleet`` and ``olmtui replay --fleet``: the targets are named by ``check
--fleet``'s flags (``--context``/``--kubeconfig`` repeat before a sub-command too), each
one a row of the Fleet view; misplaced flags are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from fleet_view_support import fleet_folder

from olmtui.commands import fleet_dashboard
from olmtui.ui.fleet_app import FleetApp


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return fleet_folder(tmp_path_factory.mktemp("fleet-cli"))


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[FleetApp]:
    """The apps the command would run, kept instead of run."""
    apps: list[FleetApp] = []

    def keep(app: Any) -> int:
        apps.append(app)
        return 0

    monkeypatch.setattr(fleet_dashboard, "run_app", keep)
    return apps


def _rows(app: FleetApp) -> dict[str, str]:
    return {e.name: e.status()[0] for e in app.fleet.entries}


def test_replay_fleet_opens_a_row_per_cluster_of_its_paths(
    inputs: dict[str, Path], opened: list[FleetApp]
) -> None:
    result = run_cli("replay", "--fleet", inputs["folder"], inputs["broken"])
    assert result.returncode == 0, result.stderr
    (app,) = opened
    assert _rows(app) == {"alpha": "ok", "bravo": "ok", "charlie": "ok", "broken": "bad-input"}
    assert app.session is app.fleet.entries[0].session  # alpha's, built already
    assert "olmtui: fleet [4/4]" in result.stderr and "broken bad-input" in result.stderr


def test_fleet_reads_a_targets_file_as_check_fleet_does(
    inputs: dict[str, Path], opened: list[FleetApp], tmp_path: Path
) -> None:
    targets = tmp_path / "targets.txt"
    missing = tmp_path / "missing.kubeconfig"
    targets.write_text(f"{inputs['folder'] / 'alpha'}\nkubeconfig:{missing}#prod\n")
    result = run_cli("--fleet", "--targets", targets, "--connect-timeout", "2s")
    assert result.returncode == 0, result.stderr
    (app,) = opened
    assert _rows(app) == {"alpha": "ok", "prod": "bad-input"}
    prod = app.fleet.entry("prod")
    assert prod is not None and prod.reason and "missing.kubeconfig" in prod.reason


def test_several_contexts_before_check_are_every_fleet_target(tmp_path: Path) -> None:
    config = tmp_path / "absent.kubeconfig"
    result = run_cli(
        "--context", "one", "--context", "two", "--kubeconfig", config,
        "check", "--fleet", "--output", "json",
    )  # fmt: skip
    assert result.returncode == 4, result.stderr
    names = [t["name"] for t in json.loads(result.stdout)["targets"]]
    assert names == ["one", "two"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--all-contexts"], "--all-contexts only apply with --fleet"),
        (["--context", "a", "--context", "b"], "several --context only apply with --fleet"),
        (["--fleet", "check", "x"], "--fleet before `check` applies to the dashboard only"),
        (["--context", "a", "--context", "b", "explain", "x"], "only with --fleet"),
        (["--fleet", "--record", "f", "--context", "a"], "--record records one cluster"),
        (["--fleet"], "--fleet needs targets"),
    ],
)
def test_misplaced_fleet_flags_are_one_line(argv: list[str], said: str) -> None:
    result = run_cli(*argv)
    assert result.returncode == 2
    assert said in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_a_namespace_scope_reaches_snapshot_targets(
    inputs: dict[str, Path], opened: list[FleetApp], tmp_path: Path
) -> None:
    targets = tmp_path / "targets.txt"
    targets.write_text(f"{inputs['folder'] / 'alpha'}\n")
    result = run_cli("--fleet", "--targets", targets, "--namespace", "ops")
    assert result.returncode == 0, result.stderr
    (entry,) = opened[0].fleet.entries
    assert entry.session is not None
    # read as a live session scoped to ops would read it (R-DOC-10)
    assert entry.session.store.read_namespaces == frozenset({"ops"})


def test_the_namespace_scope_reaches_every_live_target(
    monkeypatch: pytest.MonkeyPatch, opened: list[FleetApp], tmp_path: Path
) -> None:
    from olmtui.pipeline import fleet_sessions

    seen: list[Any] = []
    real = fleet_sessions.open_fleet

    def spy(targets: Any, settings: Any, jobs: Any = None, *rest: Any) -> Any:
        seen.append((targets, settings, jobs))
        return real(targets, settings, jobs, *rest)

    monkeypatch.setattr(fleet_sessions, "open_fleet", spy)
    config = tmp_path / "absent.kubeconfig"
    result = run_cli(
        "--fleet", "--context", "a", "--context", "b", "--kubeconfig", config,
        "--namespace", "ops", "--jobs", "3",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    ((targets, settings, jobs),) = seen
    assert [t.name for t in targets] == ["a", "b"] and jobs == 3
    assert settings.namespaces == ("ops",)
    assert _rows(opened[0]) == {"a": "bad-input", "b": "bad-input"}


def test_help_and_spec_list_the_fleet_dashboards_options() -> None:
    spec = json.loads(run_cli("--spec").stdout)
    dashboard = {f: o for o in spec["dashboard"]["options"] for f in o["flags"]}
    for flag in ("--fleet", "--all-contexts", "--targets", "--jobs", "--connect-timeout"):
        assert flag in dashboard and dashboard[flag]["help"], flag
    assert dashboard["--context"]["repeatable"] is True
    replay = next(c for c in spec["commands"] if c["name"] == "replay")
    assert "--fleet" in {f for o in replay["options"] for f in o["flags"]}
    assert "--fleet" in run_cli("--help").stdout and "Fleet view" in run_cli("--help").stdout
