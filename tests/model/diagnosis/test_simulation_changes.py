"""Changes as ``whatif`` reads and applies them (``model/diagnosis/changes.py``): kinds and
their short names, cluster-scoped references, dotted fields (annotation keys hold dots),
typed values, removal, and every fault a ChangeError with one line."""

from __future__ import annotations

import pytest

from olmtui.model.diagnosis.changes import (
    ChangeError,
    applied,
    parse_assignment,
    parse_ref,
    patched,
    ref_of,
)
from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef

SUB = {
    "apiVersion": "operators.coreos.com/v1alpha1",
    "kind": "Subscription",
    "metadata": {"name": "etcd", "namespace": "team", "annotations": {"a": "b"}},
    "spec": {"channel": "alpha", "name": "etcd", "config": {"env": []}},
}


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("sub/team/etcd", ObjectRef("Subscription", "team", "etcd")),
        ("Subscription/team/etcd", ObjectRef("Subscription", "team", "etcd")),
        ("installplan/team/install-1", ObjectRef("InstallPlan", "team", "install-1")),
        ("csv/team/x.v1", ObjectRef("ClusterServiceVersion", "team", "x.v1")),
        ("og/team/og", ObjectRef("OperatorGroup", "team", "og")),
        ("catsrc/olm/ops", ObjectRef("CatalogSource", "olm", "ops")),
        ("ce//argocd", ObjectRef("ClusterExtension", "", "argocd")),
        ("cc//operatorhubio", ObjectRef("ClusterCatalog", "", "operatorhubio")),
    ],
)
def test_references(text: str, ref: ObjectRef) -> None:
    assert parse_ref(text) == ref


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("pod/team/x", "unknown kind 'pod'"),
        ("sub/team", "is not KIND/NAMESPACE/NAME"),
        ("sub//etcd", "Subscription is namespaced"),
        ("ce/team/argocd", "ClusterExtension is cluster-scoped: write ce//argocd"),
        ("sub/team/", "is not KIND/NAMESPACE/NAME"),
    ],
)
def test_bad_references(text: str, says: str) -> None:
    with pytest.raises(ChangeError, match=says.replace("(", r"\(")) as caught:
        parse_ref(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("text", ["spec.channel", "=x", "spec..channel=x", "spec.=x"])
def test_bad_assignments(text: str) -> None:
    with pytest.raises(ChangeError, match="is not FIELD=VALUE"):
        parse_assignment(text)


def test_patch_sets_copies_and_leaves_the_original() -> None:
    out = patched(SUB, "spec.channel", "stable")
    assert out["spec"]["channel"] == "stable"
    assert SUB["spec"]["channel"] == "alpha"
    assert out["metadata"] is SUB["metadata"]  # off the path: shared


def test_patch_an_annotation_whose_key_holds_dots() -> None:
    key = "olm.operatorframework.io/exclude-global-namespace-resolution"
    out = patched(SUB, f"metadata.annotations.{key}", "true")
    assert out["metadata"]["annotations"] == {"a": "b", key: "true"}


def test_an_empty_value_removes_the_field() -> None:
    assert "channel" not in patched(SUB, "spec.channel", "")["spec"]
    assert patched(SUB, "spec.nothing.here", "") == SUB


def test_values_take_the_field_type() -> None:
    assert patched(SUB, "spec.approved", "true")["spec"]["approved"] is True
    plan = {"kind": "InstallPlan", "metadata": {"name": "p"}, "spec": {"replicas": 1}}
    assert patched(plan, "spec.replicas", "3")["spec"]["replicas"] == 3
    assert patched(SUB, "spec.config", '{"env": [{"name": "A"}]}')["spec"]["config"] == {
        "env": [{"name": "A"}]
    }
    assert patched(SUB, "spec.startingCSV", "1.0")["spec"]["startingCSV"] == "1.0"


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("metadata.name", "x", "names the object"),
        ("kind", "x", "names the object"),
        ("spec.channel.sub", "x", "channel is not a map"),
        ("spec.config", "{bad", "is not valid JSON"),
    ],
)
def test_bad_patches(field: str, value: str, says: str) -> None:
    with pytest.raises(ChangeError, match=says):
        patched(SUB, field, value)


def test_apply_each_action() -> None:
    ref = ObjectRef("Subscription", "team", "etcd")
    assert applied(SUB, Change("delete", ref)) is None
    with pytest.raises(ChangeError, match="Subscription team/etcd is not in the state"):
        applied(None, Change("delete", ref))
    with pytest.raises(ChangeError, match="already exists"):
        applied(SUB, Change("create", ref, body=SUB))
    assert applied(None, Change("create", ref, body=SUB)) == SUB
    with pytest.raises(ChangeError, match="only an InstallPlan"):
        applied(SUB, Change("approve", ref))
    plan = {"kind": "InstallPlan", "metadata": {"name": "p"}, "spec": {"approved": False}}
    approved = applied(plan, Change("approve", ObjectRef("InstallPlan", "team", "p")))
    assert approved is not None and approved["spec"]["approved"] is True


def test_objects_to_create_are_checked() -> None:
    assert ref_of(SUB) == ObjectRef("Subscription", "team", "etcd")
    assert ref_of({"kind": "ClusterExtension", "metadata": {"name": "x", "namespace": "y"}}) == (
        ObjectRef("ClusterExtension", "", "x")
    )
    with pytest.raises(ChangeError, match="cannot create an object of kind 'Pod'"):
        ref_of({"kind": "Pod", "metadata": {"name": "x"}})
    with pytest.raises(ChangeError, match=r"has no metadata\.name"):
        ref_of({"kind": "Subscription", "metadata": {}})
    with pytest.raises(ChangeError, match=r"has no metadata\.namespace"):
        ref_of({"kind": "Subscription", "metadata": {"name": "x"}})
