"""``olmtui diff INPUT --live``: the cluster read once (GET only) is the "after" side; a
snapshot saved from the same cluster is no difference, a change made on it is one."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from cli_in_process import run_cli
from data_paths import ROOT
from model_builders import namespace

from olmtui.apiserver import LoopbackAPIServer, run_in_thread

SAMPLE = ROOT / "olmtui" / "samples" / "cluster.yaml"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LoopbackAPIServer, Path]]:
    """The sample cluster served on loopback, with a Namespace for every namespace its
    objects are in (a snapshot infers missing ones, a cluster never lacks them), and its
    kubeconfig."""
    server = LoopbackAPIServer()
    objects = [o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o]
    held = {o["metadata"]["name"] for o in objects if o["kind"] == "Namespace"}
    used = {o["metadata"].get("namespace") for o in objects} - {None, *held}
    server.state.load([*objects, *(namespace(n) for n in sorted(used))], skip_unknown=True)
    thread = run_in_thread(server)
    try:
        yield server, server.write_kubeconfig(tmp_path_factory.mktemp("live") / "kubeconfig")
    finally:
        thread.stop()


def test_the_live_side_equals_the_snapshot_saved_from_it_then_a_change_shows(
    cluster: tuple[LoopbackAPIServer, Path], tmp_path: Path
) -> None:
    server, config = cluster
    saved = tmp_path / "saved.yaml"
    made = run_cli("snapshot", "-o", saved, "--kubeconfig", config, drop=("KUBECONFIG",))
    assert made.returncode == 0, made.stderr
    same = run_cli("diff", saved, "--live", "--kubeconfig", config, drop=("KUBECONFIG",))
    assert same.returncode == 0, same.stdout + same.stderr
    assert "no OLM state changed" in same.stdout
    assert "(live cluster)" in same.stdout

    sub = copy.deepcopy(server.state.get("Subscription", "team-a", "etcd"))
    assert sub is not None
    sub["spec"]["channel"] = "clusterwide-alpha"
    server.state.update(sub)
    moved = run_cli(
        "diff", saved, "--live", "--kubeconfig", config, "--output", "json", drop=("KUBECONFIG",)
    )
    assert moved.returncode == 1, moved.stderr
    answer = json.loads(moved.stdout)
    assert answer["from"]["kind"] == "snapshot" and answer["to"]["kind"] == "live"
    (entry,) = answer["objects"]["changed"]
    assert entry["ref"] == {"kind": "Subscription", "namespace": "team-a", "name": "etcd"}
    assert {w["field"] for w in entry["what"]} == {"spec.channel"}
    assert {r.method for r in server.requests} == {"GET"}
