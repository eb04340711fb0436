"""The Fleet dashboard's sessions (``pipeline/fleet_sessions.py``): one kept Session per
target read, a broken target a row with its status and reason (R-FLT-1), and each row's
numbers the same as ``check --fleet --output json`` prints for that target."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from fleet_view_support import fleet_folder

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.apiserver.kubeconfig import write_kubeconfig
from olmtui.model.fleet.row import TargetCounts
from olmtui.pipeline.fleet import FleetSettings
from olmtui.pipeline.fleet_sessions import FleetSessions, open_fleet
from olmtui.pipeline.fleet_targets import Target, TargetSpec, fleet_targets


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return fleet_folder(tmp_path_factory.mktemp("fleet-sessions"))


@pytest.fixture(scope="module")
def fleet(inputs: dict[str, Path]) -> FleetSessions:
    spec = TargetSpec(paths=(str(inputs["folder"]), str(inputs["broken"])))
    return open_fleet(fleet_targets(spec), FleetSettings(parse_workers=None))


def test_every_target_is_a_row_in_name_order_the_broken_one_with_its_reason(
    fleet: FleetSessions,
) -> None:
    statuses = {e.name: e.status()[0] for e in fleet.entries}
    assert statuses == {"alpha": "ok", "bravo": "ok", "charlie": "ok", "broken": "bad-input"}
    assert [e.name for e in fleet.entries] == sorted(statuses)
    broken = fleet.entry("broken")
    assert broken is not None and broken.session is None and broken.counts() is None
    assert broken.reason and "broken.tar.gz" in broken.reason and "\n" not in broken.reason


def test_each_session_is_built_once_and_kept(fleet: FleetSessions) -> None:
    entry = fleet.entry("alpha")
    assert entry is not None and entry.session is not None
    assert entry.session.label == "alpha"
    assert fleet.owns(entry.session)
    first = entry.kept()
    assert entry.kept() is first  # its analysis did not move: the report is not made again
    assert len(fleet.sessions()) == 3


def _check_fleet(inputs: dict[str, Path]) -> dict[str, Any]:
    result = run_cli("check", "--fleet", inputs["folder"], inputs["broken"], "--output", "json")
    assert result.returncode == 4, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_the_numbers_of_each_row_are_check_fleets_for_that_target(
    fleet: FleetSessions, inputs: dict[str, Path]
) -> None:
    document = _check_fleet(inputs)
    blocked = set(document["rollup"]["blockedForNextMinor"])
    for target in document["targets"]:
        entry = fleet.entry(target["name"])
        assert entry is not None
        assert entry.status() == (target["status"], target["reason"])
        summary = target["summary"]
        if summary is None:
            assert entry.counts() is None
            continue
        counts = entry.counts()
        assert counts == TargetCounts(
            errors=summary["findings"]["error"],
            warnings=summary["findings"]["warning"],
            not_healthy=len(summary["metrics"]["csv_abnormal"]),
            behind_head=summary["subscriptionsBehindHead"],
            blockers=counts.blockers if counts is not None else 0,
        )
        assert counts is not None and (counts.blockers > 0) == (target["name"] in blocked)
    bravo = fleet.entry("bravo")
    assert bravo is not None and bravo.counts() is not None
    assert bravo.counts().not_healthy == 1  # type: ignore[union-attr]


def test_the_rollup_is_check_fleets(fleet: FleetSessions, inputs: dict[str, Path]) -> None:
    document = _check_fleet(inputs)
    assert fleet.rollup() == document["rollup"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_a_live_target_that_cannot_be_reached_is_a_row_and_r_connects_it_again(
    tmp_path: Path,
) -> None:
    port = _free_port()
    config = write_kubeconfig(
        tmp_path / "dead.kubeconfig", f"http://127.0.0.1:{port}", context="dead"
    )
    target = Target("dead", "live", kubeconfig=str(config), context="dead")
    fleet = open_fleet([target], FleetSettings(connect_timeout=5.0))
    entry = fleet.entry("dead")
    assert entry is not None and entry.session is None and entry.counts() is None
    status, reason = entry.status()
    assert status == "unreachable" and reason and "\n" not in reason
    server = run_in_thread(LoopbackAPIServer(port=port))
    try:
        assert fleet.retry("dead") is entry
        assert entry.session is not None and fleet.owns(entry.session)
        assert entry.status() == ("syncing", None)  # connected; its watcher not started yet
        assert {r.method for r in server.server.requests} == {"GET"}
    finally:
        server.stop()
