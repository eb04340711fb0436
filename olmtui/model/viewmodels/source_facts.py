"""The moment a snapshot was read, for the header: the newest time any object records (a
snapshot was taken at that time or later: objects only record what happened before they
were saved). The cluster's version is ``cluster_upgrade.openshift_version``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from olmtui.objects import Obj, parse_time

#: Fields holding RFC 3339 times, in metadata, in status and in each status condition.
_META_TIMES = ("creationTimestamp", "deletionTimestamp")
_STATUS_TIMES = ("lastUpdateTime", "lastTransitionTime", "lastUpdated", "lastSync")
_CONDITION_TIMES = ("lastUpdateTime", "lastTransitionTime", "lastHeartbeatTime", "lastProbeTime")
_HISTORY_TIMES = ("startedTime", "completionTime")


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
