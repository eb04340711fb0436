"""The live dashboard's model takes the cluster's PackageManifests as catalogs, as ``check
--live`` does, and follows them when packageserver reports a new head (the
dashboard showed head ``?`` where ``check --live`` knew it)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import wait_for
from packageserver_objects import MARKETPLACE, SUBSCRIPTION, package_manifest

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread
from olmtui.model.records.types import SubscriptionState
from olmtui.pipeline.build import live_session
from olmtui.pipeline.session import Session
from olmtui.sources.cluster.live_options import LiveOptions

Obj = dict[str, Any]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[ServerThread, LiveOptions]]:
    server = LoopbackAPIServer()
    server.state.load([package_manifest("etcdoperator.v0.9.4"), SUBSCRIPTION])
    thread = run_in_thread(server)
    kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
    options = LiveOptions(
        kubeconfig=str(kubeconfig),
        backoff_initial=0.02,
        backoff_max=0.2,
        packagemanifest_interval=0.2,
        packagemanifest_debounce=0.05,
    )
    yield thread, options
    thread.stop()


def first_subscription(session: Session) -> SubscriptionState | None:
    subs = session.model.subscriptions()
    return subs[0] if subs else None


async def test_live_dashboard_knows_the_head_from_the_clusters_packagemanifest(cluster) -> None:
    thread, options = cluster
    # live_session probes the cluster with asyncio.run: call it off this test's loop
    session = await asyncio.to_thread(live_session, options)
    assert session.runner is not None and session.status is not None
    watching = asyncio.ensure_future(session.runner())
    try:
        await wait_for(lambda: session.status().state == "live", "the sync to settle")
        await wait_for(lambda: first_subscription(session) is not None, "the Subscription")
        sub = first_subscription(session)
        assert sub is not None
        assert sub.upgrade.graph == "packagemanifest"
        assert sub.upgrade.head == "etcdoperator.v0.9.4"
        assert [(c.ref, p, ch) for c, p, ch in session.analysis.channel_list()] == [
            (f"{MARKETPLACE}/community", "etcd", "stable")
        ]

        # packageserver reports a new head: the next poll moves the model's head with it
        thread.apply(package_manifest("etcdoperator.v0.9.5"))
        await wait_for(
            lambda: (
                (s := first_subscription(session)) is not None
                and s.upgrade.head == "etcdoperator.v0.9.5"
            ),
            "the new head",
        )
        assert [c.ref for c in session.analysis.catalogs()] == [f"{MARKETPLACE}/community"]
    finally:
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching
