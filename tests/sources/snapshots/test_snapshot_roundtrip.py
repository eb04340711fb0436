"""``olmtui snapshot`` round trip: the report of ``check --live`` equals the report of
``check`` on the saved snapshot (``source`` aside), as one file and as a directory."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from live_support import must_gather_objects, package_manifests

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread
from olmtui.cli import main


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[ServerThread, Path]]:
    handle = run_in_thread(LoopbackAPIServer(bookmark_interval=0.2))
    handle.load(must_gather_objects() + package_manifests(), skip_unknown=True)
    try:
        yield handle, handle.write_kubeconfig(tmp_path / "kubeconfig")
    finally:
        handle.stop()


def report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    status = main(["check", *args, "--output", "json"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("target", ["snapshot.yaml", "snapshot-dir"])
def test_check_on_a_saved_snapshot_equals_check_live(
    cluster: tuple[ServerThread, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    _, kubeconfig = cluster
    live_status, live = report(capsys, "--live", "--kubeconfig", str(kubeconfig))
    assert live["source"]["kind"] == "live"
    assert live["summary"]["csvs"] == 3 and live["summary"]["copiedCSVs"] == 128

    out = tmp_path / target
    assert main(["snapshot", "-o", str(out), "--kubeconfig", str(kubeconfig)]) == 0
    assert "saved" in capsys.readouterr().out
    saved_status, saved = report(capsys, str(out))

    assert saved["source"]["kind"] == "snapshot"
    live.pop("source")
    saved.pop("source")
    assert saved == live
    assert saved_status == live_status


def test_snapshot_file_is_multi_document_yaml_and_dir_has_one_file_per_kind(
    cluster: tuple[ServerThread, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    handle, kubeconfig = cluster
    assert main(["snapshot", "-o", str(tmp_path / "s.yml"), "--kubeconfig", str(kubeconfig)]) == 0
    docs = list(yaml.load_all((tmp_path / "s.yml").read_bytes(), Loader=yaml.CSafeLoader))
    kinds = {d["kind"] for d in docs}
    assert {"ClusterServiceVersion", "PackageManifest", "Namespace", "Subscription"} <= kinds
    csvs = [d for d in docs if d["kind"] == "ClusterServiceVersion"]
    assert len(csvs) == len(handle.call(handle.server.state.list, "ClusterServiceVersion"))
    copies = [d for d in csvs if "olm.copiedFrom" in d["metadata"].get("labels", {})]
    assert copies and all("spec" not in d for d in copies)

    assert main(["snapshot", "-o", str(tmp_path / "d"), "--kubeconfig", str(kubeconfig)]) == 0
    files = sorted(p.name for p in (tmp_path / "d").iterdir())
    assert "clusterserviceversions.yaml" in files and "packagemanifests.yaml" in files
    for path in (tmp_path / "d").iterdir():
        kinds = {d["kind"] for d in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader)}
        assert len(kinds) == 1, path


def test_snapshot_without_a_cluster_is_one_usage_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            ["snapshot", "-o", str(tmp_path / "x.yaml"), "--kubeconfig", str(tmp_path / "missing")]
        )
        == 2
    )
    assert capsys.readouterr().err.strip().splitlines() == [
        f"olmtui: kubeconfig not found: {tmp_path / 'missing'}"
    ]
    assert not (tmp_path / "x.yaml").exists()
