"""Reading Kubernetes objects as the API server (or a snapshot file) gives them: plain dicts.

Any section may be absent or ``null`` (a hand-written Subscription has no ``status``, an
object without labels has no ``metadata.labels``), so every reader falls back to an empty
mapping instead of repeating ``(obj.get("metadata") or {})`` everywhere. The helpers run
per object on the model's hot paths: each is one lookup, no copying, no validation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: One Kubernetes object (or one of its sections) as decoded JSON.
Obj = dict[str, Any]


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
