"""Live source against the loopback API server (real kubernetes-asyncio, real HTTP):
discovery, the initial sync, metadata-only copies, watching, and the GET-only promise."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import wait_for
from live_support import (
    converged,
    differences,
    fast_options,
    must_gather_objects,
    package_manifests,
    start_server,
    started_source,
    stop_source,
)

from olmtui.apiserver import LoopbackAPIServer
from olmtui.errors import UsageError
from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.cluster.live_resources import METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT
from olmtui.store import Store


async def test_initial_sync_equals_server_state(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects() + package_manifests())
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert differences(store, server) == []
        assert store.count("ClusterServiceVersion") == 131
        assert store.count("PackageManifest") == len(package_manifests())
        assert source.label == "loopback"
        states = {name: s.state for name, s in source.status.streams.items()}
        assert set(states.values()) == {"live"}, states
    finally:
        await source.close()
        await server.stop()


async def test_copied_csvs_travel_as_metadata_only(tmp_path: Path) -> None:
    """R-COPY-1 copies (label olm.copiedFrom) are listed and watched with the
    PartialObjectMetadata Accept headers; the real CSVs in full, without the copies."""
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        await wait_for(lambda: server.open_watches >= 10, what="every stream watching")

        def watched(selector: str) -> bool:
            return any(
                r.query.get("watch") == "true" and r.query.get("labelSelector") == selector
                for r in server.requests
                if r.path.endswith("/clusterserviceversions")
            )

        # ten watches open said nothing of which ten: the copies' stream, one of fourteen,
        # was at times still listing (its watch not asked yet, the assertion below failed)
        await wait_for(
            lambda: watched("olm.copiedFrom") and watched("!olm.copiedFrom"),
            what="both CSV streams watching",
        )
        csv_requests = [r for r in server.requests if r.path.endswith("/clusterserviceversions")]
        copies = [r for r in csv_requests if r.query.get("labelSelector") == "olm.copiedFrom"]
        real = [r for r in csv_requests if r.query.get("labelSelector") == "!olm.copiedFrom"]
        assert {r.accept for r in copies if r.query.get("watch") != "true"} == {
            METADATA_LIST_ACCEPT
        }
        assert {r.accept for r in copies if r.query.get("watch") == "true"} == {
            METADATA_WATCH_ACCEPT
        }
        assert {r.accept for r in real} == {"application/json"}
        assert len(csv_requests) == len(copies) + len(real)
        copy = store.get("ClusterServiceVersion", "default", "image-caching-operator.v0.0.1")
        assert copy is not None and "spec" not in copy
        assert copy["metadata"]["labels"]["olm.copiedFrom"] == "cfe-test-namespace"
        original = store.get(
            "ClusterServiceVersion", "cfe-test-namespace", "image-caching-operator.v0.0.1"
        )
        assert original is not None and original["status"]["phase"] == "Pending"
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_watch_applies_adds_changes_and_deletes(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        sub = server.state.list("Subscription")[0]
        sub["spec"]["channel"] = "changed-channel"
        server.state.update(sub)
        server.state.create(
            {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "brand-new"}}
        )
        og = server.state.list("OperatorGroup")[0]
        server.state.delete("OperatorGroup", og["metadata"]["namespace"], og["metadata"]["name"])
        await converged(store, server)
        ns, name = sub["metadata"]["namespace"], sub["metadata"]["name"]
        assert store.get("Subscription", ns, name)["spec"]["channel"] == "changed-channel"
        assert store.get("Namespace", "", "brand-new") is not None
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_csv_upgrade_count_counts_replacements_seen_while_watching(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        assert source.csv_upgrade_count == 0
        old = server.state.get(
            "ClusterServiceVersion", "cfe-test-namespace", "projectrequestlimits.v0.0.1"
        )
        new = {
            "apiVersion": old["apiVersion"],
            "kind": "ClusterServiceVersion",
            "metadata": {"name": "projectrequestlimits.v0.0.2", "namespace": "cfe-test-namespace"},
            "spec": {**old["spec"], "version": "0.0.2", "replaces": "projectrequestlimits.v0.0.1"},
        }
        unrelated = {
            **new,
            "metadata": {**new["metadata"], "name": "other.v1"},
            "spec": {**new["spec"], "replaces": "not-there.v0"},
        }
        server.state.create(new)
        server.state.create(unrelated)
        await converged(store, server)
        assert source.csv_upgrade_count == 1
        assert source.status.csv_upgrade_count == 1
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_only_get_requests_leave_olmtui(tmp_path: Path) -> None:
    """A full session: list, watch, relist after compaction, reconnect after a restart."""
    server, kubeconfig = await start_server(tmp_path, must_gather_objects() + package_manifests())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        server.compact()
        server.state.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}})
        server.drop_connections()
        await converged(store, server)
        await server.restart()
        server.state.delete("Namespace", None, "x")
        await converged(store, server)
        assert server.requests
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_no_olm_on_the_cluster_is_one_clear_line(tmp_path: Path) -> None:
    """Discovery without operators.coreos.com is a clear message, not a crash."""
    server = LoopbackAPIServer(bookmark_interval=0.1)
    server.hide_group("operators.coreos.com")
    await server.start()
    kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
    source = LiveSource(Store(), fast_options(kubeconfig))
    try:
        with pytest.raises(UsageError, match=r"no OLM on .*operators\.coreos\.com"):
            await source.connect()
    finally:
        await source.close()
        await server.stop()
