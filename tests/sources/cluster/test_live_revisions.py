"""OLM v1 revisions live (R-V1-24): ClusterObjectSets (and ClusterExtensionRevisions, their
older name) listed and watched with GET only and trimmed to names and references; a cluster
whose gate is off answers 404, which is said nothing about; a 403 is "no access" for
ClusterObjectSets, and quiet for the old name (an API server answers 403 for a resource it
does not serve too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import wait_for
from live_support import converged, fast_options, start_server, started_source, stop_source
from v1_objects import extension, object_set

from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.cluster.live_once import access_findings
from olmtui.store import Store

Obj = dict[str, Any]


def _objects() -> list[Obj]:
    return [
        extension(),
        object_set("argocd-1", revision=1),
        object_set("argocd-old", revision=1, kind="ClusterExtensionRevision"),
    ]


async def test_revisions_are_listed_watched_and_trimmed(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, _objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        kept = store.get("ClusterObjectSet", "", "argocd-1")
        assert kept is not None and kept["spec"]["revision"] == 1
        # R-V1-24: no manifest: the Deployment's spec is not in the cache
        assert "template" not in str(kept)
        assert store.get("ClusterExtensionRevision", "", "argocd-old") is not None
        await wait_for(
            lambda: source.status.stream("ClusterObjectSet").state == "live", what="live"
        )
        server.state.create(object_set("argocd-2", state="rolling-out"))
        await converged(store, server)
        assert store.get("ClusterObjectSet", "", "argocd-2") is not None
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_a_cluster_without_the_revisions_api_is_silent(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, [extension()])
    server.hide_resource("clusterobjectsets")
    server.hide_resource("clusterextensionrevisions")
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert source.status.stream("ClusterObjectSet").state == "unavailable"
        assert source.status.stream("ClusterExtension").state == "live"
        assert store.unreadable == {}
        assert access_findings(source) == []
    finally:
        await source.close()
        await server.stop()


async def test_403_on_revisions_is_no_access_and_quiet_for_the_old_name(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, _objects())
    server.forbid("clusterobjectsets")
    server.forbid("clusterextensionrevisions")
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert set(store.unreadable) == {"ClusterObjectSet"}
        assert store.unreadable["ClusterObjectSet"].resource == "clusterobjectsets"
        assert source.status.stream("ClusterExtensionRevision").state == "no access"
        assert store.count("ClusterObjectSet") == 0
        assert store.get("ClusterExtension", "", "argocd") is not None
    finally:
        await source.close()
        await server.stop()
