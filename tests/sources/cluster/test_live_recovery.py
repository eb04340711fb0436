"""Live source through trouble: restarts, compaction (410), 403, half-open connections,
cut streams, namespace-scoped sessions. Each ends with the cache equal to the server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from conftest import wait_for
from live_support import (
    converged,
    fast_options,
    must_gather_objects,
    start_server,
    started_source,
    stop_source,
)

from olmtui.store import Store

NEW_NS = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "added-while-away"}}


def lists(server, kind_path: str) -> int:
    return sum(
        1 for r in server.requests if r.path.endswith(kind_path) and r.query.get("watch") != "true"
    )


async def test_server_restart_mid_watch_recovers(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        await server.stop()
        await wait_for(lambda: source.status.reconnecting_since is not None, what="reconnecting")
        assert not source.status.connected
        server.state.create(NEW_NS)
        sub = server.state.list("Subscription")[0]
        server.state.delete("Subscription", sub["metadata"]["namespace"], sub["metadata"]["name"])
        await server.restart()
        await converged(store, server)
        await wait_for(lambda: source.status.connected, what="connected again")
        assert store.get("Namespace", "", "added-while-away") is not None
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_410_after_compaction_relists_and_converges(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        before = lists(server, "/subscriptions")
        await server.stop()
        sub = server.state.list("Subscription")[0]
        server.state.delete("Subscription", sub["metadata"]["namespace"], sub["metadata"]["name"])
        server.state.create(NEW_NS)
        await server.restart(clear_history=True)
        await converged(store, server)
        # a dropped connection alone re-watches from the last version; only a 410 relists
        assert lists(server, "/subscriptions") > before
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_403_on_one_kind_leaves_the_others_live(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    server.forbid("subscriptions")
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig, forbidden_recheck=0.3))
    try:
        status = source.status
        await wait_for(lambda: status.stream("Subscription").state == "no access", what="no access")
        await wait_for(lambda: store.count("ClusterServiceVersion") == 131, what="CSVs")
        others = {n: s.state for n, s in status.streams.items() if n != "Subscription"}
        await wait_for(
            lambda: all(
                s.state == "live" for n, s in status.streams.items() if n != "Subscription"
            ),
            what=f"others live: {others}",
        )
        assert store.count("Subscription") == 0
        assert "forbidden" in status.stream("Subscription").last_error
        asked = sum(1 for r in server.requests if r.path.endswith("/subscriptions"))
        await asyncio.sleep(1.0)
        asked_again = sum(1 for r in server.requests if r.path.endswith("/subscriptions"))
        assert asked_again - asked <= 6, "a 403 must not be retried in a loop"
        server.allow("subscriptions")
        await converged(store, server)
        await wait_for(lambda: status.stream("Subscription").state == "live", what="live")
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_half_open_connection_is_caught_by_the_read_timeout(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig, read_timeout=0.6))
    try:
        await converged(store, server)
        server.stall_watches(True)
        server.state.create(NEW_NS)
        await wait_for(
            lambda: "read timeout" in source.status.stream("Namespace").last_error,
            what="read timeout noticed",
        )
        assert store.get("Namespace", "", "added-while-away") is None
        server.stall_watches(False)
        await converged(store, server)
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_cut_streams_reconnect_from_the_last_version(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        before = lists(server, "/namespaces")
        for round_ in range(3):
            server.drop_connections()
            server.state.create({**NEW_NS, "metadata": {"name": f"cut-{round_}"}})
            await converged(store, server)
        assert lists(server, "/namespaces") == before, "a network error needs no relist"
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_namespaces_option_watches_only_those_namespaces(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    server.forbid("subscriptions", "openshift-monitoring")
    store = Store()
    wanted = ["cfe-test-namespace", "openshift-monitoring"]
    source, task = await started_source(store, fast_options(kubeconfig, namespaces=wanted))
    try:
        status = source.status
        await wait_for(
            lambda: status.stream("Subscription in openshift-monitoring").state == "no access",
            what="no access in one namespace",
        )
        await wait_for(
            lambda: status.stream("ClusterServiceVersion in cfe-test-namespace").state == "live",
            what="live in the other",
        )
        await wait_for(lambda: status.stream("Namespace").state == "live", what="namespaces")
        csv_namespaces = {k.namespace for k, _ in store.items("ClusterServiceVersion")}
        assert csv_namespaces == set(wanted)
        assert store.count("Namespace") == len(server.state.list("Namespace"))
        namespaced = [
            r.path
            for r in server.requests
            if "/operators.coreos.com/" in r.path and not r.path.endswith("/olmconfigs")
        ]
        assert namespaced and all("/namespaces/" in p for p in namespaced)
        server.state.create(
            {
                "apiVersion": "operators.coreos.com/v1",
                "kind": "OperatorGroup",
                "metadata": {"name": "late", "namespace": "cfe-test-namespace"},
                "spec": {},
            }
        )
        await wait_for(
            lambda: store.get("OperatorGroup", "cfe-test-namespace", "late") is not None,
            what="watched in its namespace",
        )
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_namespaces_are_fetched_one_by_one_when_listing_them_is_forbidden(
    tmp_path: Path,
) -> None:
    """R-OG-1 selectors match namespace labels, so a --namespace user who may GET but not
    list namespaces still gets their Namespace objects."""
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    server.forbid("namespaces", verbs=["list", "watch"])
    store = Store()
    wanted = ["cfe-test-namespace", "openshift-monitoring", "not-there"]
    source, task = await started_source(store, fast_options(kubeconfig, namespaces=wanted))
    try:
        status = source.status
        await wait_for(lambda: status.stream("Namespace").state == "no access")
        await wait_for(lambda: store.count("Namespace") == 2, what="two namespaces fetched")
        assert {k.name for k, _ in store.items("Namespace")} == set(wanted[:2])
        monitoring = store.get("Namespace", "", "openshift-monitoring")
        assert monitoring == server.state.get("Namespace", None, "openshift-monitoring")
        assert status.stream("Namespace (one by one)").state == "live"
        gets = [  # a Namespace by name, not a namespaced kind's list
            r
            for r in server.requests
            if r.path.startswith("/api/v1/namespaces/") and r.path.count("/") == 4
        ]
        assert {r.path.rsplit("/", 1)[1] for r in gets} == set(wanted)
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_many_namespaces_each_keep_their_watches(tmp_path: Path) -> None:
    """A --namespace session holds one watch per namespaced stream and namespace: with 20
    namespaces that is over 140 open watches, more than kubernetes-asyncio's default
    connection pool (100). Every one of them stays open and delivers."""
    wanted = [f"tenant-{i:02d}" for i in range(20)]
    objs = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}} for ns in wanted]
    server, kubeconfig = await start_server(tmp_path, objs)
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig, namespaces=wanted))
    try:
        streams = source.status.streams
        await wait_for(
            lambda: (
                len(streams) > 140
                and all(s.state == "live" for n, s in streams.items() if n != "PackageManifest")
            ),
            what="every stream live",
        )
        await wait_for(lambda: server.open_watches >= 140, what="every watch open")
        for ns in (wanted[0], wanted[-1]):
            server.state.create(
                {
                    "apiVersion": "operators.coreos.com/v1",
                    "kind": "OperatorGroup",
                    "metadata": {"name": "late", "namespace": ns},
                    "spec": {},
                }
            )
        await wait_for(lambda: store.count("OperatorGroup") == 2, what="both groups seen")
    finally:
        await stop_source(source, task)
        await server.stop()
