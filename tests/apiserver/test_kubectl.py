"""Debian's kubectl against the loopback server, through a generated kubeconfig: the
server must look like a real cluster to an unmodified client."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from apiserver_support import all_objects
from kubectl_support import KUBECTL, kubectl, kubectl_fails, printed, watching

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    """The server on its own thread, and the environment that points kubectl at it."""
    server = LoopbackAPIServer()
    server.state.load(all_objects())
    with run_in_thread(server) as handle:
        kubeconfig = handle.write_kubeconfig(tmp_path / "kubeconfig", namespace="default")
        env = {**os.environ, "KUBECONFIG": str(kubeconfig), "HOME": str(tmp_path)}
        yield handle, env


def client_minor_version() -> int:
    """kubectl's minor version: the image ships 1.32, Debian's kubernetes-client is 1.20."""
    done = subprocess.run(
        [KUBECTL, "version", "--client", "-o", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return int(json.loads(done.stdout)["clientVersion"]["minor"].rstrip("+"))


def test_kubectl_get_csv_all_namespaces_lists_copies_with_olm_columns(cluster) -> None:
    handle, env = cluster
    lines = kubectl(env, "get", "csv", "-A").splitlines()
    assert lines[0].split() == ["NAMESPACE", "NAME", "DISPLAY", "VERSION", "REPLACES", "PHASE"]
    rows = {tuple(line.split()[:2]): line.split() for line in lines[1:]}
    assert len(rows) == 9
    assert rows[("default", "projectrequestlimits.v0.0.1")][-1] == "Installing"  # a copy
    assert rows[("openshift-operator-lifecycle-manager", "packageserver")][2:] == [
        "Package",
        "Server",
        "0.17.0",
        "Succeeded",
    ]
    requests = handle.server.requests
    assert {r.method for r in requests} == {"GET"}
    assert [r.path for r in requests if r.path.startswith("/api")][:2] == ["/api", "/apis"]
    per_group = any(r.path == "/apis/operators.coreos.com/v1alpha1" for r in requests)
    # kubectl >= 1.30 finds the resources through aggregated discovery, in two requests;
    # older clients (Debian's 1.20) ask every group/version for its resources.
    assert per_group == (client_minor_version() < 30)


def test_kubectl_resolves_short_names_and_the_context_namespace(cluster) -> None:
    _, env = cluster
    subs = kubectl(env, "get", "subs", "-n", "cfe-test-namespace").splitlines()
    assert subs[0].split() == ["NAME", "PACKAGE", "SOURCE", "CHANNEL"]
    assert len(subs) == 3
    in_default = kubectl(env, "get", "csv", "-o", "name").split()
    prefix = "clusterserviceversion.operators.coreos.com/"
    assert in_default == [
        f"{prefix}image-caching-operator.v0.0.1",
        f"{prefix}projectrequestlimits.v0.0.1",
    ]
    copies = kubectl(env, "get", "csv", "-A", "-l", "!olm.copiedFrom", "-o", "name").split()
    assert len(copies) == 3
    assert "packageserver" in kubectl(env, "get", "og,ip,catsrc,operatorconditions", "-A")


def test_kubectl_get_subscriptions_yaml_round_trips_the_objects(cluster) -> None:
    handle, env = cluster
    listed = yaml.safe_load(
        kubectl(env, "get", "subscriptions", "-n", "cfe-test-namespace", "-o", "yaml")
    )
    expected = handle.call(handle.server.state.list, "subscriptions", "cfe-test-namespace")
    assert listed["items"] == expected
    one = yaml.safe_load(
        kubectl(
            env,
            "get",
            "sub",
            "-n",
            "cfe-test-namespace",
            "-o",
            "yaml",
            "image-caching-operator-v0-0-1-sub",
        )
    )
    assert one == expected[0]


def test_kubectl_reports_missing_and_forbidden_like_a_real_cluster(cluster) -> None:
    handle, env = cluster
    missing = kubectl_fails(env, "get", "csv", "nope")
    assert 'clusterserviceversions.operators.coreos.com "nope" not found' in missing
    handle.call(handle.server.forbid, "csv")
    forbidden = kubectl_fails(env, "get", "csv", "-A")
    assert 'User "olmtui-test" cannot list resource "clusterserviceversions"' in forbidden


def test_kubectl_watch_shows_a_change_made_through_the_python_api(cluster) -> None:
    handle, env = cluster
    with watching(env, "get", "csv", "-A", "-w") as lines:
        printed(lines, "packageserver", 30)
        csv = handle.get("csv", "openshift-operator-lifecycle-manager", "packageserver")
        assert csv is not None
        handle.update({**csv, "status": {**csv["status"], "phase": "Replacing"}})
        changed = printed(lines, "Replacing", 30)
        assert changed.split()[:2] == ["openshift-operator-lifecycle-manager", "packageserver"]
        assert any(r.query.get("watch") == "true" for r in handle.server.requests)
