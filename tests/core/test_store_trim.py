"""What the cache keeps of an object, and when a re-applied object counts as a change.

Data: a real CSV and two of its copies from an OCP 4.8 must-gather (tests/data/store)."""

from __future__ import annotations

import copy
import json

import yaml
from data_paths import TESTS

from olmtui.store import Store, trim

DATA = TESTS / "data" / "store"


def load(namespace: str) -> dict:
    """The object as the API server would send it: freshly parsed JSON, no shared strings."""
    text = (DATA / f"image-caching-operator.{namespace}.yaml").read_bytes()
    return json.loads(json.dumps(yaml.load(text, Loader=yaml.CSafeLoader), default=str))


def test_r_copy_1_copy_keeps_metadata_and_phase_only() -> None:
    kept = trim(load("openshift-dns"))
    assert set(kept) == {"apiVersion", "kind", "metadata", "status"}
    assert set(kept["status"]) <= {"phase", "reason", "message"}
    assert kept["status"]["reason"] == "Copied"
    assert kept["metadata"]["labels"]["olm.copiedFrom"] == "cfe-test-namespace"
    assert kept["metadata"]["resourceVersion"] == "33634"
    assert "generation" not in kept["metadata"]


def test_copy_drops_managed_fields_and_last_applied_and_leaves_its_input_alone() -> None:
    raw = load("openshift-dns")
    raw["metadata"]["managedFields"] = [{"manager": "olm"}]
    raw["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] = "{}"
    store = Store()
    store.apply_many([raw, {**raw, "metadata": {**raw["metadata"], "namespace": "other"}}])
    for _, kept in store.items("ClusterServiceVersion"):
        assert "managedFields" not in kept["metadata"]
        annotations = kept["metadata"]["annotations"]
        assert "kubectl.kubernetes.io/last-applied-configuration" not in annotations
        assert annotations["olm.operatorNamespace"] == "cfe-test-namespace"
    assert "kubectl.kubernetes.io/last-applied-configuration" in raw["metadata"]["annotations"]


def test_copies_of_one_csv_share_their_annotation_and_label_strings() -> None:
    first = trim(load("openshift-dns"))["metadata"]
    second = trim(load("openshift-host-network"))["metadata"]
    assert first["annotations"]["alm-examples"] is second["annotations"]["alm-examples"]
    assert first["labels"]["olm.copiedFrom"] is second["labels"]["olm.copiedFrom"]
    assert first["name"] is second["name"]


def test_installed_csv_keeps_spec_without_icon_managed_fields_or_last_applied() -> None:
    raw = load("cfe-test-namespace")
    raw["metadata"]["managedFields"] = [{"manager": "olm"}]
    raw["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] = "{}"
    kept = trim(raw)
    assert "icon" not in kept["spec"]
    assert kept["spec"]["install"] == raw["spec"]["install"]
    assert "managedFields" not in kept["metadata"]
    assert "kubectl.kubernetes.io/last-applied-configuration" not in kept["metadata"]["annotations"]
    assert kept["metadata"]["annotations"]["olm.operatorGroup"] == "operator-sdk-og"
    assert "icon" in raw["spec"] and "managedFields" in raw["metadata"]  # input untouched


def test_new_resource_version_is_a_modification() -> None:
    store = Store()
    obj = load("cfe-test-namespace")
    store.apply("ADDED", obj)
    again = copy.deepcopy(obj)
    again["status"]["message"] = "changed"
    again["metadata"]["resourceVersion"] = "40000"
    change = store.apply("MODIFIED", again)
    assert change is not None and change.type == "MODIFIED"
    assert change.new["status"]["message"] == "changed"


def test_same_resource_version_and_content_publishes_nothing() -> None:
    store = Store()
    seen: list = []
    store.subscribe(seen.extend)
    store.apply("ADDED", load("openshift-dns"))
    assert store.apply("MODIFIED", load("openshift-dns")) is None
    assert store.apply_many([load("cfe-test-namespace"), load("cfe-test-namespace")])
    assert len(seen) == 2


def test_objects_without_resource_version_are_compared_in_full() -> None:
    store = Store()
    obj = load("cfe-test-namespace")
    del obj["metadata"]["resourceVersion"]
    store.apply("ADDED", obj)
    assert store.apply("MODIFIED", copy.deepcopy(obj)) is None
    edited = copy.deepcopy(obj)
    edited["status"]["phase"] = "Failed"
    change = store.apply("MODIFIED", edited)
    assert change is not None and change.new["status"]["phase"] == "Failed"


def test_same_resource_version_with_other_content_is_still_a_change() -> None:
    """Hand-edited snapshots may change an object without touching its resourceVersion."""
    store = Store()
    obj = load("cfe-test-namespace")
    store.apply("ADDED", obj)
    edited = copy.deepcopy(obj)
    edited["spec"]["displayName"] = "renamed"
    change = store.apply("MODIFIED", edited)
    assert change is not None and change.new["spec"]["displayName"] == "renamed"


def test_copies_of_one_csv_share_equal_annotations_but_never_different_ones() -> None:
    def copied(namespace: str, annotations: dict[str, str]) -> dict:
        return {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "ClusterServiceVersion",
            "metadata": {
                "name": "etcd.v1",
                "namespace": namespace,
                "labels": {"olm.copiedFrom": "operators"},
                "annotations": dict(annotations),
            },
            "status": {"phase": "Succeeded", "reason": "Copied"},
        }

    shared = {"olm.operatorNamespace": "operators", "alm-examples": "[]"}
    store = Store()
    store.apply_many(
        [
            copied("a", shared),
            copied("b", shared),
            copied("c", {**shared, "olm.targetNamespaces": "c"}),
        ]
    )
    a, b, c = (store.get("ClusterServiceVersion", ns, "etcd.v1") for ns in "abc")
    assert a is not None and b is not None and c is not None
    assert a["metadata"]["annotations"] is b["metadata"]["annotations"]
    assert a["metadata"]["labels"] is b["metadata"]["labels"]
    assert c["metadata"]["annotations"] == {**shared, "olm.targetNamespaces": "c"}
    assert a["metadata"]["annotations"] == shared


def test_a_deployment_keeps_what_the_csv_findings_read_only() -> None:
    """R-CSV-I: owner, replicas wanted and available, conditions; no pod template."""
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "op",
            "namespace": "ns",
            "labels": {"olm.owner": "op.v1"},
            "ownerReferences": [{"kind": "ClusterServiceVersion", "name": "op.v1"}],
            "annotations": {"deployment.kubernetes.io/revision": "1"},
            "managedFields": [{"manager": "olm"}],
        },
        "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "m"}]}}},
        "status": {
            "replicas": 2,
            "availableReplicas": 1,
            "observedGeneration": 3,
            "conditions": [{"type": "Available", "status": "False"}],
        },
    }
    kept = trim(deployment)
    assert kept["metadata"] == {
        "name": "op",
        "namespace": "ns",
        "labels": {"olm.owner": "op.v1"},
        "ownerReferences": [{"kind": "ClusterServiceVersion", "name": "op.v1"}],
    }
    assert kept["spec"] == {"replicas": 2}
    assert kept["status"] == {
        "replicas": 2,
        "availableReplicas": 1,
        "conditions": [{"type": "Available", "status": "False"}],
    }
