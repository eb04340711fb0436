"""Live faults at the command line: bad TLS material in a kubeconfig, an exec
credential plugin that never returns and a list that never answers are each one line on
stderr and exit 2, never a traceback or a hang."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from data_paths import ROOT

from olmtui.apiserver import LoopbackAPIServer, run_in_thread

SAMPLE = ROOT / "olmtui" / "samples" / "cluster.yaml"


def olmtui(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("KUBECONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "olmtui", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def assert_one_line_exit_2(result: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def kubeconfig(path: Path, cluster: dict[str, Any], user: dict[str, Any]) -> str:
    path.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "c", "cluster": cluster}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
                "users": [{"name": "u", "user": user}],
            }
        )
    )
    return str(path)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A self-signed certificate with its key, and a second key that does not match it."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    where = tmp_path_factory.mktemp("tls")
    run = [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=olmtui-test",
        "-days",
        "1",
        "-keyout",
        str(where / "key.pem"),
        "-out",
        str(where / "cert.pem"),
    ]
    subprocess.run(run, check=True, capture_output=True)
    other = ["openssl", "genrsa", "-out", str(where / "other.pem"), "2048"]
    subprocess.run(other, check=True, capture_output=True)
    return {name: (where / f"{name}.pem").read_bytes() for name in ("cert", "key", "other")}


SERVER = "https://127.0.0.1:9"


@pytest.mark.parametrize(
    ("cluster", "user"),
    [
        ({"server": SERVER, "certificate-authority-data": b64(b"garbage")}, {"token": "t"}),
        (
            {"server": SERVER, "insecure-skip-tls-verify": True},
            {"client-certificate-data": b64(b"garbage"), "client-key-data": b64(b"garbage")},
        ),
        ("mismatched", None),
    ],
    ids=["garbage-ca", "garbage-certificate", "mismatched-client-key"],
)
def test_bad_tls_material_is_one_line(
    tmp_path: Path, tls: dict[str, bytes], cluster: Any, user: Any
) -> None:
    if cluster == "mismatched":
        cluster = {"server": SERVER, "certificate-authority-data": b64(tls["cert"])}
        user = {"client-certificate-data": b64(tls["cert"]), "client-key-data": b64(tls["other"])}
    config = kubeconfig(tmp_path / "kubeconfig", cluster, user)
    result = olmtui("check", "--live", "--kubeconfig", config)
    assert_one_line_exit_2(result, "context 'c'")


def test_an_exec_plugin_that_never_returns_is_timed_out(tmp_path: Path) -> None:
    plugin = tmp_path / "hang.sh"
    plugin.write_text("#!/bin/sh\nexec sleep 20\n")
    plugin.chmod(0o755)
    user = {
        "exec": {
            "apiVersion": "client.authentication.k8s.io/v1beta1",
            "command": str(plugin),
            "interactiveMode": "Never",
        }
    }
    config = kubeconfig(tmp_path / "kubeconfig", {"server": "http://127.0.0.1:9"}, user)
    result = olmtui("check", "--live", "--kubeconfig", config, "--request-timeout", "1s")
    assert_one_line_exit_2(result, "exec plugin", "within 1 s")


def test_a_stalled_list_is_bounded_by_the_request_timeout(tmp_path: Path) -> None:
    server = LoopbackAPIServer()
    server.state.load([o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o], skip_unknown=True)
    thread = run_in_thread(server)
    try:
        config = server.write_kubeconfig(tmp_path / "kubeconfig")
        thread.call(server.stall_lists, True)
        result = olmtui("check", "--live", "--kubeconfig", str(config), "--request-timeout", "1")
        assert_one_line_exit_2(result, "did not answer within 1 s", "--request-timeout")
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        thread.stop()


def test_request_timeout_takes_kubectl_durations() -> None:
    from olmtui.sources.cluster.live_args import duration

    assert [duration(v) for v in ("30", "30s", "2m", "500ms")] == [30, 30, 120, 0.5]
    for bad in ("0", "-1s", "soon", "inf"):
        with pytest.raises(Exception, match="duration"):
            duration(bad)


def test_check_live_with_a_malformed_object_is_a_report_not_a_traceback(tmp_path: Path) -> None:
    server = LoopbackAPIServer()
    server.state.load([o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o], skip_unknown=True)
    thread = run_in_thread(server)
    try:
        thread.create(
            {
                "apiVersion": "operators.coreos.com/v1alpha1",
                "kind": "ClusterServiceVersion",
                "metadata": {"name": "malformed.v1", "namespace": "team-a"},
                "spec": 5,
            }
        )
        config = server.write_kubeconfig(tmp_path / "kubeconfig")
        result = olmtui("check", "--live", "--kubeconfig", str(config))
        assert "Traceback" not in result.stderr
        assert result.returncode in (0, 1), result.stderr
        assert "malformed.v1" in result.stdout
        assert "MalformedObject" in result.stdout and "served live" in result.stdout
    finally:
        thread.stop()


async def test_a_credential_refresh_that_never_returns_is_not_doubled() -> None:
    """An exec plugin hung on a refresh: logged after the timeout, and no second refresh
    starts beside it while it runs."""
    import asyncio
    import contextlib

    from kubernetes_asyncio.client import Configuration

    from olmtui.sources.cluster.live_config import ClusterConfig, keep_credentials_fresh

    started: list[int] = []

    class HungLoader:
        async def load_and_set(self, _configuration: Configuration) -> None:
            started.append(1)
            await asyncio.sleep(3600)

    cluster = ClusterConfig(Configuration(), "c", HungLoader())  # type: ignore[arg-type]
    refresher = asyncio.create_task(keep_credentials_fresh(cluster, interval=0.01, timeout=0.05))
    await asyncio.sleep(0.5)
    assert not refresher.done()
    assert started == [1]
    refresher.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await refresher
