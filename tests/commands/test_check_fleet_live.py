"""``olmtui check --fleet`` over live clusters: several loopback API servers at once, one
healthy, one refusing a kind (403), one refusing the credentials (401), one that accepts and
never answers, one whose connection is cut in the middle of a list. Each target read equals a
single ``check --live`` of it, the others carry their status (R-FLT-1), the exit status is 4,
only GET requests are sent and the kubeconfig's token is printed nowhere."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_in_process import run_cli
from data_paths import ROOT
from fleet_support import (
    CuttingProxy,
    parse_exposition,
    silent_cluster,
    validate_fleet,
    validate_fleet_target,
)

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread
from olmtui.apiserver.kubeconfig import write_kubeconfig

SAMPLE = ROOT / "olmtui" / "samples" / "cluster.yaml"
#: A bearer token no output may show.
TOKEN = "planted-fleet-token-6f1c2b"
#: The ``--connect-timeout`` the silent cluster is given up after (seconds).
CONNECT = "4s"


@functools.cache
def _documents() -> tuple[dict[str, Any], ...]:
    return tuple(o for o in yaml.load_all(SAMPLE.read_bytes(), Loader=yaml.CSafeLoader) if o)


def _objects() -> list[dict[str, Any]]:
    return copy.deepcopy(list(_documents()))


class Fleet:
    """The module's clusters: their servers and a kubeconfig per target name."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.threads: list[ServerThread] = []
        self.configs: dict[str, Path] = {}
        self.servers: dict[str, LoopbackAPIServer] = {}

    def serve(self, name: str, server: LoopbackAPIServer) -> ServerThread:
        server.state.load(_objects(), skip_unknown=True)
        thread = run_in_thread(server)
        self.threads.append(thread)
        self.servers[name] = server
        self.configs[name] = server.write_kubeconfig(
            self.tmp / f"{name}.kubeconfig", context=name, token=TOKEN
        )
        return thread


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    tmp = tmp_path_factory.mktemp("fleet")
    fleet = Fleet(tmp)
    fleet.serve("healthy", LoopbackAPIServer())
    forbidding = LoopbackAPIServer()
    forbidding.forbid("installplans")
    fleet.serve("forbidding", forbidding)
    refusing = LoopbackAPIServer()
    refusing.fail_discovery(401, times=1_000_000)
    fleet.serve("refusing", refusing)
    upstream = fleet.serve("cut", LoopbackAPIServer())
    proxy = CuttingProxy(upstream.server.port, "subscriptions")
    fleet.configs["cut"] = write_kubeconfig(
        tmp / "cut.kubeconfig", f"http://127.0.0.1:{proxy.port}", context="cut", token=TOKEN
    )
    with silent_cluster(tmp / "silent.kubeconfig") as silent:
        fleet.configs["silent"] = silent
        try:
            yield fleet
        finally:
            proxy.close()
            for thread in fleet.threads:
                thread.stop()


def _run(fleet: Fleet) -> dict[str, Any]:
    """One fleet run over every cluster (a targets file, JSON), its Prometheus file too."""
    targets = fleet.tmp / "targets.txt"
    lines = [
        "# the module's clusters",
        *(f"kubeconfig:{p}  # {n}" for n, p in fleet.configs.items()),
    ]
    targets.write_text("\n".join(lines) + "\n")
    prom = fleet.tmp / "fleet.prom"
    result = run_cli(
        "check",
        "--fleet",
        "--targets",
        targets,
        "--connect-timeout",
        CONNECT,
        "--prometheus",
        prom,
        "--output",
        "json",
        drop=("KUBECONFIG",),
    )
    return {"result": result, "json": json.loads(result.stdout), "prom": prom.read_text()}


def _target(run: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [t for t in run["json"]["targets"] if t["name"] == name]
    assert len(found) == 1, [t["name"] for t in run["json"]["targets"]]
    return found[0]


def test_five_clusters_at_once(fleet: Fleet) -> None:
    """One run (about ten seconds: its slowest targets wait out their timeouts and
    retries), every promise checked on it."""
    run = _run(fleet)
    _every_target_has_its_status_and_the_run_exits_4(run)
    for name in ("healthy", "forbidding"):
        _each_target_read_equals_a_single_check_of_it(run, fleet, name)
    _only_get_requests_reach_the_clusters(fleet)
    _the_token_is_printed_nowhere(run)
    _the_prometheus_file_parses_and_says_which_targets_are_up(run)


def _every_target_has_its_status_and_the_run_exits_4(run: dict[str, Any]) -> None:
    assert run["result"].returncode == 4, run["result"].stderr
    validate_fleet(run["json"])
    statuses = {t["name"]: t["status"] for t in run["json"]["targets"]}
    assert statuses == {
        "cut": "unreachable",
        "forbidding": "partial",
        "healthy": "ok",
        "refusing": "unauthorized",
        "silent": "timeout",
    }
    assert [t["name"] for t in run["json"]["targets"]] == sorted(statuses)
    assert "--connect-timeout" in _target(run, "silent")["reason"]
    assert "listing Subscription" in _target(run, "cut")["reason"]
    assert "401" in _target(run, "refusing")["reason"]
    partial = _target(run, "forbidding")
    assert partial["source"]["complete"] is False
    assert any("nstall" in r for r in partial["source"]["incompleteBecause"])
    assert run["json"]["rollup"]["statuses"]["ok"] == 1


def _each_target_read_equals_a_single_check_of_it(
    run: dict[str, Any], fleet: Fleet, name: str
) -> None:
    single = run_cli(
        "check",
        "--live",
        "--kubeconfig",
        fleet.configs[name],
        "--output",
        "json",
        drop=("KUBECONFIG",),
    )
    assert single.returncode in (0, 1), single.stderr
    report = json.loads(single.stdout)
    target = _target(run, name)
    assert target["findings"] == report["findings"]
    assert target["incidents"] == report["incidents"]
    assert target["summary"] == report["summary"]


def _only_get_requests_reach_the_clusters(fleet: Fleet) -> None:
    for name, server in fleet.servers.items():
        assert server.requests, name
        assert {r.method for r in server.requests} == {"GET"}, name


def _the_token_is_printed_nowhere(run: dict[str, Any]) -> None:
    result = run["result"]
    for text in (result.stdout, result.stderr, run["prom"]):
        assert TOKEN not in text


def _the_prometheus_file_parses_and_says_which_targets_are_up(run: dict[str, Any]) -> None:
    parsed = parse_exposition(run["prom"])
    assert parsed["type"] == {"olmtui_findings": "gauge", "olmtui_target_up": "gauge"}
    up = {s[1]["target"]: s[2] for s in parsed["samples"] if s[0] == "olmtui_target_up"}
    assert up == {"cut": 0, "forbidding": 1, "healthy": 1, "refusing": 0, "silent": 0}
    healthy = [
        s for s in parsed["samples"] if s[0] == "olmtui_findings" and s[1]["target"] == "healthy"
    ]
    assert sum(s[2] for s in healthy) == len(_target(run, "healthy")["findings"])


def test_jsonl_streams_a_line_per_target_then_the_rollup(fleet: Fleet) -> None:
    result = run_cli(
        "check",
        "--fleet",
        "--kubeconfig",
        fleet.configs["healthy"],
        "--kubeconfig",
        fleet.configs["silent"],
        "--connect-timeout",
        CONNECT,
        "--namespace",
        "team-a",
        "--output",
        "jsonl",
        drop=("KUBECONFIG",),
    )
    assert result.returncode == 4
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert list(lines[-1]) == ["rollup"]
    targets = {t["name"]: t for t in lines[:-1]}
    assert set(targets) == {"healthy", "silent"}
    for target in targets.values():
        validate_fleet_target(target)
    # --namespace applies to every live target
    assert targets["healthy"]["source"]["namespaces"] == ["team-a"]
    assert "[2/2]" in result.stderr


def test_the_deadline_ends_the_run_with_the_unread_targets_timed_out(fleet: Fleet) -> None:
    result = run_cli(
        "check",
        "--fleet",
        "--kubeconfig",
        fleet.configs["healthy"],
        "--kubeconfig",
        fleet.configs["silent"],
        "--connect-timeout",
        "60s",
        "--deadline",
        "3s",
        "--output",
        "json",
        drop=("KUBECONFIG",),
    )
    assert result.returncode == 4
    targets = {t["name"]: t for t in json.loads(result.stdout)["targets"]}
    assert targets["healthy"]["status"] == "ok"
    assert targets["silent"]["status"] == "timeout"
    assert "--deadline of 3 s" in targets["silent"]["reason"]
