"""What the objects say about the cluster and the moment they were read, for the header.

Pure functions over plain objects: the OpenShift version a ClusterVersion records, and the
newest time any object records (a snapshot was taken at that time or later: objects only
record what happened before they were saved).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.model.cluster_upgrade import CLUSTER_VERSION_NAME
from olmtui.objects import Obj, meta

#: Fields holding RFC 3339 times, in metadata, in status and in each status condition.
_META_TIMES = ("creationTimestamp", "deletionTimestamp")
_STATUS_TIMES = ("lastUpdateTime", "lastTransitionTime", "lastUpdated", "lastSync")
_CONDITION_TIMES = ("lastUpdateTime", "lastTransitionTime", "lastHeartbeatTime", "lastProbeTime")


def openshift_version(cluster_versions: Iterable[Obj]) -> str | None:
    """The full version of the ClusterVersion ``version`` (e.g. ``4.14.12``): its newest
    Completed history entry, else the desired version; ``None`` when it says neither."""
    for cv in cluster_versions:
        if meta(cv).get("name") != CLUSTER_VERSION_NAME:
            continue
        status = cv.get("status") or {}
        for entry in status.get("history") or []:  # newest first, as OpenShift writes it
            if isinstance(entry, dict) and entry.get("state") == "Completed":
                if entry.get("version"):
                    return str(entry["version"])
                break
        desired = (status.get("desired") or {}).get("version")
        return str(desired) if desired else None
    return None


def parse_time(raw: object) -> dt.datetime | None:
    """An RFC 3339 time as Kubernetes writes it (``2024-01-02T03:04:05Z``), in UTC."""
    if not isinstance(raw, str) or not raw:
        return None
    try:
        parsed = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.astimezone(dt.UTC) if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def _times(obj: Obj) -> Iterable[object]:
    obj_meta = meta(obj)
    yield from (obj_meta.get(f) for f in _META_TIMES)
    status = obj.get("status")
    if not isinstance(status, Mapping):
        return
    yield from (status.get(f) for f in _STATUS_TIMES)
    for condition in _list(status.get("conditions")):
        yield from (condition.get(f) for f in _CONDITION_TIMES)
    for entry in _list(status.get("history")):
        yield from (entry.get(f) for f in ("startedTime", "completionTime"))


def _list(value: Any) -> list[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def newest_time(objects: Iterable[Obj]) -> dt.datetime | None:
    """The newest time the objects record; ``None`` when none records one."""
    newest: str | None = None
    for obj in objects:
        for raw in _times(obj):
            # RFC 3339 UTC strings of one shape sort as their times: parse only the winner
            if isinstance(raw, str) and raw.endswith("Z") and (newest is None or raw > newest):
                newest = raw
    return parse_time(newest)
