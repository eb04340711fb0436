"""Why a CatalogSource does not serve, from its pod (R-EVD-2).

A catalog's ``TRANSIENT_FAILURE`` is the symptom OLM reports; the cause is usually the
registry pod OLM runs for it (label ``olm.catalogSource=<name>`` in the catalog's namespace):
a container in ``CrashLoopBackOff``, an image that cannot be pulled, a container the kernel
killed for memory, or a pod that restarts and never becomes Ready. A finding stands on the
pod and names why; R-DIAG-20 links the catalog's own finding to it. A healthy pod, or none
in the input, is no finding: unknown is not absent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from olmtui.kinds import CATALOG_SOURCE, POD
from olmtui.model.records.types import EventEvidence, Evidence, FieldEvidence, Finding, ObjectRef
from olmtui.objects import Obj, meta, name_of, namespace_of

#: The label OLM puts on a CatalogSource's registry pod.
CATALOG_LABEL = "olm.catalogSource"
_IMAGE_PULL = frozenset({"ImagePullBackOff", "ErrImagePull", "InvalidImageName"})
#: The codes of the findings on a catalog pod, the causes R-DIAG-20 links from.
CATALOG_POD_CODES = frozenset(
    {
        "CatalogPodCrashLoopBackOff",
        "CatalogPodImagePull",
        "CatalogPodOOMKilled",
        "CatalogPodNotReady",
    }
)


def pods_by_catalog(pods: Iterable[Obj]) -> dict[tuple[str, str], list[Obj]]:
    """The catalog pods by (namespace, CatalogSource name): their label, in their namespace."""
    found: dict[tuple[str, str], list[Obj]] = {}
    for pod in pods:
        catalog = (meta(pod).get("labels") or {}).get(CATALOG_LABEL)
        if catalog:
            found.setdefault((namespace_of(pod), catalog), []).append(pod)
    return found


def _containers(pod: Obj) -> list[Obj]:
    status = pod.get("status") or {}
    return [*status.get("initContainerStatuses", ()), *status.get("containerStatuses", ())]


def _ready(pod: Obj) -> bool | None:
    for condition in (pod.get("status") or {}).get("conditions", ()):
        if condition.get("type") == "Ready":
            return bool(condition.get("status") == "True")
    return None


def _why(pod: Obj) -> tuple[str, str, tuple[str, str]] | None:
    """The pod's trouble as (code, sentence, (field, value) it rests on), worst first;
    ``None`` when it shows none."""
    containers = _containers(pod)
    for status in containers:
        waiting = (status.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") in _IMAGE_PULL:
            detail = f": {waiting['message']}" if waiting.get("message") else ""
            return (
                "CatalogPodImagePull",
                f"container {status.get('name', '?')} cannot pull its image "
                f"({waiting['reason']}{detail})",
                (_field(status, "state.waiting.reason"), waiting["reason"]),
            )
    for status in containers:
        terminated = (status.get("lastState") or {}).get("terminated") or {}
        # a kill the container recovered from (running again, the pod Ready) stops nothing
        down = _ready(pod) is not True or "waiting" in (status.get("state") or {})
        if terminated.get("reason") == "OOMKilled" and down:
            return (
                "CatalogPodOOMKilled",
                f"container {status.get('name', '?')} was killed for memory (OOMKilled, "
                f"{status.get('restartCount', 0)} restarts): the catalog's content needs more "
                "than its memory limit",
                (_field(status, "lastState.terminated.reason"), "OOMKilled"),
            )
    for status in containers:
        waiting = (status.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") == "CrashLoopBackOff":
            last = (status.get("lastState") or {}).get("terminated") or {}
            ended = f", last ended {last['reason']}" if last.get("reason") else ""
            return (
                "CatalogPodCrashLoopBackOff",
                f"container {status.get('name', '?')} is in CrashLoopBackOff "
                f"({status.get('restartCount', 0)} restarts{ended})",
                (_field(status, "state.waiting.reason"), "CrashLoopBackOff"),
            )
    restarts = sum(s.get("restartCount", 0) for s in containers)
    if _ready(pod) is False and restarts > 0:
        return (
            "CatalogPodNotReady",
            f"the pod is not Ready and restarted {restarts} times",
            ("status.conditions[Ready].status", "False"),
        )
    return None


def _field(status: Obj, path: str) -> str:
    """The path of a container's field, as the evidence names it."""
    return f"status.containerStatuses[{status.get('name', '?')}].{path}"


#: The Events about one object (kind, namespace, name), in the cache's order
#: (``Store.events_in_order``): a rule asks for the few objects it reports on, never groups
#: a hundred thousand Events to find them.
EventsOf = Callable[[str, str, str], Iterable[Obj]]


def no_events(kind: str, namespace: str, name: str) -> tuple[Obj, ...]:
    """:data:`EventsOf` when no Event is known."""
    return ()


def newest_first(events: Iterable[Obj]) -> list[Obj]:
    """Events newest first (by last or event time): sorted oldest first, then reversed, so
    that of two Events of the same time the one cached later comes first."""
    listed = list(events)
    listed.sort(key=lambda e: str(e.get("lastTimestamp") or e.get("eventTime") or ""))
    listed.reverse()
    return listed


def events_about(events: Iterable[Obj]) -> dict[tuple[str, str, str], list[Obj]]:
    """The Events by the (kind, namespace, name) they are about, each newest first."""
    found: dict[tuple[str, str, str], list[Obj]] = {}
    for event in events:
        involved = event.get("involvedObject") or {}
        key = (involved.get("kind", ""), involved.get("namespace", ""), involved.get("name", ""))
        found.setdefault(key, []).append(event)
    return {key: newest_first(listed) for key, listed in found.items()}


def event_evidence(event: Obj) -> EventEvidence:
    """An Event (as the cache keeps it, R-EVD-1) as a finding's evidence."""
    involved = event.get("involvedObject") or {}
    return EventEvidence(
        involved.get("kind", ""),
        involved.get("namespace", ""),
        involved.get("name", ""),
        event.get("reason", ""),
        event.get("message", ""),
        event.get("type", ""),
        event.get("count", 1),
        event.get("lastTimestamp") or event.get("eventTime") or "",
    )


def catalog_pod_findings(
    catalog_sources: Iterable[Obj], pods: Iterable[Obj], events: EventsOf = no_events
) -> list[Finding]:
    """R-EVD-2: one finding per unhealthy pod of a CatalogSource, naming why, with the field
    it rests on and the pod's Events (R-EVD-1) as its evidence."""
    by_catalog = pods_by_catalog(pods)
    findings: list[Finding] = []
    for source in catalog_sources:
        namespace, name = namespace_of(source), name_of(source)
        for pod in by_catalog.get((namespace, name), ()):
            why = _why(pod)
            if why is None:
                continue
            code, sentence, (field, value) = why
            serving = _connection_state(source) == "READY"
            evidence: list[Evidence] = [FieldEvidence(POD, namespace, name_of(pod), field, value)]
            evidence += map(event_evidence, newest_first(events(POD, namespace, name_of(pod))))
            findings.append(
                Finding(
                    "warning" if serving else "error",
                    code,
                    POD,
                    namespace,
                    name_of(pod),
                    f"Pod {name_of(pod)} of CatalogSource {namespace}/{name}: {sentence}. "
                    + (
                        "The catalog is READY all the same: another of its pods serves (this "
                        "one may be an update of its image, which OLM abandons while it "
                        "crash-loops)."
                        if serving
                        else "OLM cannot reach a catalog whose registry pod does not serve, "
                        "and no Subscription resolving against it installs or upgrades until "
                        "it does."
                    ),
                    rule="R-EVD-2",
                    related=(ObjectRef(CATALOG_SOURCE, namespace, name),),
                    evidence=tuple(evidence),
                )
            )
    return findings


def _connection_state(catalog_source: Obj) -> str | None:
    """The catalog's connection as OLM last observed it (R-SUB-8), if it says."""
    status = catalog_source.get("status")
    connection = status.get("connectionState") if isinstance(status, dict) else None
    state = connection.get("lastObservedState") if isinstance(connection, dict) else None
    return state if isinstance(state, str) else None
