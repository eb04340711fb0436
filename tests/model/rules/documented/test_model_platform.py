"""R-DOC-7: objects the OpenShift release payload owns get no advice to change them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from check_runs import MUST_GATHERS, check_json
from model_builders import MODEL_DATA, csv, load_all, model_of, namespace, operator_group

from olmtui.model.rules.documented.platform import is_platform_owned

CLUSTER_VERSION_OWNER = {
    "apiVersion": "config.openshift.io/v1",
    "kind": "ClusterVersion",
    "name": "version",
    "uid": "cv-uid",
}


def monitoring_group(annotations: dict[str, str] | None = None, owners: Any = None) -> dict:
    og = operator_group(
        "openshift-monitoring",
        "openshift-cluster-monitoring",
        selector={"matchLabels": {"openshift.io/cluster-monitoring": "true"}},
        status=["openshift-monitoring", "openshift-ingress"],
        static=True,
    )
    if annotations:
        og["metadata"].setdefault("annotations", {}).update(annotations)
    if owners is not None:
        og["metadata"]["ownerReferences"] = owners
    return og


@pytest.mark.parametrize(
    ("annotations", "owners", "platform"),
    [
        ({"include.release.openshift.io/self-managed-high-availability": "true"}, None, True),
        ({"include.release.openshift.io/single-node-developer": "true"}, None, True),
        (None, [CLUSTER_VERSION_OWNER], True),
        (None, [{**CLUSTER_VERSION_OWNER, "apiVersion": "example.com/v1"}], False),
        (None, [{**CLUSTER_VERSION_OWNER, "kind": "Deployment"}], False),
        ({"release.openshift.io/other": "true", "olm.providedAPIs": ""}, None, False),
        (None, None, False),
    ],
)
def test_r_doc_7_label_selector_on_platform_group_is_info_by_design(annotations, owners, platform):
    og = monitoring_group(annotations, owners)
    assert is_platform_owned(og) is platform
    model, _ = model_of(
        namespace("openshift-monitoring", {"openshift.io/cluster-monitoring": "true"}),
        namespace("openshift-ingress", {"openshift.io/cluster-monitoring": "true"}),
        og,
    )
    (finding,) = [f for f in model.findings() if f.code == "LabelSelectorTargets"]
    if platform:
        assert finding.severity == "info"
        assert "by design" in finding.message and "release payload" in finding.message
        assert "Prefer" not in finding.message
        assert finding.rule == "R-DOC-7"
    else:
        assert finding.severity == "warning"
        assert "Prefer spec.targetNamespaces" in finding.message
        assert finding.rule == "R-DOC-3"


@pytest.mark.parametrize("platform", [True, False])
def test_r_doc_7_multiple_targets_on_platform_group_is_info(platform):
    og = operator_group("n", "g", targets=["a", "b"], status=["a", "b"])
    if platform:
        og["metadata"]["ownerReferences"] = [CLUSTER_VERSION_OWNER]
    model, _ = model_of(namespace("a"), namespace("b"), namespace("n"), og)
    (finding,) = [f for f in model.findings() if f.code == "MultipleTargetNamespaces"]
    assert finding.severity == ("info" if platform else "warning")
    assert ("by design" in finding.message) is platform


def test_r_doc_7_real_monitoring_group_is_platform_owned():
    og = load_all(MODEL_DATA / "azure-monitoring-group-and-namespaces.yaml")[0]
    assert is_platform_owned(og)


def test_r_doc_7_ownership_change_is_seen_incrementally():
    """Dropping the release annotations from a live group brings the warning back."""
    labelled = namespace("openshift-monitoring", {"openshift.io/cluster-monitoring": "true"})
    owned = monitoring_group({"include.release.openshift.io/ibm-cloud-managed": "true"})
    model, store = model_of(labelled, owned)
    assert {f.severity for f in model.findings() if f.code == "LabelSelectorTargets"} == {"info"}
    store.apply_many([monitoring_group()])
    assert {f.severity for f in model.findings() if f.code == "LabelSelectorTargets"} == {"warning"}


@pytest.mark.parametrize("dump", ["aws", "azure", "metal", "vsphere"])
def test_r_doc_7_must_gather_monitoring_group_has_no_warning(dump: str) -> None:
    _, report = check_json(Path(MUST_GATHERS) / f"must-gather-{dump}")
    on_group = [
        f
        for f in report["findings"]
        if f["namespace"] == "openshift-monitoring" and f["name"] == "openshift-cluster-monitoring"
    ]
    assert on_group, "the monitoring group has its findings"
    assert {f["severity"] for f in on_group} == {"info"}
    (selector,) = [f for f in on_group if f["code"] == "LabelSelectorTargets"]
    assert "by design" in selector["message"]


@pytest.mark.parametrize("platform", [True, False])
def test_r_doc_7_csv_failing_in_platform_group_is_not_told_to_change_it(platform):
    """The CSV's failure stays an error (it is the admin's), but the advice no longer asks
    to edit a group the release payload owns."""
    og = operator_group("n", "g", targets=["a"], status=["a"])
    if platform:
        og["metadata"]["annotations"] = {"include.release.openshift.io/ibm-cloud-managed": "true"}
    member = csv("n", "own-only.v1", modes=("OwnNamespace",), group="g", targets="a")
    model, _ = model_of(namespace("a"), namespace("n"), og, member)
    (finding,) = [f for f in model.findings() if f.code == "UnsupportedOperatorGroup"]
    assert finding.severity == "error"
    assert ("by design" in finding.message) is platform
    assert ("change OperatorGroup n/g" in finding.message) is not platform
    # R-IM-1: the advice names the shape that fits this CSV, not "change the group".
    assert "This CSV supports only OwnNamespace: install it in a namespace whose" in (
        finding.message
    )
