"""The fields in which one object differs from its other version (R-REC-6, R-REC-7).

Maps are walked key by key; a list of maps whose items all carry a distinct ``type`` or
``name`` (conditions, containers, channels) item by item under that key, so a reordered
list is no change; any other list of maps by position; a list of plain values
(``status.namespaces``, ``spec.skips``) is one value. Noise (``noise.py``) is skipped. What
matters most in OLM's words comes first (:data:`FIRST`), then the rest by path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CSV,
    INSTALL_PLAN,
    NAMESPACE,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.diff.noise import NOISE_KEYS, NOISE_PATHS
from olmtui.model.diff.records import FieldChange

#: At most this many fields are listed per object; the rest are counted.
FIELD_LIMIT: Final = 20

#: Per kind, the fields OLM's state turns on, listed first in this order (R-REC-6).
FIRST: Final[dict[str, tuple[str, ...]]] = {
    CSV: ("spec.version", "spec.replaces", "status.phase", "status.reason", "status.message"),
    SUBSCRIPTION: (
        "spec.channel",
        "spec.installPlanApproval",
        "spec.source",
        "spec.sourceNamespace",
        "spec.name",
        "spec.startingCSV",
        "status.state",
        "status.installedCSV",
        "status.currentCSV",
        "status.installPlanRef",
    ),
    INSTALL_PLAN: ("status.phase", "spec.approved", "spec.approval"),
    OPERATOR_GROUP: (
        "status.namespaces",
        "spec.targetNamespaces",
        "spec.selector",
        "members",
        "copies",
    ),
    CATALOG_SOURCE: (
        "spec.image",
        "status.connectionState.lastObservedState",
        "spec.priority",
        "spec.sourceType",
        "spec.address",
    ),
    CLUSTER_EXTENSION: (
        "status.install",
        "resolved",
        "status.conditions[Installed]",
        "status.conditions[Progressing]",
        "spec.source",
    ),
    CLUSTER_CATALOG: ("status.resolvedSource", "spec.source", "spec.priority"),
    NAMESPACE: ("metadata.labels",),
}
#: Per kind, what an object added or removed is said with (R-REC-6).
FACTS: Final[dict[str, tuple[str, ...]]] = {
    CSV: ("spec.version", "spec.replaces", "status.phase"),
    SUBSCRIPTION: ("spec.name", "spec.channel", "status.installedCSV"),
    INSTALL_PLAN: ("status.phase", "spec.approved", "spec.clusterServiceVersionNames"),
    CATALOG_SOURCE: ("spec.image", "status.connectionState.lastObservedState"),
    CLUSTER_EXTENSION: ("status.install.bundle.name", "status.install.bundle.version"),
    CLUSTER_CATALOG: ("status.resolvedSource.image.ref",),
}
#: Item keys a list of maps may be matched by, in this order of preference.
_ITEM_KEYS: Final = ("type", "name")


def field_changes(kind: str, before: Any, after: Any) -> list[FieldChange]:
    """Every field that differs, noise left out, most telling first."""
    found: list[FieldChange] = []
    _walk("", before, after, NOISE_PATHS.get(kind, frozenset()), found)
    return sorted(found, key=order_of(kind))


def facts_of(kind: str, obj: Mapping[str, Any]) -> dict[str, Any]:
    """The :data:`FACTS` of an object, those it holds."""
    found = {}
    for path in FACTS.get(kind, ()):
        value: Any = obj
        for part in path.split("."):
            value = value.get(part) if isinstance(value, Mapping) else None
        if value is not None:
            found[path] = value
    return found


def order_of(kind: str) -> Any:
    """The sort key of a kind's field changes: :data:`FIRST`'s order, then by path."""
    first = FIRST.get(kind, ())

    def key(change: FieldChange) -> tuple[int, str]:
        for rank, prefix in enumerate(first):
            if change.field == prefix or change.field.startswith((prefix + ".", prefix + "[")):
                return rank, change.field
        return len(first), change.field

    return key


def _join(path: str, key: str) -> str:
    if "." in key or "/" in key or not key:
        return f"{path}[{key}]"  # annotations and labels: keys with dots stay whole
    return f"{path}.{key}" if path else key


def _walk(path: str, a: Any, b: Any, noise: frozenset[str], out: list[FieldChange]) -> None:
    a, b = _absent(a), _absent(b)
    if a == b or path in noise:
        return
    if _map_like(a) and _map_like(b) and (a or b):
        left, right = a or {}, b or {}
        for key in sorted({*left, *right}, key=str):
            if key in NOISE_KEYS:
                continue
            _walk(_join(path, str(key)), left.get(key), right.get(key), noise, out)
        return
    item_key = _item_key(a, b)
    if item_key is not None:
        left_items = {item[item_key]: item for item in a or ()}
        right_items = {item[item_key]: item for item in b or ()}
        for name in sorted({*left_items, *right_items}):
            _walk(f"{path}[{name}]", left_items.get(name), right_items.get(name), noise, out)
        return
    if _maps(a) and _maps(b) and (a or b):
        left_list, right_list = a or [], b or []
        for index in range(max(len(left_list), len(right_list))):
            _walk(
                f"{path}[{index}]",
                left_list[index] if index < len(left_list) else None,
                right_list[index] if index < len(right_list) else None,
                noise,
                out,
            )
        return
    out.append(FieldChange(path, a, b))


def _absent(value: Any) -> Any:
    """An empty map or list says what an absent field says."""
    return None if isinstance(value, (Mapping, list)) and not value else value


def _map_like(value: Any) -> bool:
    return value is None or isinstance(value, Mapping)


def _maps(value: Any) -> bool:
    """A list of maps, or nothing (the other side's list is compared item by item)."""
    return value is None or (
        isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)
    )


def _item_key(a: Any, b: Any) -> str | None:
    """The key that names every item of both lists uniquely, if any."""
    if not (_maps(a) and _maps(b)) or not (a or b):
        return None
    items = [*(a or ()), *(b or ())]
    for key in _ITEM_KEYS:
        if all(isinstance(item.get(key), str) for item in items) and all(
            len({item[key] for item in side}) == len(side) for side in (a or [], b or [])
        ):
            return key
    return None
