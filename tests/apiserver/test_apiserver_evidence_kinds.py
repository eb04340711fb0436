"""The loopback server serves the evidence kinds olmtui reads live (R-EVD-1): core/v1 Pods
and Events, batch/v1 Jobs and apps/v1 Deployments, with the field selectors kube-apiserver
gives each (an Event's ``involvedObject.*``, a Pod's ``status.phase``) and a 400 for a field
the kind does not support; ``kubectl`` reads them as from a real cluster."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from apiserver_support import get_json, serving
from kubectl_support import kubectl
from live_support import olm_deployment
from model_builders import catalog_source, cluster_event, job, namespace, pod

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread
from olmtui.apiserver.selectors import SelectorError, parse_field_selector

MARKET = "openshift-marketplace"


def _objects() -> list[dict]:
    return [
        namespace(MARKET),
        namespace("apps"),
        catalog_source(MARKET, "community"),
        pod(MARKET, "community-xyz", labels={"olm.catalogSource": "community"}),
        pod("apps", "web-1", labels={"app": "web"}, phase="Pending"),
        job(MARKET, "unpack-1", labels={"operatorframework.io/bundle-unpack-ref": "x"}),
        olm_deployment("apps", "web"),
        cluster_event("apps", "sub-ev", kind="Subscription", obj_name="etcd", reason="Failed"),
        cluster_event(MARKET, "pod-ev", kind="Pod", obj_name="community-xyz", reason="BackOff"),
    ]


def test_event_and_pod_field_selectors_match_their_fields() -> None:
    about_sub = parse_field_selector("involvedObject.kind=Subscription", "Event")
    events = {e["metadata"]["name"]: e for e in _objects() if e["kind"] == "Event"}
    assert about_sub.matches(events["sub-ev"])
    assert not about_sub.matches(events["pod-ev"])
    named = parse_field_selector("involvedObject.name=community-xyz,reason!=Pulled", "Event")
    assert named.matches(events["pod-ev"])
    pending = parse_field_selector("status.phase=Pending", "Pod")
    assert [p["metadata"]["name"] for p in _objects() if pending.matches(p)] == ["web-1"]


@pytest.mark.parametrize(
    ("selector", "kind"),
    [
        ("involvedObject.kind=Pod", "Pod"),  # an Event's field, not a Pod's
        ("status.phase=Running", "Event"),
        ("status.phase=Running", "Deployment"),
    ],
)
def test_a_field_the_kind_does_not_have_is_refused(selector: str, kind: str) -> None:
    with pytest.raises(SelectorError, match="field label not supported"):
        parse_field_selector(selector, kind)


async def test_served_with_selectors_and_a_bad_field_selector_is_400() -> None:
    async with serving(_objects()) as (_, session):
        core = await get_json(session, "/api/v1")
        served = {r["name"] for r in core["resources"]}
        assert {"pods", "events"} <= served
        for group in ("/apis/batch/v1", "/apis/apps/v1"):
            assert (await get_json(session, group))["resources"]
        pods = await get_json(session, "/api/v1/pods", labelSelector="olm.catalogSource")
        assert [p["metadata"]["name"] for p in pods["items"]] == ["community-xyz"]
        events = await get_json(
            session, "/api/v1/events", fieldSelector="involvedObject.kind=Subscription"
        )
        assert [e["metadata"]["name"] for e in events["items"]] == ["sub-ev"]
        bad = await get_json(session, "/api/v1/pods", fieldSelector="spec.bogus=x", expect=400)
        assert (bad["kind"], bad["reason"]) == ("Status", "BadRequest")
        assert "field label not supported: spec.bogus" in bad["message"]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed")
    server = LoopbackAPIServer()
    server.state.load(_objects())
    with run_in_thread(server) as handle:
        kubeconfig = handle.write_kubeconfig(tmp_path / "kubeconfig", namespace="default")
        yield handle, {**os.environ, "KUBECONFIG": str(kubeconfig), "HOME": str(tmp_path)}


def test_kubectl_gets_catalog_pods_and_events_by_selector(cluster) -> None:
    _, env = cluster
    pods = kubectl(env, "get", "pods", "-l", "olm.catalogSource", "-A", "-o", "name")
    assert pods.split() == ["pod/community-xyz"]
    events = kubectl(
        env,
        "get",
        "events",
        "--field-selector",
        "involvedObject.kind=Subscription",
        "-A",
        "-o",
        "name",
    )
    assert events.split() == ["event/sub-ev"]
    jobs = kubectl(env, "get", "jobs,deployments", "-A", "-o", "name").split()
    assert jobs == ["job.batch/unpack-1", "deployment.apps/web"]
