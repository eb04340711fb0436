"""From parsed documents to Kubernetes objects: lists unrolled, malformed objects rejected,
and each object sorted into "kept" (an OLM kind olmtui models) or "ignored, counted as".

Snapshots come from ``kubectl get -o yaml`` (``kind: List``), typed lists such as
``ClusterServiceVersionList`` whose items may lack ``apiVersion``/``kind``, or one object per
document. The shape checks here are the gate every later reader relies on: past it, an object
has a string ``apiVersion``, ``kind`` and ``metadata.name``, and its ``metadata``, ``spec``,
``status``, labels and annotations are mappings when present.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CLUSTER_EXTENSION_REVISION,
    CLUSTER_OBJECT_SET,
    CLUSTER_OPERATOR,
    CLUSTER_VERSION,
    CRD,
    CSV,
    DEPLOYMENT,
    EVENT,
    INSTALL_PLAN,
    JOB,
    NAMESPACE,
    OLM_CONFIG,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    PACKAGE_MANIFEST,
    POD,
    SERVICE,
    SUBSCRIPTION,
)
from olmtui.sources.snapshots.json_list_items import ListItems
from olmtui.store import Obj

#: The API group each kept kind comes from. A kind of the same name from another group (ACM's
#: ``apps.open-cluster-management.io`` Subscription, say) is not OLM's and is only counted.
KIND_GROUPS: dict[str, str] = {
    NAMESPACE: "",
    OPERATOR_GROUP: "operators.coreos.com",
    CSV: "operators.coreos.com",
    SUBSCRIPTION: "operators.coreos.com",
    INSTALL_PLAN: "operators.coreos.com",
    CATALOG_SOURCE: "operators.coreos.com",
    OLM_CONFIG: "operators.coreos.com",
    PACKAGE_MANIFEST: "packages.operators.coreos.com",
    CRD: "apiextensions.k8s.io",
    OPERATOR_CONDITION: "operators.coreos.com",
    CLUSTER_VERSION: "config.openshift.io",
    CLUSTER_OPERATOR: "config.openshift.io",
    SERVICE: "",
    DEPLOYMENT: "apps",
    # Evidence (R-EVD-1): must-gather core/pods.yaml, core/events.yaml, batch/jobs.yaml
    POD: "",
    JOB: "batch",
    EVENT: "",
    # OLM v1 (R-V1-1)
    CLUSTER_EXTENSION: "olm.operatorframework.io",
    CLUSTER_CATALOG: "olm.operatorframework.io",
    CLUSTER_OBJECT_SET: "olm.operatorframework.io",
    CLUSTER_EXTENSION_REVISION: "olm.operatorframework.io",
}

_MAPPING_FIELDS = ("spec", "status")
_METADATA_MAPPINGS = ("labels", "annotations")


@frozen
class Invalid:
    """Something in a document that is not a usable object, and why."""

    reason: str


def objects_in(value: Any, *, release: bool = False) -> Iterator[Obj | Invalid]:
    """The objects one parsed document holds (a list object yields its items).

    ``release``: the document's list lets go of each item as it is taken (the loader's
    cache keeps its own copy, and a 100 MB ``kubectl get -o json`` of a million small
    objects would otherwise be held whole beside it until the last is taken). Only the
    document's own list does: a list nested in it may be an alias of another."""
    if not isinstance(value, dict):
        yield Invalid(f"the document is a {_shape(value)}, not an object")
        return
    if is_list_object(value):
        yield from _list_items(value, value["kind"], release)
        return
    problem = object_problem(value)
    yield value if problem is None else Invalid(problem)


def is_list_object(value: Any) -> bool:
    """``kind: List`` or a typed ``*List`` (``ClusterServiceVersionList``) with ``items``."""
    if not isinstance(value, dict):
        return False
    kind = value.get("kind")
    return isinstance(kind, str) and kind.endswith("List") and "items" in value


def _list_items(value: Obj, list_kind: str, release: bool) -> Iterator[Obj | Invalid]:
    """The items of a list object; ``release``: each let go of by the list as it is taken."""
    items = value["items"]
    if items is None:
        return
    lazy = isinstance(items, ListItems)  # a large JSON List: each item decoded when taken
    if not lazy and not isinstance(items, list):
        yield Invalid(f"the items of this {list_kind} are a {_shape(items)}, not a list")
        return
    item_kind = list_kind.removesuffix("List")
    api_version = value.get("apiVersion")
    for index in range(len(items)):
        if lazy:
            item = items.take(index, release)
        else:
            item = items[index]
            if release:
                items[index] = None
        if isinstance(item, dict) and item_kind:
            # A typed list (``ClusterServiceVersionList``) names its items' kind once.
            if not item.get("kind"):
                item["kind"] = item_kind
            if not item.get("apiVersion") and isinstance(api_version, str):
                item["apiVersion"] = api_version
        for found in objects_in(item):  # nested: never released
            if isinstance(found, Invalid):
                found = Invalid(f"item {index} of this {list_kind}: {found.reason}")
            yield found


def object_problem(obj: Obj) -> str | None:
    """Why a mapping is not a well-formed object, or ``None`` when it is."""
    for field in ("apiVersion", "kind"):
        if not isinstance(obj.get(field), str) or not obj[field]:
            return f"it has no {field}"
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        return "it has no metadata"
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        return "it has no metadata.name"
    namespace = meta.get("namespace")
    if namespace is not None and not isinstance(namespace, str):
        return "its metadata.namespace is not a string"
    if not _string_keys(meta):
        return "its metadata has a key that is not a string"
    for field in _METADATA_MAPPINGS:
        value = meta.get(field)
        if value is None:
            continue
        if not isinstance(value, dict):
            return f"its metadata.{field} is a {_shape(value)}, not a mapping"
        if not _string_keys(value):
            return f"its metadata.{field} has a key that is not a string"
    for field in _MAPPING_FIELDS:
        if obj.get(field) is not None and not isinstance(obj[field], dict):
            return f"its {field} is a {_shape(obj[field])}, not a mapping"
    return None


_STRING = frozenset({str})


def _string_keys(mapping: Mapping[object, object]) -> bool:
    """Whether every key of ``mapping`` is a string: their types checked in one C-level call
    (the annotations of every copy come here), a subclass of ``str`` one by one."""
    return _STRING.issuperset(map(type, mapping)) or all(isinstance(k, str) for k in mapping)


def ignored_as(obj: Obj) -> str | None:
    """``None`` for an object olmtui keeps; otherwise the label it is counted under in
    ``ignored_kinds``: its kind, or ``Kind (apiVersion)`` for a kept kind of another group."""
    kind: str = obj["kind"]
    group = KIND_GROUPS.get(kind)
    if group is None:
        return kind
    api_version: str = obj["apiVersion"]
    if api_version.rpartition("/")[0] == group:
        return None
    return f"{kind} ({api_version})"


def _shape(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if value is None:
        return "null"
    return f"scalar ({type(value).__name__})"
