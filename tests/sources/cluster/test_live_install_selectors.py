"""R-EVD-12, the pure part: which (namespace, selector) pod streams the cache asks for, how a
Deployment's ``matchLabels`` become a label selector, and which pods the live source reads."""

from __future__ import annotations

from typing import Any

import pytest
from model_builders import copy_of, csv, deployment, pod

from olmtui.sources.cluster.live_install_pods import InstallPods, PodStream
from olmtui.sources.cluster.live_resources import (
    StreamSpec,
    install_pod_selectors,
    pod_selector,
    read_live,
)
from olmtui.store import Store

NS = "team-a"
Obj = dict[str, Any]


def _store(*objs: Obj) -> Store:
    store = Store()
    store.apply_many(list(objs))
    return store


def test_match_labels_become_one_sorted_selector() -> None:
    made = deployment(NS, "d", match_labels={"z": "1", "app": "op"})
    assert pod_selector(made) == "app=op,z=1"


@pytest.mark.parametrize(
    "selector",
    [{}, {"matchExpressions": [{"key": "app", "operator": "Exists"}]}, {"matchLabels": {"a": 1}}],
    ids=["none", "expressions only", "not a string"],
)
def test_a_selector_the_server_cannot_be_asked_is_no_stream(selector: Obj) -> None:
    made = deployment(NS, "d", owner_csv="op.v1")
    made["spec"]["selector"] = selector
    assert pod_selector(made) == ""
    assert install_pod_selectors(_store(csv(NS, "op.v1", phase="Installing"), made)) == set()


@pytest.mark.parametrize(
    ("phase", "wanted"),
    [("Installing", True), ("Pending", True), ("Failed", True), ("Succeeded", False)],
)
def test_a_stream_while_the_owning_csv_is_not_succeeded(phase: str, wanted: bool) -> None:
    store = _store(
        csv(NS, "op.v1", phase=phase),
        deployment(NS, "d", match_labels={"app": "op"}, owner_csv="op.v1"),
    )
    assert install_pod_selectors(store) == ({(NS, "app=op")} if wanted else set())


def test_no_stream_for_a_csv_not_read_a_copy_or_a_deployment_olm_did_not_make() -> None:
    original = csv("source-ns", "op.v1", phase="Installing")
    store = _store(
        copy_of(original, NS),  # a copy deploys nothing
        deployment(NS, "d", match_labels={"app": "op"}, owner_csv="op.v1"),
        deployment(NS, "mine", match_labels={"app": "mine"}),  # no olm.owner labels
        deployment("other", "d", match_labels={"app": "x"}, owner_csv="gone.v1"),  # not read
    )
    assert install_pod_selectors(store) == set()


def test_deployments_sharing_a_selector_share_a_stream() -> None:
    store = _store(
        csv(NS, "op.v1", phase="Installing"),
        csv(NS, "op.v2", phase="Pending"),
        deployment(NS, "a", match_labels={"app": "op"}, owner_csv="op.v1"),
        deployment(NS, "b", match_labels={"app": "op"}, owner_csv="op.v2"),
    )
    assert install_pod_selectors(store) == {(NS, "app=op")}


def test_the_live_source_reads_the_pods_its_streams_select() -> None:
    store = _store(
        csv(NS, "op.v1", phase="Installing"),
        deployment(NS, "d", match_labels={"app": "op", "tier": "ctl"}, owner_csv="op.v1"),
    )
    assert read_live(pod(NS, "p", labels={"app": "op", "tier": "ctl", "x": "y"}), store)
    assert not read_live(pod(NS, "q", labels={"app": "op"}), store)  # one label of two
    assert not read_live(pod("other", "p", labels={"app": "op", "tier": "ctl"}), store)
    assert not read_live(pod(NS, "p", labels={"app": "op", "tier": "ctl"}))  # no cache: unknown


def test_install_pod_streams_are_bounded_and_follow_the_cache() -> None:
    """At most ``limit`` streams, the first by (namespace, selector); a CSV that succeeds
    stops its stream and the next one waiting takes its place."""
    objs: list[Obj] = []
    for n in range(3):
        objs.append(csv(NS, f"op{n}.v1", phase="Installing"))
        objs.append(deployment(NS, f"d{n}", match_labels={"app": f"op{n}"}, owner_csv=f"op{n}.v1"))
    store = _store(*objs)
    made: list[str] = []
    forgotten: list[str] = []

    async def idle() -> None:
        return None

    def make(spec: StreamSpec, namespace: str) -> PodStream:
        made.append(f"{spec.label_selector} in {namespace}")
        return PodStream(made[-1], idle, idle)

    pods = InstallPods(store, make, forgotten.append, limit=2)
    pods.update()
    assert made == [f"app=op0 in {NS}", f"app=op1 in {NS}"]
    store.apply("MODIFIED", csv(NS, "op0.v1"))  # Succeeded
    pods.update()
    assert forgotten == [f"app=op0 in {NS}"]
    assert sorted(pods.streams) == [(NS, "app=op1"), (NS, "app=op2")]
