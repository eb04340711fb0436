"""From documents to objects: lists unrolled, shapes checked, kinds sorted into kept and
ignored."""

from __future__ import annotations

from typing import Any

from olmtui.sources.snapshots.snapshot_objects import KIND_GROUPS, Invalid, ignored_as, objects_in
from olmtui.store import KINDS


def obj(kind: str, api_version: str, name: str = "x", **meta: Any) -> dict[str, Any]:
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": name, **meta}}


def test_every_kept_kind_has_its_api_group() -> None:
    assert set(KIND_GROUPS) == set(KINDS)


def test_kept_kinds_across_their_served_versions() -> None:
    for kind, api_version in [
        ("Namespace", "v1"),
        ("OperatorGroup", "operators.coreos.com/v1"),
        ("OperatorGroup", "operators.coreos.com/v1alpha2"),
        ("ClusterServiceVersion", "operators.coreos.com/v1alpha1"),
        ("OperatorCondition", "operators.coreos.com/v2"),
        ("PackageManifest", "packages.operators.coreos.com/v1"),
        ("CustomResourceDefinition", "apiextensions.k8s.io/v1"),
    ]:
        assert ignored_as(obj(kind, api_version)) is None, (kind, api_version)


def test_ignored_kinds_counted_under_kind_or_kind_and_api_version() -> None:
    assert ignored_as(obj("ConfigMap", "v1")) == "ConfigMap"
    assert ignored_as(obj("Operator", "operators.coreos.com/v1")) == "Operator"
    assert ignored_as(obj("Namespace", "example.com/v1")) == "Namespace (example.com/v1)"


def test_typed_list_fills_missing_kind_and_api_version_only() -> None:
    items = [
        {"metadata": {"name": "a"}},
        {"kind": "Other", "apiVersion": "v9", "metadata": {"name": "b"}},
    ]
    found = list(
        objects_in(
            {"apiVersion": "operators.coreos.com/v1", "kind": "OperatorGroupList", "items": items}
        )
    )
    assert [(o["kind"], o["apiVersion"]) for o in found] == [
        ("OperatorGroup", "operators.coreos.com/v1"),
        ("Other", "v9"),
    ]


def test_list_with_null_items_holds_nothing() -> None:
    assert list(objects_in({"apiVersion": "v1", "kind": "InstallPlanList", "items": None})) == []


def test_list_whose_items_are_not_a_list_is_invalid() -> None:
    [found] = objects_in({"apiVersion": "v1", "kind": "List", "items": {"a": 1}})
    assert isinstance(found, Invalid)
    assert "not a list" in found.reason


def test_scalar_and_list_documents_are_invalid() -> None:
    for value, shape in [("text", "scalar (str)"), (3, "scalar (int)"), ([1], "list")]:
        [found] = objects_in(value)
        assert found == Invalid(f"the document is a {shape}, not an object")


def test_object_shape_checks() -> None:
    cases = {
        "it has no kind": {"apiVersion": "v1", "metadata": {"name": "x"}},
        "it has no metadata": {"apiVersion": "v1", "kind": "Namespace"},
        "it has no metadata.name": obj("Namespace", "v1", name=""),
        "its metadata.namespace is not a string": obj("Namespace", "v1", namespace=7),
        "its metadata.annotations is a list, not a mapping": obj(
            "Namespace", "v1", annotations=["a"]
        ),
        "its spec is a scalar (str), not a mapping": {**obj("Namespace", "v1"), "spec": "x"},
        "its status is a list, not a mapping": {**obj("Namespace", "v1"), "status": []},
    }
    for reason, value in cases.items():
        assert list(objects_in(value)) == [Invalid(reason)], reason
    good = {**obj("Namespace", "v1", labels=None), "spec": None}
    assert list(objects_in(good)) == [good]
