"""Pods, Jobs and Events as the cache keeps them: the few fields the evidence findings read
(R-EVD-1), and a bound on Events per involved object.

A cluster holds thousands of pods and up to a hundred thousand events; the findings need
a catalog pod's phase, readiness and container states, an unpack Job's labels and
conditions, and an Event's reason, message, count, times and involved object. Everything
else (pod specs, volumes, managed fields, annotations) is dropped on the way in, and only
values of the expected type are kept, so the model can read them without checks.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CSV,
    DEPLOYMENT,
    EVENT,
    INSTALL_PLAN,
    JOB,
    OLM_CONFIG,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    POD,
    SUBSCRIPTION,
)

Obj = dict[str, Any]

#: The newest Events kept per involved object (R-EVD-1): a crash-looping pod emits one
#: ``BackOff`` event after another, and OLM emits its own every few minutes.
EVENTS_PER_OBJECT = 20
#: An Event's (or a condition's) message longer than this is cut: the reason and the first
#: lines say why.
_MESSAGE_LIMIT = 2048
#: The kinds an Event is kept for: OLM's own, and the Pods, Jobs and Deployments its
#: catalogs, unpack Jobs and operators run as.
EVENT_SUBJECT_KINDS: frozenset[str] = frozenset(
    {
        CSV,
        SUBSCRIPTION,
        INSTALL_PLAN,
        CATALOG_SOURCE,
        OPERATOR_GROUP,
        OPERATOR_CONDITION,
        OLM_CONFIG,
        CLUSTER_EXTENSION,
        CLUSTER_CATALOG,
        POD,
        JOB,
        DEPLOYMENT,
    }
)
_METADATA = ("name", "namespace", "uid", "resourceVersion", "creationTimestamp")


def _str(value: Any) -> TypeGuard[str]:
    return isinstance(value, str)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(value: Any) -> bool:
    return isinstance(value, list)


def _dict(value: Any) -> Obj:
    """``value`` when it is a mapping, else empty: a wrong-typed field reads as absent."""
    return value if isinstance(value, dict) else {}


def picked(mapping: Any, fields: tuple[str, ...], test: Any = _str) -> Obj:
    """The ``fields`` of ``mapping`` whose values pass ``test``."""
    if not isinstance(mapping, dict):
        return {}
    return {k: mapping[k] for k in fields if k in mapping and test(mapping[k])}


def _labels(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if _str(k) and _str(v)}


def _metadata(obj: Obj, *, labels: bool = True) -> Obj:
    obj_meta = _dict(obj.get("metadata"))
    kept = picked(obj_meta, _METADATA)
    if labels and _labels(obj_meta.get("labels")):
        kept["labels"] = _labels(obj_meta.get("labels"))
    owners = obj_meta.get("ownerReferences")
    if isinstance(owners, list):
        kept_owners = [picked(o, ("kind", "name", "uid")) for o in owners]
        kept["ownerReferences"] = [o for o in kept_owners if o]
    return kept


def kept_conditions(
    value: Any, types: frozenset[str] | None = None, limit: int = _MESSAGE_LIMIT
) -> list[Obj]:
    """The conditions in ``value`` (of ``types``, when given) with their string fields, each
    message cut at ``limit``; the cache's trimmers share it."""
    if not isinstance(value, list):
        return []
    fields = ("type", "status", "reason", "message", "lastTransitionTime")
    kept = [picked(c, fields) for c in value]
    for condition in kept:
        if "message" in condition:
            condition["message"] = condition["message"][:limit]
    return [c for c in kept if "type" in c and (types is None or c["type"] in types)]


def _container_status(status: Any) -> Obj:
    """One container's name, readiness, restarts, why it waits and how it last ended."""
    kept = picked(status, ("name",))
    if not isinstance(status, dict):
        return kept
    if _int(status.get("restartCount")):
        kept["restartCount"] = status["restartCount"]
    if isinstance(status.get("ready"), bool):
        kept["ready"] = status["ready"]
    waiting = picked(_dict(status.get("state")).get("waiting"), ("reason", "message"))
    if waiting:
        kept["state"] = {"waiting": waiting}
    last = _dict(status.get("lastState")).get("terminated")
    terminated = picked(last, ("reason", "message", "finishedAt"))
    if isinstance(last, dict) and _int(last.get("exitCode")):
        terminated["exitCode"] = last["exitCode"]
    if terminated:
        kept["lastState"] = {"terminated": terminated}
    return kept


#: The Pod conditions kept: readiness, and whether the scheduler placed it (an install's
#: pod ``Pending`` on ``Unschedulable``, "0/6 nodes are available: ...", R-EVD-9).
_POD_CONDITIONS = frozenset({"Ready", "PodScheduled"})


def trim_pod(obj: Obj) -> Obj:
    """A Pod: identity, labels, owners, phase, its Ready and PodScheduled conditions and its
    containers' states (R-EVD-1); its spec is dropped."""
    status = _dict(obj.get("status"))
    kept_status = picked(status, ("phase", "reason", "message"))
    ready = kept_conditions(status.get("conditions"), _POD_CONDITIONS)
    if ready:
        kept_status["conditions"] = ready
    for field in ("initContainerStatuses", "containerStatuses"):
        containers = status.get(field)
        if isinstance(containers, list):
            kept_status[field] = [_container_status(c) for c in containers]
    return {"apiVersion": "v1", "kind": POD, "metadata": _metadata(obj), "status": kept_status}


def trim_job(obj: Obj) -> Obj:
    """A Job: identity, labels (the unpack Job's ``operatorframework.io/bundle-unpack-ref``),
    owners, conditions, start and completion, counts of failed and succeeded pods."""
    status = _dict(obj.get("status"))
    kept_status = picked(status, ("startTime", "completionTime"))
    kept_status.update(picked(status, ("failed", "succeeded", "active"), _int))
    conditions = kept_conditions(status.get("conditions"))
    if conditions:
        kept_status["conditions"] = conditions
    return {
        "apiVersion": "batch/v1",
        "kind": JOB,
        "metadata": _metadata(obj),
        "status": kept_status,
    }


def event_subject(obj: Obj) -> tuple[str, str, str] | None:
    """The (kind, namespace, name) an Event is about, or ``None`` when it names none (read
    for every Event twice on its way in: ``isinstance`` inline, not through ``_str``)."""
    involved = obj.get("involvedObject") or obj.get("regarding")
    if not isinstance(involved, dict):
        return None
    kind, name = involved.get("kind"), involved.get("name")
    if not (isinstance(kind, str) and isinstance(name, str)):
        return None
    namespace = involved.get("namespace")
    return kind, namespace if isinstance(namespace, str) else "", name


def keeps_event(obj: Obj) -> bool:
    """Whether the cache keeps this Event: its involved object is of an OLM kind or a Pod,
    Job or Deployment (R-EVD-1)."""
    subject = event_subject(obj)
    return subject is not None and subject[0] in EVENT_SUBJECT_KINDS


def event_time(obj: Obj) -> str:
    """When an Event last happened, as its RFC 3339 text ("" when it says nothing): the
    first it has of ``lastTimestamp``, ``eventTime``, ``firstTimestamp``, creation."""
    for value in (
        obj.get("lastTimestamp"),
        obj.get("eventTime"),
        obj.get("firstTimestamp"),
        _dict(obj.get("metadata")).get("creationTimestamp"),
    ):
        if _str(value) and value:
            return value
    return ""


#: The Event fields kept as they are when they are strings (after ``metadata``).
_EVENT_TEXTS = ("reason", "type", "firstTimestamp", "lastTimestamp", "eventTime")


def trim_event(obj: Obj) -> Obj:
    """An Event: reason, message (cut), type, count, first and last time, involved object.

    Spelled out, not through :func:`picked` and :func:`_metadata` (the same fields, tests
    and order): a must-gather brings a hundred thousand Events, and the calls per field were
    most of their trimming."""
    obj_meta = obj.get("metadata")
    kept_meta: Obj = {}
    if isinstance(obj_meta, dict):
        for field in _METADATA:
            value = obj_meta.get(field)
            if isinstance(value, str):
                kept_meta[field] = value
        owners = obj_meta.get("ownerReferences")
        if isinstance(owners, list):
            kept_owners = [picked(o, ("kind", "name", "uid")) for o in owners]
            kept_meta["ownerReferences"] = [o for o in kept_owners if o]
    kept: Obj = {"apiVersion": "v1", "kind": EVENT, "metadata": kept_meta}
    for field in _EVENT_TEXTS:
        value = obj.get(field)
        if isinstance(value, str):
            kept[field] = value
    message = obj.get("message") or obj.get("note")
    if isinstance(message, str):
        kept["message"] = message[:_MESSAGE_LIMIT]
    count = obj.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        kept["count"] = count
    involved = obj.get("involvedObject") or obj.get("regarding")
    if isinstance(involved, dict):
        kind, name = involved.get("kind"), involved.get("name")
        if isinstance(kind, str) and isinstance(name, str):
            namespace = involved.get("namespace")
            kept["involvedObject"] = {
                "kind": kind,
                "namespace": namespace if isinstance(namespace, str) else "",
                "name": name,
            }
    return kept


_CRD_SPEC = ("group", "scope", "version")
_CRD_NAMES = ("kind", "plural", "singular", "listKind")
_CRD_VERSION = ("name", "served", "storage", "deprecated")
_SERVICE_REF = ("name", "namespace", "path", "port")


def _client_config(config: Any) -> Obj:
    """A webhook's client config without its CA bundle: where it calls."""
    kept = picked(config, ("url",))
    service = picked(_dict(config).get("service"), _SERVICE_REF, lambda v: True)
    if service:
        kept["service"] = service
    return kept


def _crd_conversion(conversion: Any) -> Obj:
    """A CRD's conversion strategy and where its webhook is (v1 and v1beta1 forms)."""
    kept = picked(conversion, ("strategy",))
    conversion = _dict(conversion)
    webhook = _dict(conversion.get("webhook"))
    if webhook:
        kept_webhook = picked(webhook, ("conversionReviewVersions",), lambda v: isinstance(v, list))
        if isinstance(webhook.get("clientConfig"), dict):
            kept_webhook["clientConfig"] = _client_config(webhook["clientConfig"])
        kept["webhook"] = kept_webhook
    if isinstance(conversion.get("webhookClientConfig"), dict):
        kept["webhookClientConfig"] = _client_config(conversion["webhookClientConfig"])
    return kept


def crd_sections(obj: Obj) -> tuple[Obj, Obj]:
    """A CRD's spec and status as the cache keeps them: its group, scope, names, versions
    (served, storage, deprecated) and conversion, ``status.storedVersions``,
    ``acceptedNames`` and conditions (R-EVD-4, R-EVD-5); no schema, printer columns or CA
    bundle, which are most of a CRD's bytes and read by no rule."""
    spec = _dict(obj.get("spec"))
    kept_spec = picked(spec, _CRD_SPEC)
    names = picked(spec.get("names"), _CRD_NAMES)
    if names:
        kept_spec["names"] = names
    versions = spec.get("versions")
    if isinstance(versions, list):
        kept_spec["versions"] = [
            picked(v, _CRD_VERSION, lambda value: True) for v in versions if isinstance(v, dict)
        ]
    if "conversion" in spec:
        kept_spec["conversion"] = _crd_conversion(spec["conversion"])
    status = _dict(obj.get("status"))
    kept_status = picked(status, ("storedVersions",), _list)
    accepted = picked(status.get("acceptedNames"), _CRD_NAMES)
    if accepted:
        kept_status["acceptedNames"] = accepted
    conditions = kept_conditions(status.get("conditions"))
    if conditions:
        kept_status["conditions"] = conditions
    return kept_spec, kept_status


def trim_evidence(obj: Obj) -> Obj | None:
    """The trimmed Pod, Job or Event; ``None`` for another kind."""
    kind = obj.get("kind")
    if kind == POD:
        return trim_pod(obj)
    if kind == JOB:
        return trim_job(obj)
    if kind == EVENT:
        return trim_event(obj)
    return None
