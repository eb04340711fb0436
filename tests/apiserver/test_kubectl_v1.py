"""Debian's kubectl against the loopback server's OLM v1 kinds (R-V1-1): discovery, the CRDs'
printer columns, ``-w``, and catalogd's ``all`` through the service proxy (R-V1-21)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from kubectl_support import kubectl, kubectl_fails, printed, watching
from v1_cluster import FBC_FILES, cluster_catalog, cluster_extension, fbc_lines

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread

PROXY = (
    "/api/v1/namespaces/olmv1-system/services/https:catalogd-service:443/proxy"
    "/catalogs/{}/api/v1/all"
)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    server = LoopbackAPIServer()
    not_serving = cluster_catalog("broken", serving=False)
    del not_serving["status"]["lastUnpacked"]
    server.state.load([cluster_catalog("operatorhubio"), not_serving, cluster_extension("argocd")])
    server.catalogd.serve("operatorhubio", fbc_lines(FBC_FILES[1:2]))
    with run_in_thread(server) as handle:
        kubeconfig = handle.write_kubeconfig(tmp_path / "kubeconfig", namespace="default")
        env = {**os.environ, "KUBECONFIG": str(kubeconfig), "HOME": str(tmp_path)}
        yield handle, env


def test_kubectl_get_clusterextensions_prints_the_crd_columns(cluster) -> None:
    handle, env = cluster
    lines = kubectl(env, "get", "clusterextensions").splitlines()
    assert lines[0].split() == [
        "NAME",
        "INSTALLED",
        "BUNDLE",
        "VERSION",
        "INSTALLED",
        "PROGRESSING",
        "AGE",
    ]
    assert lines[1].split()[:5] == ["argocd", "infinispan.v2.4.0", "2.4.0", "True", "True"]
    assert len(lines) == 2
    named = kubectl(env, "get", "clusterextension", "argocd", "-o", "name").split()
    assert named == ["clusterextension.olm.operatorframework.io/argocd"]
    assert {r.method for r in handle.server.requests} == {"GET"}


def test_kubectl_get_clustercatalogs_prints_serving_and_last_unpacked(cluster) -> None:
    _, env = cluster
    lines = kubectl(env, "get", "clustercatalogs").splitlines()
    assert lines[0].split() == ["NAME", "LASTUNPACKED", "SERVING", "AGE"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert rows["operatorhubio"][2] == "True"
    assert rows["broken"][1] == "False", "no lastUnpacked: an empty cell"
    paged = kubectl(env, "get", "clustercatalogs", "--chunk-size=1", "-o", "name").split()
    assert paged == [
        "clustercatalog.olm.operatorframework.io/broken",
        "clustercatalog.olm.operatorframework.io/operatorhubio",
    ]


def test_kubectl_watch_clusterextensions(cluster) -> None:
    handle, env = cluster
    with watching(env, "get", "clusterextensions", "-w") as lines:
        printed(lines, "argocd", 30)
        handle.create(cluster_extension("quay", "quay-operator"))
        added = printed(lines, "quay", 30)
        assert added.split()[:3] == ["quay", "quay-operator.v2.4.0", "2.4.0"]
        watches = [r for r in handle.server.requests if r.query.get("watch") == "true"]
        assert any(r.path.endswith("/clusterextensions") for r in watches)


def test_kubectl_get_raw_reads_catalogd_through_the_service_proxy(cluster) -> None:
    handle, env = cluster
    body = kubectl(env, "get", "--raw", PROXY.format("operatorhubio"))
    assert body.encode() == fbc_lines(FBC_FILES[1:2])
    kubectl_fails(env, "get", "--raw", PROXY.format("nope"))
    handle.call(handle.server.forbid_service_proxy, "olmv1-system")
    forbidden = kubectl_fails(env, "get", "--raw", PROXY.format("operatorhubio"))
    assert 'cannot get resource "services/proxy"' in forbidden
