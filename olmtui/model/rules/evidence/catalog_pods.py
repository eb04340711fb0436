"""Why a CatalogSource does not serve, from its pod (R-EVD-2).

A catalog's ``TRANSIENT_FAILURE`` is the symptom OLM reports; the cause is usually the
registry pod OLM runs for it (label ``olm.catalogSource=<name>`` in the catalog's namespace):
a container in ``CrashLoopBackOff``, an image that cannot be pulled, a container the kernel
killed for memory, or a pod that restarts and never becomes Ready. A finding stands on the
pod and names why; R-DIAG-20 links the catalog's own finding to it. A healthy pod, or none
in the input, is no finding: unknown is not absent.
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.kinds import CATALOG_SOURCE, POD
from olmtui.model.records.types import Finding, ObjectRef
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


def _why(pod: Obj) -> tuple[str, str] | None:
    """The pod's trouble as (code, sentence), worst first; ``None`` when it shows none."""
    containers = _containers(pod)
    for status in containers:
        waiting = (status.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") in _IMAGE_PULL:
            detail = f": {waiting['message']}" if waiting.get("message") else ""
            return "CatalogPodImagePull", (
                f"container {status.get('name', '?')} cannot pull its image "
                f"({waiting['reason']}{detail})"
            )
    for status in containers:
        terminated = (status.get("lastState") or {}).get("terminated") or {}
        if terminated.get("reason") == "OOMKilled":
            return "CatalogPodOOMKilled", (
                f"container {status.get('name', '?')} was killed for memory (OOMKilled, "
                f"{status.get('restartCount', 0)} restarts): the catalog's content needs more "
                "than its memory limit"
            )
    for status in containers:
        waiting = (status.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") == "CrashLoopBackOff":
            last = (status.get("lastState") or {}).get("terminated") or {}
            ended = f", last ended {last['reason']}" if last.get("reason") else ""
            return "CatalogPodCrashLoopBackOff", (
                f"container {status.get('name', '?')} is in CrashLoopBackOff "
                f"({status.get('restartCount', 0)} restarts{ended})"
            )
    restarts = sum(s.get("restartCount", 0) for s in containers)
    if _ready(pod) is False and restarts > 0:
        return "CatalogPodNotReady", f"the pod is not Ready and restarted {restarts} times"
    return None


def catalog_pod_findings(catalog_sources: Iterable[Obj], pods: Iterable[Obj]) -> list[Finding]:
    """R-EVD-2: one finding per unhealthy pod of a CatalogSource, naming why."""
    by_catalog = pods_by_catalog(pods)
    findings: list[Finding] = []
    for source in catalog_sources:
        namespace, name = namespace_of(source), name_of(source)
        for pod in by_catalog.get((namespace, name), ()):
            why = _why(pod)
            if why is None:
                continue
            code, sentence = why
            findings.append(
                Finding(
                    "error",
                    code,
                    POD,
                    namespace,
                    name_of(pod),
                    f"Pod {name_of(pod)} of CatalogSource {namespace}/{name}: {sentence}. "
                    "OLM cannot reach a catalog whose registry pod does not serve, and no "
                    "Subscription resolving against it installs or upgrades until it does.",
                    rule="R-EVD-2",
                    related=(ObjectRef(CATALOG_SOURCE, namespace, name),),
                )
            )
    return findings
