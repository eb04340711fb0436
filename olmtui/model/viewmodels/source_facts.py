"""The moment a snapshot was read, for the header: the newest time any object records (a
snapshot was taken at that time or later: objects only record what happened before they
were saved). The cluster's version is ``cluster_upgrade.openshift_version``; OLM's,
:func:`olm_version`, from what OLM's ClusterOperator or its package server CSV says.
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


def _newest_field(mapping: Mapping[str, object], fields: tuple[str, ...], newest: str) -> str:
    """The newest of ``newest`` and the times ``mapping`` holds in ``fields`` (read for
    every object of a snapshot: a loop, no generator per mapping)."""
    for field in fields:
        value = mapping.get(field)
        # RFC 3339 UTC strings of one shape sort as their times: parse only the winner
        if type(value) is str and value > newest and value.endswith("Z"):
            newest = value
    return newest


def _newest_in(obj: Obj, newest: str) -> str:
    obj_meta = obj.get("metadata")
    if isinstance(obj_meta, Mapping):
        newest = _newest_field(obj_meta, _META_TIMES, newest)
    status = obj.get("status")
    if not isinstance(status, Mapping):
        return newest
    newest = _newest_field(status, _STATUS_TIMES, newest)
    for key, fields in (("conditions", _CONDITION_TIMES), ("history", _HISTORY_TIMES)):
        entries = status.get(key)
        if isinstance(entries, list):
            for entry in entries:
                if isinstance(entry, Mapping):
                    newest = _newest_field(entry, fields, newest)
    return newest


def newest_time(objects: Iterable[Obj]) -> dt.datetime | None:
    """The newest time the objects record; ``None`` when none records one."""
    newest = ""
    for obj in objects:
        newest = _newest_in(obj, newest)
    return parse_time(newest) if newest else None


#: The ClusterOperators OLM reports through on OpenShift (v0's three, and v1's ``olm``).
OLM_CLUSTER_OPERATORS = (
    "operator-lifecycle-manager",
    "olm",
    "operator-lifecycle-manager-catalog",
    "operator-lifecycle-manager-packageserver",
)
#: Where OLM runs: OpenShift's namespace, upstream's.
OLM_NAMESPACES = ("openshift-operator-lifecycle-manager", "olm")
#: The CSV OLM installs for its package server: its ``spec.version`` is OLM's upstream.
PACKAGESERVER_CSV = "packageserver"
#: The version OpenShift's build stamps on that CSV: says nothing of OLM's.
_PLACEHOLDER_VERSIONS = frozenset({"0.0.1-snapshot", "0.0.0"})


def _cluster_operator_version(cluster_operators: Iterable[Obj]) -> str | None:
    """What OLM's ClusterOperator says it runs: its entry of ``status.versions`` named for
    OLM, else its ``operator`` entry (the OpenShift release it ships with)."""
    by_name: dict[str, Obj] = {}
    for co in cluster_operators:
        co_meta = co.get("metadata")
        name = co_meta.get("name") if isinstance(co_meta, Mapping) else None
        if name in OLM_CLUSTER_OPERATORS:
            by_name[name] = co
    for name in OLM_CLUSTER_OPERATORS:
        status = by_name.get(name, {}).get("status")
        versions = status.get("versions") if isinstance(status, Mapping) else None
        entries = [v for v in versions or () if isinstance(v, Mapping)]
        own = [v.get("version") for v in entries if v.get("name") != "operator"]
        release = [v.get("version") for v in entries if v.get("name") == "operator"]
        for found in (*own, *release):
            if isinstance(found, str) and found:
                return found
    return None


def olm_version(cluster_operators: Iterable[Obj], packageservers: Iterable[Obj]) -> str | None:
    """The OLM version the input shows: OLM's ClusterOperator's ``status.versions`` (on
    OpenShift), else the ``spec.version`` of the ``packageserver`` CSV OLM installs with
    itself (upstream: OLM's own version; OpenShift's placeholder is not one); ``None`` when
    the input shows neither (never guessed)."""
    found = _cluster_operator_version(cluster_operators)
    if found is not None:
        return found
    for csv in packageservers:
        spec = csv.get("spec")
        version = spec.get("version") if isinstance(spec, Mapping) else None
        if isinstance(version, str) and version and version not in _PLACEHOLDER_VERSIONS:
            return version
    return None
