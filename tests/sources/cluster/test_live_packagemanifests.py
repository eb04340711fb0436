"""PackageManifests are polled (packageserver cannot be watched): at start, on a slow timer,
and soon after a CatalogSource changes its content, with bursts debounced into one list."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path

from conftest import wait_for
from live_support import (
    converged,
    fast_options,
    must_gather_objects,
    package_manifests,
    start_server,
    started_source,
    stop_source,
)

from olmtui.sources.cluster.live_packagemanifests import changes_catalog_content
from olmtui.store import Change, Key, Store

PM_PATH = "/apis/packages.operators.coreos.com/v1/packagemanifests"


def catalog_change(old: dict, new: dict) -> Change:
    return Change("MODIFIED", Key("CatalogSource", "openshift-marketplace", "x"), old, new)


def test_catalog_heartbeats_do_not_trigger_a_relist_but_content_changes_do() -> None:
    old = {
        "spec": {"image": "a"},
        "status": {
            "connectionState": {"lastObservedState": "READY", "lastConnect": "t1"},
            "latestImageRegistryPoll": "p1",
        },
    }
    heartbeat = copy.deepcopy(old)
    heartbeat["status"]["connectionState"]["lastConnect"] = "t2"
    polled = copy.deepcopy(old)
    polled["status"]["latestImageRegistryPoll"] = "p2"
    retargeted = copy.deepcopy(old)
    retargeted["spec"]["image"] = "b"
    assert not changes_catalog_content(catalog_change(old, heartbeat))
    assert changes_catalog_content(catalog_change(old, polled))
    assert changes_catalog_content(catalog_change(old, retargeted))
    assert changes_catalog_content(Change("DELETED", Key("CatalogSource", "ns", "x"), old, None))
    assert not changes_catalog_content(
        Change("MODIFIED", Key("Subscription", "ns", "x"), old, retargeted)
    )


async def test_catalog_source_change_relists_packagemanifests_once_per_burst(
    tmp_path: Path,
) -> None:
    manifests = package_manifests()
    server, kubeconfig = await start_server(tmp_path, must_gather_objects() + manifests[1:])
    store = Store()
    options = fast_options(kubeconfig, packagemanifest_interval=3600, packagemanifest_debounce=0.3)
    source, task = await started_source(store, options)
    try:
        await converged(store, server)
        await wait_for(lambda: source.status.stream("CatalogSource").state == "live")
        lists_before = sum(1 for r in server.requests if r.path == PM_PATH)
        server.state.create(manifests[0])
        await asyncio.sleep(0.5)
        assert store.count("PackageManifest") == len(manifests) - 1, "not watched, not polled"
        catalog = server.state.list("CatalogSource")[0]
        for poll in range(3):
            catalog["status"]["latestImageRegistryPoll"] = f"2026-11-21T00:00:0{poll}Z"
            server.state.update(catalog)
        await converged(store, server)
        assert store.count("PackageManifest") == len(manifests)
        await asyncio.sleep(0.5)
        assert sum(1 for r in server.requests if r.path == PM_PATH) == lists_before + 1
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_packagemanifests_are_listed_again_on_the_timer(tmp_path: Path) -> None:
    manifests = package_manifests()
    server, kubeconfig = await start_server(tmp_path, must_gather_objects() + manifests[1:])
    store = Store()
    source, task = await started_source(
        store, fast_options(kubeconfig, packagemanifest_interval=0.3)
    )
    try:
        await converged(store, server)
        server.state.create(manifests[0])
        server.state.delete(
            "PackageManifest", "openshift-marketplace", manifests[1]["metadata"]["name"]
        )
        await converged(store, server)
    finally:
        await stop_source(source, task)
        await server.stop()
