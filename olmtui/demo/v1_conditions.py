"""A status condition as operator-controller and catalogd write them in the demo cluster:
type, status, reason, message, the time it moved and the generation it saw."""

from __future__ import annotations

from typing import Any


def condition(kind: str, status: str, reason: str, message: str, now: str) -> dict[str, Any]:
    return {
        "type": kind,
        "status": status,
        "reason": reason,
        "message": message,
        "lastTransitionTime": now,
        "observedGeneration": 1,
    }
