"""``olmtui mcp --live`` against the loopback API server, through the MCP SDK's client over
stdio: the answers say when the live sync has finished (``source.complete``), then agree with
``check --live`` on the same cluster; the one watcher follows the cluster for the server's
lifetime (an object deleted on the server leaves the answers); and every tool, ``whatif``
and ``diff`` included, sends only GET requests: nothing is ever written to the cluster."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from live_support import sample_objects
from mcp_support import McpClient
from snapshot_files import yaml_documents

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread

NAMESPACE = "cfe-test-namespace"
PLAN = "install-bfnbn"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, Path]]:
    server = LoopbackAPIServer()
    server.state.load(sample_objects(), skip_unknown=True)
    thread = run_in_thread(server)
    try:
        yield thread, server.write_kubeconfig(tmp_path_factory.mktemp("mcp") / "kubeconfig")
    finally:
        thread.stop()


def _until(client: McpClient, tool: str, arguments: dict[str, Any], done: Any) -> Any:
    """Ask again until ``done(answer)``; the live sync and the watch take their time."""
    deadline = time.monotonic() + 60
    while True:
        result = client.call(tool, arguments)
        if done(result):
            return result
        assert time.monotonic() < deadline, f"{tool} never got there: {result}"
        time.sleep(0.2)


def _keys(findings: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    return {(f["code"], f["kind"], f["namespace"], f["name"]) for f in findings}


def test_a_live_session_is_answered_from_its_watched_cache_with_get_requests_only(
    cluster: tuple[ServerThread, Path],
) -> None:
    thread, kubeconfig = cluster
    with McpClient(["--live", "--kubeconfig", str(kubeconfig)]) as client:
        synced = _until(
            client,
            "report_summary",
            {},
            lambda r: r.structured_content["source"]["complete"],
        ).structured_content
        assert synced["source"]["kind"] == "live"
        once = run_cli("check", "--live", "--kubeconfig", kubeconfig, "--output", "json")
        assert once.returncode in (0, 1), once.stderr
        checked = json.loads(once.stdout)
        # the same findings on the same objects; a followed cluster measures ages against the
        # wall clock (as the dashboard does: a CSV installing for years is an error there),
        # a cluster read once against none, so a severity may differ
        assert _keys(client.answer("findings")["findings"]) == _keys(checked["findings"])
        assert synced["summary"]["csvs"] == checked["summary"]["csvs"]
        # every tool, on the live cache
        plan = {"kind": "ip", "namespace": NAMESPACE, "name": PLAN}
        assert client.answer("object", plan)["object"]["present"] is True
        client.answer("incidents", {"namespace": NAMESPACE})
        client.answer("explain", {"namespace": NAMESPACE})
        assert "catalog content" in client.error("upgrade_graph", {"package": "etcd"})
        action = {"action": "delete", "object": f"ip/{NAMESPACE}/{PLAN}"}
        client.answer("whatif", {"actions": [action]})
        # the live cache against a snapshot of what the cluster was loaded with: nothing
        # OLM decides differs (server-set fields are noise, R-REC-7)
        snapshot = kubeconfig.parent / "loaded.yaml"
        snapshot.write_text(yaml_documents(sample_objects()))
        compared = client.answer("diff", {"before": str(snapshot)})
        assert compared["to"]["kind"] == "live"
        assert compared["pages"]["objects.added"]["total"] == 0
        assert compared["pages"]["objects.removed"]["total"] == 0
        # the same watcher follows the cluster: a plan deleted on the server leaves the cache
        assert thread.get("InstallPlan", NAMESPACE, PLAN) is not None  # whatif wrote nothing
        thread.delete("InstallPlan", NAMESPACE, PLAN)
        _until(client, "object", plan, lambda r: r.is_error or not _present(r))
    requests = thread.call(lambda: list(thread.server.requests))
    assert requests and {r.method for r in requests} == {"GET"}


def _present(result: Any) -> bool:
    return bool(result.structured_content["object"]["present"])
