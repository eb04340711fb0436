"""Live config loading: kubeconfig files, contexts, KUBECONFIG lists, in-cluster, refresh."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import wait_for

from olmtui.errors import UsageError
from olmtui.sources.cluster import live_config
from olmtui.sources.cluster.live_config import keep_credentials_fresh, load_cluster_config


def write_kubeconfig(
    path: Path, contexts: dict[str, str], current: str | None, user: dict | None = None
) -> Path:
    """A kubeconfig with one cluster per context (context name -> server URL)."""
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": f"c-{n}", "cluster": {"server": s}} for n, s in contexts.items()],
        "users": [{"name": "u", "user": user or {"token": "static-token"}}],
        "contexts": [{"name": n, "context": {"cluster": f"c-{n}", "user": "u"}} for n in contexts],
    }
    if current:
        doc["current-context"] = current
    path.write_text(yaml.safe_dump(doc))
    return path


async def test_explicit_kubeconfig_and_context_select_the_server(tmp_path: Path) -> None:
    path = write_kubeconfig(
        tmp_path / "kc", {"a": "http://127.0.0.1:1001", "b": "http://127.0.0.1:1002"}, "a"
    )
    current = await load_cluster_config(str(path), None)
    chosen = await load_cluster_config(str(path), "b")
    assert (current.label, current.configuration.host) == ("a", "http://127.0.0.1:1001")
    assert (chosen.label, chosen.configuration.host) == ("b", "http://127.0.0.1:1002")
    assert chosen.configuration.api_key["BearerToken"] == "Bearer static-token"


async def test_missing_kubeconfig_is_one_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"kubeconfig not found: .*nope"):
        await load_cluster_config(str(tmp_path / "nope"), None)


async def test_unknown_context_names_the_known_ones(tmp_path: Path) -> None:
    path = write_kubeconfig(tmp_path / "kc", {"a": "http://127.0.0.1:1"}, "a")
    with pytest.raises(UsageError, match=r"context 'zz' not found .*known: a\)"):
        await load_cluster_config(str(path), "zz")


async def test_no_current_context_asks_for_one(tmp_path: Path) -> None:
    path = write_kubeconfig(tmp_path / "kc", {"a": "http://127.0.0.1:1"}, None)
    with pytest.raises(UsageError, match="no current-context; pass --context"):
        await load_cluster_config(str(path), None)


async def test_malformed_kubeconfig_is_one_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "kc"
    path.write_text("clusters: 3\ncontexts: [1, 2]\n")
    with pytest.raises(UsageError, match="cannot read kubeconfig"):
        await load_cluster_config(str(path), None)


async def test_kubeconfig_env_list_is_read_at_call_time_and_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = write_kubeconfig(tmp_path / "one", {"a": "http://127.0.0.1:1001"}, "a")
    second = write_kubeconfig(tmp_path / "two", {"b": "http://127.0.0.1:1002"}, None)
    missing = tmp_path / "absent"
    monkeypatch.setenv("KUBECONFIG", f"{missing}:{first}:{second}")
    chosen = await load_cluster_config(None, "b")
    assert chosen.configuration.host == "http://127.0.0.1:1002"
    monkeypatch.setenv("KUBECONFIG", str(second))
    with pytest.raises(UsageError, match="context 'a' not found"):
        await load_cluster_config(None, "a")


async def test_the_first_file_of_a_kubeconfig_list_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kubectl's merge: the first file that sets the current context, or names a context,
    wins (kubernetes-asyncio's own merger lets the last current-context win)."""
    first = write_kubeconfig(tmp_path / "one", {"a": "http://127.0.0.1:1001"}, "a")
    second = write_kubeconfig(
        tmp_path / "two", {"a": "http://127.0.0.1:2001", "b": "http://127.0.0.1:2002"}, "b"
    )
    monkeypatch.setenv("KUBECONFIG", f"{first}:{second}")
    current = await load_cluster_config(None, None)
    assert (current.label, current.configuration.host) == ("a", "http://127.0.0.1:1001")
    other = await load_cluster_config(None, "b")
    assert other.configuration.host == "http://127.0.0.1:2002"


async def test_in_cluster_service_account_when_no_kubeconfig(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "token").write_text("sa-token")
    (tmp_path / "ca.crt").write_text("not checked until TLS is used")
    monkeypatch.setattr(live_config, "SERVICE_ACCOUNT_DIR", tmp_path)
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "absent"))
    monkeypatch.setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1")
    monkeypatch.setenv("KUBERNETES_SERVICE_PORT", "443")
    cluster = await load_cluster_config(None, None)
    assert cluster.configuration.host == "https://10.0.0.1:443"
    assert cluster.configuration.api_key["BearerToken"] == "Bearer sa-token"
    assert cluster.label.startswith("in-cluster")


async def test_no_kubeconfig_and_not_in_a_pod_is_one_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "absent"))
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with pytest.raises(UsageError, match="no kubeconfig found"):
        await load_cluster_config(None, None)


EXEC_PLUGIN = """
import json, pathlib, sys
counter = pathlib.Path(sys.argv[1])
n = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(n))
print(json.dumps({"apiVersion": "client.authentication.k8s.io/v1beta1",
                  "kind": "ExecCredential",
                  "status": {"token": f"exec-{n}", "expirationTimestamp": "2000-01-01T00:00:00Z"}}))
"""


async def test_exec_credentials_are_refreshed_for_long_sessions(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin.py"
    plugin.write_text(EXEC_PLUGIN)
    user = {
        "exec": {
            "apiVersion": "client.authentication.k8s.io/v1beta1",
            "command": sys.executable,
            "args": [str(plugin), str(tmp_path / "n")],
        }
    }
    path = write_kubeconfig(tmp_path / "kc", {"a": "http://127.0.0.1:1"}, "a", user)
    cluster = await load_cluster_config(str(path), None)
    assert cluster.configuration.api_key["BearerToken"] == "Bearer exec-1"
    refresher = asyncio.create_task(keep_credentials_fresh(cluster, interval=0.01))
    try:
        await wait_for(
            lambda: cluster.configuration.api_key["BearerToken"] != "Bearer exec-1",
            "the token refreshed",
        )
    finally:
        refresher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await refresher
    assert cluster.configuration.api_key["BearerToken"].startswith("Bearer exec-")
    assert cluster.configuration.api_key["BearerToken"] != "Bearer exec-1"


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "olmtui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def test_check_live_with_missing_kubeconfig_exits_2_with_one_line() -> None:
    result = run_cli("check", "--live", "--kubeconfig", "/nonexistent")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["olmtui: kubeconfig not found: /nonexistent"]


def test_check_live_with_unknown_context_exits_2_with_one_line(tmp_path: Path) -> None:
    path = write_kubeconfig(tmp_path / "kc", {"a": "http://127.0.0.1:1"}, "a")
    result = run_cli("check", "--live", "--kubeconfig", str(path), "--context", "nope")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "context 'nope' not found" in lines[0]


def test_check_live_against_an_unreachable_cluster_exits_2_with_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    path = write_kubeconfig(tmp_path / "kc", {"a": f"http://127.0.0.1:{port}"}, "a")
    result = run_cli("check", "--live", "--kubeconfig", str(path), "--output", "json")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the cluster" in lines[0], result.stderr
    assert json.loads(result.stdout or "null") is None


def test_a_refresh_cut_off_by_shutdown_leaves_no_plugin_pipes_open(tmp_path: Path) -> None:
    """A session that stops while an exec plugin runs waits for it: its pipes, cut off
    mid-run, would otherwise be closed by the garbage collector after the event loop, which
    fails and prints a traceback as the program exits."""
    plugin = tmp_path / "plugin.py"
    plugin.write_text("import time; time.sleep(0.5)\n" + EXEC_PLUGIN)
    user = {
        "exec": {
            "apiVersion": "client.authentication.k8s.io/v1beta1",
            "command": sys.executable,
            "args": [str(plugin), str(tmp_path / "n")],
        }
    }
    path = write_kubeconfig(tmp_path / "kc", {"a": "http://127.0.0.1:1"}, "a", user)

    async def session() -> None:
        cluster = await load_cluster_config(str(path), None)
        refresher = asyncio.create_task(keep_credentials_fresh(cluster, interval=0.01))
        await asyncio.sleep(0.2)  # the second plugin run is under way
        refresher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await refresher

    unraisable: list[object] = []
    previous = sys.unraisablehook
    sys.unraisablehook = unraisable.append
    try:
        asyncio.run(session())
        time.sleep(0.6)  # a plugin cut off would end now, and its pipes go to the collector
        gc.collect()
    finally:
        sys.unraisablehook = previous
    assert unraisable == []
    assert (tmp_path / "n").read_text() == "2"
