"""``olmtui whatif --live`` against the loopback API server: the cluster is read with GET
requests only and nothing is written, whatever the actions say (R-SRC: live mode is
read-only; the simulation changes a copy of what was read)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from data_paths import ROOT

from olmtui.apiserver import LoopbackAPIServer, run_in_thread

SAMPLE = ROOT / "olmtui" / "samples" / "cluster.yaml"


def test_whatif_live_sends_only_gets_and_writes_nothing(tmp_path: Path) -> None:
    server = LoopbackAPIServer()
    server.state.load([o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o], skip_unknown=True)
    thread = run_in_thread(server)
    try:
        config = server.write_kubeconfig(tmp_path / "kubeconfig")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("KUBECONFIG", None)
        argv = [
            "whatif",
            "--live",
            "--kubeconfig",
            str(config),
            "--delete",
            "ip/cfe-test-namespace/install-bfnbn",
            "--patch",
            "sub/cfe-test-namespace/image-caching-operator-v0-0-1-sub",
            "spec.installPlanApproval=Manual",
            "--output",
            "json",
        ]
        result = subprocess.run(
            [sys.executable, "-m", "olmtui", *argv],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert result.returncode in (0, 1), result.stderr
        assert '"actions"' in result.stdout
        assert server.requests and {r.method for r in server.requests} == {"GET"}
        # read again: the InstallPlan is still there
        again = subprocess.run(
            [
                sys.executable,
                "-m",
                "olmtui",
                "check",
                "--live",
                "--kubeconfig",
                str(config),
                "--output",
                "json",
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert "install-bfnbn" in again.stdout
    finally:
        thread.stop()
