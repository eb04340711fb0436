"""The issue's live test (R-EVD-1, R-EVD-2): against the loopback API server, a catalog's
registry pod turns CrashLoopBackOff and the dashboard's findings show it within one refresh
of the change reaching the cache; the Deployment OLM made for a CSV is in X-ray's cache."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import wait_for
from live_support import olm_deployment
from model_builders import catalog_source, namespace, pod

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.ui.app import OlmApp
from olmtui.ui.widgets.virtual_table import VirtualTable

MARKET = "openshift-marketplace"
LABELS = {"olm.catalogSource": "community"}


@pytest.fixture
def cluster(tmp_path: Path):
    server = LoopbackAPIServer()
    server.state.load(
        [
            namespace(MARKET),
            namespace("operators"),
            catalog_source(MARKET, "community"),
            pod(MARKET, "community-xyz", labels=LABELS),
            olm_deployment("operators", "etcd-operator", owner_csv="etcdoperator.v0.9.4"),
        ]
    )
    thread = run_in_thread(server)
    kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
    yield thread, str(kubeconfig)
    thread.stop()


def _codes(app: OlmApp) -> set[str]:
    table = app.screen.query_one("#table", VirtualTable)
    return {
        c.plain if not isinstance(c, str) else c for row in table.shown_rows for c in row.cells[1:2]
    }


async def test_a_catalog_pod_crash_loop_shows_within_one_refresh(cluster) -> None:
    thread, kubeconfig = cluster
    options = LiveOptions(kubeconfig=kubeconfig)
    session = await asyncio.to_thread(live_session, options)  # it probes with asyncio.run
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=(200, 40)) as pilot:
        store = session.store
        await wait_for(lambda: store.has("Pod", MARKET, "community-xyz"), "catalog pod read")
        # each kind is its own stream: the Deployments may sync after the Pods
        await wait_for(
            lambda: store.has("Deployment", "operators", "etcd-operator"), "OLM's Deployment read"
        )
        assert "CatalogPodCrashLoopBackOff" not in _codes(app)
        crashing = pod(MARKET, "community-xyz", labels=LABELS)
        crashing["status"] = pod(
            MARKET,
            "community-xyz",
            ready=False,
            restarts=9,
            waiting="CrashLoopBackOff",
            last_terminated="Error",
        )["status"]
        thread.apply(crashing)  # the cluster changes

        def cached_crash() -> bool:
            found = store.get("Pod", MARKET, "community-xyz") or {}
            statuses = (found.get("status") or {}).get("containerStatuses") or [{}]
            return "waiting" in (statuses[0].get("state") or {})

        await wait_for(cached_crash, "the crash loop in the cache", pilot=pilot)
        # the next refresh draws it (a condition wait: no fixed sleep, no timing bound)
        await wait_for(
            lambda: "CatalogPodCrashLoopBackOff" in _codes(app),
            "the R-EVD-2 finding on screen",
            pilot=pilot,
        )
