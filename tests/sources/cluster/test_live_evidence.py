"""R-EVD-1 live: catalog pods, bundle unpack Jobs, the Deployments OLM makes for CSVs and the
Events about OLM's objects and those are listed and watched by label and field selectors
(never every pod or event of the cluster), GET only, capped per object, and a 403 on one of
them is "no access" for that kind alone."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from conftest import wait_for
from live_support import (
    converged,
    fast_options,
    olm_deployment,
    start_server,
    started_source,
    stop_source,
)
from model_builders import (
    catalog_source,
    cluster_event,
    job,
    namespace,
    pod,
    subscription,
)

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.cli import main
from olmtui.sources.cluster.live import LiveSource
from olmtui.store import Store
from olmtui.store_evidence import EVENTS_PER_OBJECT

MARKET = "openshift-marketplace"
OPS = "operators"
UNPACK = {"operatorframework.io/bundle-unpack-ref": "abc123"}


def _cluster() -> list[dict]:
    """A catalog with its pod, an unpack Job, an operator's Deployment, and as many objects
    of those kinds that olmtui must not read (an app's pod, Job and Deployment, Events about
    a ConfigMap and about a pod outside OLM's namespaces)."""
    return [
        namespace(MARKET),
        namespace(OPS),
        namespace("apps"),
        catalog_source(MARKET, "community"),
        subscription(OPS, "etcd", source="community", source_ns=MARKET),
        pod(MARKET, "community-xyz", labels={"olm.catalogSource": "community"}),
        pod("apps", "web-1", labels={"app": "web"}),
        job(MARKET, "unpack-1", labels=UNPACK),
        job("apps", "backup"),
        olm_deployment(OPS, "etcd-operator", owner_csv="etcdoperator.v0.9.4"),
        olm_deployment("apps", "web"),
        cluster_event(OPS, "sub-ev", kind="Subscription", obj_name="etcd", reason="X"),
        cluster_event(MARKET, "pod-ev", kind="Pod", obj_name="community-xyz", reason="BackOff"),
        cluster_event("apps", "web-ev", kind="Pod", obj_name="web-1", reason="BackOff"),
        cluster_event("apps", "cm-ev", kind="ConfigMap", obj_name="cfg", reason="Y"),
    ]


def _names(store: Store, kind: str) -> set[str]:
    return {o["metadata"]["name"] for o in store.list(kind)}


async def test_evidence_is_read_by_selector_only(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert _names(store, "Pod") == {"community-xyz"}
        assert _names(store, "Job") == {"unpack-1"}
        assert _names(store, "Deployment") == {"etcd-operator"}
        # a ConfigMap's Event is not asked for; a pod's Event only in OLM's namespaces
        assert _names(store, "Event") == {"sub-ev", "pod-ev"}
        selectors = {
            (r.path.rsplit("/", 1)[-1], r.query.get("labelSelector"), r.query.get("fieldSelector"))
            for r in server.requests
            if r.path.endswith(("/pods", "/jobs", "/deployments", "/events"))
        }
        assert ("pods", "olm.catalogSource", None) in selectors
        assert ("jobs", "operatorframework.io/bundle-unpack-ref", None) in selectors
        assert ("deployments", "olm.owner.kind=ClusterServiceVersion", None) in selectors
        assert ("events", None, "involvedObject.kind=Subscription") in selectors
        # never a whole kind of the cluster
        assert all(label or field for _, label, field in selectors), selectors
    finally:
        await source.close()
        await server.stop()


async def test_evidence_is_watched_get_only_and_events_stay_capped(tmp_path: Path) -> None:
    """A catalog pod that starts crash-looping, a new unpack Job and more Events than the
    cap reach the cache through the watches; every request is a GET."""
    server, kubeconfig = await start_server(tmp_path, _cluster())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        server.state.apply(
            pod(
                MARKET,
                "community-xyz",
                labels={"olm.catalogSource": "community"},
                ready=False,
                restarts=7,
                waiting="CrashLoopBackOff",
            )
        )
        server.state.create(job(MARKET, "unpack-2", labels=UNPACK, failed="no such image"))
        for i in range(EVENTS_PER_OBJECT + 5):
            server.state.create(
                cluster_event(
                    OPS,
                    f"sub-ev-{i:02d}",
                    kind="Subscription",
                    obj_name="etcd",
                    reason="ResolutionFailed",
                    last=f"2026-05-01T11:{i:02d}:00Z",
                )
            )

        def crash_looping() -> bool:
            found = store.get("Pod", MARKET, "community-xyz") or {}
            states = (found.get("status") or {}).get("containerStatuses") or [{}]
            return (states[0].get("state") or {}).get("waiting") == {"reason": "CrashLoopBackOff"}

        await wait_for(crash_looping, what="the catalog pod's crash loop in the cache")
        await wait_for(lambda: store.has("Job", MARKET, "unpack-2"), what="the new unpack Job")
        await wait_for(
            lambda: store.has("Event", OPS, f"sub-ev-{EVENTS_PER_OBJECT + 4:02d}"),
            what="the newest Event",
        )
        about_sub = [e for e in store.list("Event", OPS) if e["involvedObject"]["name"] == "etcd"]
        assert len(about_sub) == EVENTS_PER_OBJECT
        assert not store.has("Event", OPS, "sub-ev")  # the oldest went first
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_forbidden_pods_are_no_access_for_pods_only(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, _cluster())
    server.forbid("pods")
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await wait_for(lambda: "Pod" in store.unreadable, what="pods marked unreadable")
        assert source.status.stream("Pod (catalogs)").state == "no access"
        await wait_for(lambda: store.has("Job", MARKET, "unpack-1"), what="the Jobs read")
        assert set(store.unreadable) == {"Pod"}
        server.allow("pods")
        await wait_for(lambda: "Pod" not in store.unreadable, what="access given back")
        assert _names(store, "Pod") == {"community-xyz"}
    finally:
        await stop_source(source, task)
        await server.stop()


def _check_live(server: LoopbackAPIServer, tmp_path: Path) -> dict:
    """``olmtui check --live --output json`` against ``server`` (run in its own thread)."""
    with run_in_thread(server):
        kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["check", "--live", "--kubeconfig", str(kubeconfig), "--output", "json"])
    return json.loads(out.getvalue())


@pytest.mark.parametrize("forbidden", [False, True])
def test_an_unpack_job_forbidden_is_not_an_unpack_job_gone(tmp_path: Path, forbidden: bool) -> None:
    """R-EVD-3 says a failed unpack's Job is gone by design only when Jobs were read: with
    Jobs forbidden that absence is unknown, and "no access" says so instead."""
    sub = subscription(
        OPS,
        "etcd",
        source="community",
        source_ns=MARKET,
        conditions=(
            ("BundleUnpackFailed", "True", "BundleUnpackFailed", "bundle unpacking failed"),
        ),
    )
    server = LoopbackAPIServer()
    server.state.load([namespace(MARKET), namespace(OPS), catalog_source(MARKET, "community"), sub])
    if forbidden:
        server.forbid("jobs")
    codes = {(f["code"], f["kind"]) for f in _check_live(server, tmp_path)["findings"]}
    assert (("BundleUnpackJobGone", "Subscription") in codes) is not forbidden
    assert (("LiveNoAccess", "Job") in codes) is forbidden
