"""``:xray``: an installing CSV's Deployment lists its pods and their state (R-EVD-9), marked
by the findings about them; a Deployment not ready whose pods the input lacks says so."""

from __future__ import annotations

from model_builders import csv, deployment, model_of, pod

from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.viewmodels.xray import CopyFacts, XrayNode, operator_root, pods_by_namespace

NS = "ops"
SELECTOR = {"control-plane": "op"}
POD = "op-controller-7d9f8b6c5-x2k4p"


def deployment_node(*extra: dict, with_pods: bool = True) -> XrayNode:
    the_csv = csv(NS, "op.v1", phase="Installing", reason="InstallWaiting")
    the_csv["spec"]["install"] = {"spec": {"deployments": [{"name": "op-controller"}]}}
    model, store = model_of(the_csv, deployment(NS, "op-controller", match_labels=SELECTOR), *extra)
    finding = Finding("error", "InstallPodImagePull", "Pod", NS, POD, "m", "R-EVD-9")
    root = operator_root(
        model.csv(NS, "op.v1"),  # type: ignore[arg-type]
        store.get,
        {("Pod", NS, POD): [finding]},
        CopyFacts(),
        pods_by_namespace(store.list("Pod")) if with_pods else None,
    )
    deployments = root.children[0]
    (node,) = deployments.children
    return node


def test_a_deployment_lists_its_pods_with_their_state_and_findings() -> None:
    node = deployment_node(
        pod(NS, POD, labels=SELECTOR, ready=False, waiting="ImagePullBackOff", container="manager"),
        pod(NS, "db-0", labels={"app": "db"}),
    )
    assert node.label == "Deployment op-controller: 0/1 ready"
    (child,) = node.children
    assert child.label == f"Pod {POD}: Running, not ready, ImagePullBackOff"
    assert (child.ref, child.severity, child.codes) == (
        ObjectRef("Pod", NS, POD),
        "error",
        ("InstallPodImagePull",),
    )


def test_an_unschedulable_pod_says_so() -> None:
    node = deployment_node(pod(NS, POD, labels=SELECTOR, ready=False, unschedulable="0/6 nodes"))
    assert [c.label for c in node.children] == [f"Pod {POD}: Pending, not ready, Unschedulable"]


def test_pods_not_in_the_input_are_said_so_never_missing() -> None:
    assert [c.label for c in deployment_node().children] == ["pods not in the input"]
    assert deployment_node(with_pods=False).children == ()
