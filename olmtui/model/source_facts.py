"""What the objects say about the cluster and the moment they were read, for the header.

Pure functions over plain objects: the OpenShift version a ClusterVersion records, and the
newest time any object records (a snapshot was taken at that time or later: objects only
record what happened before they were saved).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from olmtui.model.cluster_upgrade import CLUSTER_VERSION_NAME
from olmtui.objects import Obj, meta

#: Fields holding RFC 3339 times, in metadata, in status and in each status condition.
_META_TIMES = ("creationTimestamp", "deletionTimestamp")
_STATUS_TIMES = ("lastUpdateTime", "lastTransitionTime", "lastUpdated", "lastSync")
_CONDITION_TIMES = ("lastUpdateTime", "lastTransitionTime", "lastHeartbeatTime", "lastProbeTime")
_HISTORY_TIMES = ("startedTime", "completionTime")


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


def _newest_of(values: Iterable[object], newest: str) -> str:
    for value in values:
        # RFC 3339 UTC strings of one shape sort as their times: parse only the winner
        if type(value) is str and value > newest and value.endswith("Z"):
            newest = value
    return newest


def _newest_in(obj: Obj, newest: str) -> str:
    obj_meta = obj.get("metadata")
    if isinstance(obj_meta, Mapping):
        newest = _newest_of((obj_meta.get(f) for f in _META_TIMES), newest)
    status = obj.get("status")
    if not isinstance(status, Mapping):
        return newest
    newest = _newest_of((status.get(f) for f in _STATUS_TIMES), newest)
    for key, fields in (("conditions", _CONDITION_TIMES), ("history", _HISTORY_TIMES)):
        entries = status.get(key)
        if isinstance(entries, list):
            for entry in entries:
                if isinstance(entry, Mapping):
                    newest = _newest_of((entry.get(f) for f in fields), newest)
    return newest


def newest_time(objects: Iterable[Obj]) -> dt.datetime | None:
    """The newest time the objects record; ``None`` when none records one."""
    newest = ""
    for obj in objects:
        newest = _newest_in(obj, newest)
    return parse_time(newest) if newest else None
