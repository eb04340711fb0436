"""Reading Kubernetes objects as the API server (or a snapshot file) gives them: plain dicts.

Any section may be absent or ``null`` (a hand-written Subscription has no ``status``, an
object without labels has no ``metadata.labels``), so every reader falls back to an empty
mapping instead of repeating ``(obj.get("metadata") or {})`` everywhere. The helpers run
per object on the model's hot paths: each is one lookup, no copying, no validation.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

#: One Kubernetes object (or one of its sections) as decoded JSON.
Obj = dict[str, Any]

COPIED_FROM_LABEL = "olm.copiedFrom"
OPERATOR_NAMESPACE_ANNOTATION = "olm.operatorNamespace"


def is_copied_csv(obj: Obj) -> bool:
    """R-COPY-1: a CSV is a copy if its reason is Copied, its operator namespace annotation
    names another namespace, or it carries the ``olm.copiedFrom`` label."""
    # Read inline, not through meta/status: this runs for every copy, twice.
    obj_meta = obj.get("metadata") or {}
    if (obj_meta.get("labels") or {}).get(COPIED_FROM_LABEL) is not None:
        return True
    if (obj.get("status") or {}).get("reason") == "Copied":
        return True
    op_ns = (obj_meta.get("annotations") or {}).get(OPERATOR_NAMESPACE_ANNOTATION)
    return op_ns is not None and op_ns != obj_meta.get("namespace", "")


def meta(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``metadata``, or an empty dict when absent."""
    found: dict[str, Any] = obj.get("metadata") or {}
    return found


def spec(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``spec``, or an empty dict when absent."""
    found: dict[str, Any] = obj.get("spec") or {}
    return found


def status(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``status``, or an empty dict when absent (OLM has not written it yet)."""
    found: dict[str, Any] = obj.get("status") or {}
    return found


def labels(obj: Mapping[str, Any]) -> dict[str, str]:
    """``metadata.labels``, or an empty dict."""
    found: dict[str, str] = (obj.get("metadata") or {}).get("labels") or {}
    return found


def annotations_of(obj: Mapping[str, Any]) -> dict[str, str]:
    """``metadata.annotations``, or an empty dict."""
    found: dict[str, str] = (obj.get("metadata") or {}).get("annotations") or {}
    return found


def name_of(obj: Mapping[str, Any]) -> str:
    """``metadata.name``, or ``""`` for a malformed object."""
    return str((obj.get("metadata") or {}).get("name") or "")


def namespace_of(obj: Mapping[str, Any]) -> str:
    """``metadata.namespace``; ``""`` for cluster-scoped objects."""
    return str((obj.get("metadata") or {}).get("namespace") or "")


def text_of(value: Any) -> str | None:
    """A field read as OLM writes it, a non-empty string; anything else is absent (JSON text
    inside a field, never checked where objects enter the cache)."""
    return value if isinstance(value, str) and value else None


def mapping_of(value: Any) -> dict[str, Any]:
    """A section read as OLM writes it, a mapping; anything else is an empty one."""
    return value if isinstance(value, dict) else {}


def parse_time(value: Any) -> dt.datetime | None:
    """An RFC 3339 time as the API writes it (``2024-01-02T03:04:05Z``; YAML loaders may
    give a datetime), in UTC when it names no zone; ``None`` when it is not one."""
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
