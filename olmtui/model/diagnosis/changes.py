"""State changes as ``olmtui whatif`` and remedy steps name them, applied to plain objects.

A :class:`~olmtui.model.records.diagnosis.Change` deletes, approves, patches or creates one
object. This module reads the command line's spelling of them (``KIND/NAMESPACE/NAME``,
``FIELD=VALUE``, a YAML object) and applies one to a copy of an object: nothing here
touches a cache. Every fault a user can make is a :class:`ChangeError`, one line.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CRD,
    CSV,
    DEPLOYMENT,
    INSTALL_PLAN,
    NAMESPACE,
    OLM_CONFIG,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef

Obj = dict[str, Any]

#: The short names ``whatif`` takes for a kind (as ``oc`` spells them), beside the kind.
SHORT_KINDS: Mapping[str, str] = {
    "csv": CSV,
    "sub": SUBSCRIPTION,
    "og": OPERATOR_GROUP,
    "ip": INSTALL_PLAN,
    "catsrc": CATALOG_SOURCE,
    "ce": CLUSTER_EXTENSION,
    "cc": CLUSTER_CATALOG,
}
#: The kinds a change may name: those OLM's next step reads (the cache keeps a few more
#: that no remedy changes).
CHANGEABLE_KINDS: tuple[str, ...] = (
    CSV,
    SUBSCRIPTION,
    OPERATOR_GROUP,
    INSTALL_PLAN,
    CATALOG_SOURCE,
    CLUSTER_EXTENSION,
    CLUSTER_CATALOG,
    NAMESPACE,
    CRD,
    OLM_CONFIG,
    OPERATOR_CONDITION,
    DEPLOYMENT,
)
CLUSTER_SCOPED_KINDS: frozenset[str] = frozenset(
    {CLUSTER_EXTENSION, CLUSTER_CATALOG, NAMESPACE, CRD, OLM_CONFIG}
)
_BY_NAME: dict[str, str] = {
    **SHORT_KINDS,
    **{k.lower(): k for k in CHANGEABLE_KINDS},
    **{k.lower() + "s": k for k in CHANGEABLE_KINDS},
}
#: Maps whose keys hold dots themselves: a dotted path ends in one key there
#: (``metadata.annotations.olm.operatorframework.io/exclude-global-namespace-resolution``).
_FREE_KEY_MAPS = frozenset({"annotations", "labels", "nodeSelector", "matchLabels"})


class ChangeError(ValueError):
    """A change that cannot be read or applied: one line for the user."""


def kind_of(name: str) -> str:
    """The kind a user names (``sub``, ``Subscription``, ``subscriptions``...)."""
    kind = _BY_NAME.get(name.lower())
    if kind is None:
        known = ", ".join(sorted(SHORT_KINDS))
        raise ChangeError(f"unknown kind {name!r}: use a kind or one of {known}")
    return kind


def parse_ref(text: str) -> ObjectRef:
    """``KIND/NAMESPACE/NAME`` (``ce//NAME`` for a cluster-scoped kind) as a reference."""
    parts = text.split("/")
    if len(parts) != 3 or not parts[0] or not parts[2]:
        raise ChangeError(f"{text!r} is not KIND/NAMESPACE/NAME (cluster-scoped: KIND//NAME)")
    kind = kind_of(parts[0])
    namespace = parts[1]
    if kind in CLUSTER_SCOPED_KINDS and namespace:
        raise ChangeError(f"{kind} is cluster-scoped: write {parts[0]}//{parts[2]}")
    if kind not in CLUSTER_SCOPED_KINDS and not namespace:
        raise ChangeError(f"{kind} is namespaced: write {parts[0]}/NAMESPACE/{parts[2]}")
    return ObjectRef(kind, namespace, parts[2])


def parse_assignment(text: str) -> tuple[str, str]:
    """``FIELD=VALUE`` (a dotted path; an empty VALUE removes the field)."""
    field, sep, value = text.partition("=")
    if not sep or not field or any(not part for part in field.split(".")):
        raise ChangeError(f"{text!r} is not FIELD=VALUE with a dotted FIELD (spec.channel=stable)")
    return field, value


def ref_of(obj: Mapping[str, Any]) -> ObjectRef:
    """The reference of an object to create, checked: a kept kind, a name, a namespace when
    the kind is namespaced."""
    kind = obj.get("kind")
    meta = obj.get("metadata")
    if not isinstance(kind, str) or kind not in CHANGEABLE_KINDS:
        raise ChangeError(f"cannot create an object of kind {kind!r}")
    if not isinstance(meta, Mapping) or not isinstance(meta.get("name"), str) or not meta["name"]:
        raise ChangeError(f"the {kind} to create has no metadata.name")
    namespace = meta.get("namespace") or ""
    if not isinstance(namespace, str):
        raise ChangeError(f"the {kind} to create has a metadata.namespace that is not a string")
    if kind in CLUSTER_SCOPED_KINDS:
        namespace = ""
    elif not namespace:
        raise ChangeError(f"the {kind} {meta['name']} to create has no metadata.namespace")
    return ObjectRef(kind, namespace, meta["name"])


def _path(field: str) -> list[str]:
    """A dotted path's keys; inside a map of free keys (annotations, labels...) the rest
    of the path is one key."""
    parts = field.split(".")
    for at, part in enumerate(parts[:-1]):
        if part in _FREE_KEY_MAPS:
            return [*parts[: at + 1], ".".join(parts[at + 1 :])]
    return parts


def _typed(value: str, current: Any) -> Any:
    """A VALUE as the field holds it: a bool or a number where the field holds one,
    ``true``/``false`` as booleans, a JSON object or list as such, else the text."""
    if isinstance(current, bool) or value in ("true", "false"):
        if value in ("true", "false"):
            return value == "true"
    elif isinstance(current, int) and value.lstrip("-").isdigit():
        return int(value)
    if value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError as exc:
            raise ChangeError(f"{value!r} is not valid JSON: {exc}") from None
    return value


def patched(obj: Obj, field: str, value: str) -> Obj:
    """A copy of ``obj`` with ``field`` (dotted) set to ``value``, or removed when
    ``value`` is empty; the maps on the path are copied, the rest shared."""
    keys = _path(field)
    if keys[0] in ("kind", "apiVersion") or keys[:2] in (
        ["metadata", "name"],
        ["metadata", "namespace"],
    ):
        raise ChangeError(f"{field} names the object: delete it and create another instead")
    out = dict(obj)
    node = out
    for key in keys[:-1]:
        child = node.get(key)
        if child is None:
            if not value:
                return out  # removing a field under one that is absent: nothing to do
            child = {}
        elif not isinstance(child, dict):
            raise ChangeError(f"{field}: {key} is not a map in this object")
        node[key] = child = dict(child)
        node = child
    last = keys[-1]
    if not value:
        node.pop(last, None)
    elif len(keys) > 1 and keys[-2] in _FREE_KEY_MAPS:
        node[last] = value  # labels and annotations hold strings only
    else:
        node[last] = _typed(value, node.get(last))
    return out


def approved(plan: Obj) -> Obj:
    """The InstallPlan with ``spec.approved: true`` (R-IP-2: the one change approval is)."""
    if plan.get("kind") != INSTALL_PLAN:
        raise ChangeError("only an InstallPlan can be approved")
    return patched(plan, "spec.approved", "true")


def applied(obj: Obj | None, change: Change) -> Obj | None:
    """What ``change`` leaves of the object it targets (``obj``, ``None`` when absent):
    the new object, or ``None`` when deleted."""
    target = change.target
    what = f"{target.kind} {target.namespace + '/' if target.namespace else ''}{target.name}"
    if change.action == "create":
        if obj is not None:
            raise ChangeError(f"{what} already exists")
        if change.body is None:
            raise ChangeError(f"nothing to create for {what}")
        return copy.deepcopy(dict(change.body))
    if obj is None:
        raise ChangeError(f"{what} is not in the state")
    if change.action == "delete":
        return None
    if change.action == "approve":
        return approved(obj)
    if change.field is None and change.body is not None:
        return dict(change.body)  # a reaction's whole new object (the cache never edits one)
    if change.field is None:
        raise ChangeError(f"no field to patch in {what}")
    return patched(obj, change.field, change.value or "")
