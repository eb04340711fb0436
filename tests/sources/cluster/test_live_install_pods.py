"""R-EVD-12 live: the pods of a non-Succeeded CSV's Deployments are listed and watched in its
namespace by the Deployment's ``matchLabels`` (GET only, paged, one stream per distinct
selector), stop being read once the CSV succeeds (and leave the cache), and a 403 is "no
access" for pods in that namespace alone. A pod's Event that arrived before its namespace
was one of OLM's is read once the namespace becomes one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import wait_for
from live_support import converged, fast_options, start_server, started_source, stop_source
from model_builders import catalog_source, cluster_event, csv, deployment, namespace, pod

from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.cluster.live_http import PAGE_SIZE
from olmtui.store import Store

MARKET = "openshift-marketplace"
NS = "team-a"
SELECTOR = {"control-plane": "op", "app": "op"}
#: The selector as sent: keys sorted, comma-separated.
SENT = "app=op,control-plane=op"
POD = "op-controller-7d9f8b6c5-x2k4p"
Obj = dict[str, Any]


def _csv(phase: str, name: str = "op.v1") -> Obj:
    install = {"strategy": "deployment", "spec": {"deployments": [{"name": "op-controller"}]}}
    reason = "InstallSucceeded" if phase == "Succeeded" else "InstallWaiting"
    return csv(NS, name, phase=phase, reason=reason, spec={"install": install})


def _pulling(name: str = POD, ns: str = NS, labels: dict[str, str] | None = None) -> Obj:
    return pod(
        ns,
        name,
        labels=SELECTOR if labels is None else labels,
        phase="Pending",
        ready=False,
        waiting="ImagePullBackOff",
        container="manager",
    )


def _cluster(phase: str = "Installing") -> list[Obj]:
    """An Installing CSV whose Deployment's pod cannot pull its image, a pod of its namespace
    the selector does not pick, a pod with the same labels elsewhere, and a Succeeded CSV
    whose Deployment's pod must not be read."""
    return [
        namespace(MARKET),
        namespace(NS),
        namespace("team-b"),
        catalog_source(MARKET, "community"),
        pod(MARKET, "community-xyz", labels={"olm.catalogSource": "community"}),
        _csv(phase),
        deployment(NS, "op-controller", match_labels=SELECTOR, owner_csv="op.v1"),
        _pulling(),
        pod(NS, "unrelated", labels={"app": "op"}),  # one label of two: not selected
        _pulling("elsewhere", "team-b"),
        csv("team-b", "done.v1"),
        deployment("team-b", "done", match_labels={"app": "done"}, owner_csv="done.v1"),
        pod("team-b", "done-1", labels={"app": "done"}),
    ]


def _names(store: Store, kind: str) -> set[str]:
    return {o["metadata"]["name"] for o in store.list(kind)}


async def test_pods_of_an_installing_csv_are_read_by_its_deployment_selector(
    tmp_path: Path,
) -> None:
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert _names(store, "Pod") == {"community-xyz", POD}
        pod_lists = [
            r
            for r in server.requests
            if r.path.endswith("/pods") and r.query.get("labelSelector") == SENT
        ]
        assert pod_lists, "no pod list by the Deployment's selector"
        assert {r.path for r in pod_lists} == {f"/api/v1/namespaces/{NS}/pods"}
        assert {r.query.get("limit") for r in pod_lists} == {str(PAGE_SIZE)}
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await source.close()
        await server.stop()


async def test_the_stream_follows_the_csv_and_drops_its_pods_when_it_succeeds(
    tmp_path: Path,
) -> None:
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    name = f"Pod (operator {SENT}) in {NS}"
    try:
        await converged(store, server)  # the cache holds what the selectors pick
        assert store.has("Pod", NS, POD)
        # the pod is watched: it starts running
        server.state.apply(pod(NS, POD, labels=SELECTOR, container="manager"))

        def running() -> bool:
            found = store.get("Pod", NS, POD) or {}
            return (found.get("status") or {}).get("phase") == "Running"

        await wait_for(running, what="the pod's new state in the cache")
        server.state.apply(_csv("Succeeded"))
        await wait_for(lambda: not store.has("Pod", NS, POD), what="the pod dropped")
        await wait_for(lambda: name not in source.status.streams, what="the stream stopped")
        assert store.has("Pod", MARKET, "community-xyz")  # the catalog's pod stays
        await converged(store, server)
        # a new install in the namespace starts a stream again
        server.state.apply(_csv("Installing"))
        await wait_for(lambda: store.has("Pod", NS, POD), what="the pod read again")
        assert {r.method for r in server.requests} == {"GET"}
        watches = {
            r.query.get("labelSelector")
            for r in server.requests
            if r.path == f"/api/v1/namespaces/{NS}/pods" and r.query.get("watch") == "true"
        }
        assert watches == {SENT}
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_one_stream_per_distinct_selector(tmp_path: Path) -> None:
    """Two Deployments of installing CSVs with one selector share a stream."""
    objs = [
        *_cluster(),
        _csv("Installing", "op.v2"),
        deployment(NS, "op-webhook", match_labels=SELECTOR, owner_csv="op.v2"),
    ]
    server, kubeconfig = await start_server(tmp_path, objs)
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        streams = [n for n in source.status.streams if n.startswith("Pod (operator")]
        assert streams == [f"Pod (operator {SENT}) in {NS}"]
    finally:
        await source.close()
        await server.stop()


async def test_forbidden_pods_in_the_namespace_are_no_access_there_only(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, _cluster())
    server.forbid("pods", NS)
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await wait_for(lambda: "Pod" in store.unreadable, what="pods marked unreadable")
        assert store.unreadable["Pod"].namespaces == (NS,)
        assert source.status.stream(f"Pod (operator {SENT}) in {NS}").state == "no access"
        await wait_for(lambda: store.has("Pod", MARKET, "community-xyz"), what="catalog pods")
        assert not store.has("Pod", NS, POD)
        server.allow("pods", NS)
        await wait_for(lambda: store.has("Pod", NS, POD), what="access given back")
        await wait_for(lambda: "Pod" not in store.unreadable, what="readable again")
    finally:
        await stop_source(source, task)
        await server.stop()


@pytest.mark.parametrize("busy", [False, True], ids=["answered", "server busy at first"])
async def test_a_pod_event_before_its_namespace_is_olms_is_read_once_it_is(
    tmp_path: Path, busy: bool
) -> None:
    """The namespace's Pod Events are listed once it becomes OLM's; a server that answers
    that list with 500 at first is asked again."""
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        server.state.create(namespace("late"))
        early = cluster_event("late", "early", kind="Pod", obj_name="late-x", reason="BackOff")
        server.state.create(early)
        # the same stream then carries an Event of an OLM namespace: the first was seen
        marker = cluster_event(NS, "marker", kind="Pod", obj_name=POD, reason="BackOff")
        server.state.create(marker)
        await wait_for(lambda: store.has("Event", NS, "marker"), what="the later Event")
        assert not store.has("Event", "late", "early")  # not one of OLM's namespaces yet
        if busy:
            server.fail_lists(500, times=2)
        server.state.create(catalog_source("late", "late"))
        await wait_for(lambda: store.has("Event", "late", "early"), what="the early Event")
        await converged(store, server)
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_the_new_streams_send_only_get_requests(tmp_path: Path) -> None:
    """A full session over the install pod streams and the Pod Event catch-up: list, watch,
    relist after compaction, reconnect after a restart, stop; every request a GET."""
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        pod_events = source.status.stream("Event (Pod)")
        await wait_for(lambda: pod_events.state == "live", what="the Pod Events listed")
        server.compact()
        server.state.create(namespace("late"))
        server.state.create(catalog_source("late", "late"))  # a catch-up list there
        server.drop_connections()
        await converged(store, server)
        await server.restart()
        server.state.apply(_csv("Succeeded"))  # the stream stops
        await converged(store, server)
        asked = {
            (r.path, r.query.get("labelSelector"), r.query.get("watch"))
            for r in server.requests
            if r.path == f"/api/v1/namespaces/{NS}/pods"
        }
        assert asked == {
            (f"/api/v1/namespaces/{NS}/pods", SENT, None),
            (f"/api/v1/namespaces/{NS}/pods", SENT, "true"),
        }
        await wait_for(
            lambda: any(r.path == "/api/v1/namespaces/late/events" for r in server.requests),
            what="the catch-up list of the new catalog's namespace",
        )
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


@pytest.mark.parametrize("gone", ["Deployment", "ClusterServiceVersion"])
async def test_the_stream_stops_when_the_deployment_or_the_csv_goes(
    tmp_path: Path, gone: str
) -> None:
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    name = f"Pod (operator {SENT}) in {NS}"
    try:
        await wait_for(lambda: store.has("Pod", NS, POD), what="the pod read")
        server.state.delete(gone, NS, "op-controller" if gone == "Deployment" else "op.v1")
        await wait_for(lambda: not store.has("Pod", NS, POD), what="the pod dropped")
        await wait_for(lambda: name not in source.status.streams, what="the stream stopped")
        await converged(store, server)
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_a_namespaced_session_reads_them_too(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig, namespaces=[NS, "team-b"]))
    try:
        await source.connect()
        await source.sync_once()
        assert _names(store, "Pod") == {POD}
    finally:
        await source.close()
        await server.stop()
