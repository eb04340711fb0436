"""Why an installing CSV waits, from the pods of its Deployments (R-EVD-9).

OLM keeps a CSV ``Installing``/``InstallWaiting`` until every Deployment of its install
strategy is available, and fails it (``InstallCheckFailed``) after five minutes (R-CSV-I). The
CSV says only "deployment X not available"; the Deployment's pods say why: a container that
cannot pull its image, whose config (a Secret, a ConfigMap) is missing, that crash-loops or is
killed for memory, a pod the scheduler cannot place ("0/6 nodes are available: 3 Insufficient
cpu"), or one whose probes fail (``Unhealthy`` Events). A finding stands on the pod and names
why; R-DIAG-27 makes it the root of the CSV's own finding.

A Deployment's pods are those its ``spec.selector.matchLabels`` select in its namespace, or
(when the input holds no Deployment, or it has no selector) those whose owner is one of its
ReplicaSets (``<deployment>-<pod-template-hash>``). No pod in the input proves nothing (must-
gathers and live reads may not carry them): unknown is not absent, so that is no finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Protocol

from olmtui.frozen import frozen
from olmtui.kinds import CSV, DEPLOYMENT, EVENT, POD
from olmtui.model.records.types import (
    Evidence,
    FieldEvidence,
    Finding,
    ObjectRef,
    Severity,
)
from olmtui.model.rules.csvs.deployments import waited_deployments
from olmtui.model.rules.evidence.catalog_pods import event_evidence, events_about
from olmtui.objects import Obj, is_copied_csv, meta, name_of, namespace_of, spec, status

#: The phases of a CSV that wait on its Deployments (R-CSV-P, R-CSV-IR, R-CSV-I) ...
WAITING_PHASES = frozenset({"Pending", "InstallReady", "Installing"})
#: ... and the reasons of a Failed CSV whose install check gave up on them (R-CSV-I).
FAILED_WAITING = frozenset({"InstallCheckFailed", "InstallWaiting"})
_IMAGE_PULL = frozenset({"ImagePullBackOff", "ErrImagePull", "InvalidImageName"})
_CONFIG = frozenset({"CreateContainerConfigError", "CreateContainerError"})
#: The codes of the findings on an install's pod, the causes R-DIAG-27 links from.
INSTALL_POD_CODES = frozenset(
    {
        "InstallPodImagePull",
        "InstallPodConfigError",
        "InstallPodOOMKilled",
        "InstallPodCrashLoopBackOff",
        "InstallPodUnschedulable",
        "InstallPodProbeFailing",
    }
)
#: A ReplicaSet's name: its Deployment's, a dash, the pod template hash.
_REPLICA_SET = re.compile(r"^(.+)-[a-z0-9]{1,10}$")


class Objects(Protocol):
    """The objects read, as the cache (``olmtui.store.Store``) hands them out."""

    def get(self, kind: str, namespace: str, name: str) -> Obj | None: ...
    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]: ...


def waits_on_deployments(csv: Obj) -> bool:
    """Whether the CSV waits for its Deployments: it is Pending, InstallReady or Installing,
    or Failed because its install check gave up (R-CSV-I). Copies deploy nothing (R-COPY-1)."""
    csv_status = status(csv)
    phase, reason = csv_status.get("phase"), csv_status.get("reason")
    if is_copied_csv(csv):
        return False
    return phase in WAITING_PHASES or (phase == "Failed" and reason in FAILED_WAITING)


def install_deployments(csv: Obj) -> list[str]:
    """The names of the Deployments the CSV's install strategy creates
    (``spec.install.spec.deployments[].name``), then those OLM's messages say it waits for
    (R-CSV-I; a snapshot may hold the CSV's status without its install strategy)."""
    install = spec(csv).get("install")
    strategy = install.get("spec") if isinstance(install, dict) else None
    listed = strategy.get("deployments") if isinstance(strategy, dict) else None
    names = (
        [d.get("name") for d in listed if isinstance(d, dict)] if isinstance(listed, list) else []
    )
    names += waited_deployments(csv)
    return list(dict.fromkeys(n for n in names if isinstance(n, str) and n))


def _match_labels(deployment: Obj | None) -> dict[str, str]:
    if deployment is None:
        return {}
    selector = spec(deployment).get("selector")
    match = selector.get("matchLabels") if isinstance(selector, dict) else None
    if not isinstance(match, dict):
        return {}
    return {k: v for k, v in match.items() if isinstance(k, str) and isinstance(v, str)}


def _owned_by(pod: Obj, deployment: str) -> bool:
    """The pod's owner is a ReplicaSet of the Deployment (``<deployment>-<hash>``)."""
    for owner in meta(pod).get("ownerReferences") or ():
        found = _REPLICA_SET.match(str(owner.get("name") or ""))
        if owner.get("kind") == "ReplicaSet" and found and found.group(1) == deployment:
            return True
    return False


def deployment_pods(name: str, deployment: Obj | None, pods: Iterable[Obj]) -> list[Obj]:
    """The pods of the Deployment ``name`` among ``pods`` (of its namespace), by name: those
    its selector's ``matchLabels`` select, or those a ReplicaSet of it owns."""
    match = _match_labels(deployment)
    found = []
    for pod in pods:
        pod_labels = meta(pod).get("labels") or {}
        selected = bool(match) and all(pod_labels.get(k) == v for k, v in match.items())
        if selected or _owned_by(pod, name):
            found.append(pod)
    return sorted(found, key=name_of)


def _containers(pod: Obj) -> list[Obj]:
    pod_status = status(pod)
    return [*pod_status.get("initContainerStatuses", ()), *pod_status.get("containerStatuses", ())]


def _condition(pod: Obj, kind: str) -> Obj:
    for condition in status(pod).get("conditions", ()):
        if condition.get("type") == kind:
            found: Obj = condition
            return found
    return {}


def _field(container: Obj, path: str) -> str:
    return f"status.containerStatuses[{container.get('name', '?')}].{path}"


@frozen
class PodTrouble:
    """Why one pod does not serve: the finding's code, a sentence, the field it rests on
    and its value, and how bad it is."""

    code: str
    sentence: str
    field: str
    value: str
    severity: Severity = "error"


def _waiting(containers: list[Obj], reasons: frozenset[str]) -> Iterator[tuple[Obj, Obj]]:
    for container in containers:
        waiting = (container.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") in reasons:
            yield container, waiting


def _said(waiting: Obj) -> str:
    return f": {waiting['message']}" if waiting.get("message") else ""


def pod_trouble(pod: Obj, unhealthy: Iterable[Obj] = ()) -> PodTrouble | None:
    """The pod's trouble, worst first; ``None`` when it shows none. ``unhealthy``: the
    pod's ``Unhealthy`` Events (failing probes), newest first."""
    containers = _containers(pod)
    for container, waiting in _waiting(containers, _IMAGE_PULL):
        return PodTrouble(
            "InstallPodImagePull",
            f"container {container.get('name', '?')} cannot pull its image "
            f"({waiting['reason']}{_said(waiting)})",
            _field(container, "state.waiting.reason"),
            waiting["reason"],
        )
    for container, waiting in _waiting(containers, _CONFIG):
        return PodTrouble(
            "InstallPodConfigError",
            f"container {container.get('name', '?')} cannot be created "
            f"({waiting['reason']}{_said(waiting)}): a Secret or ConfigMap it reads is missing "
            "or lacks the key",
            _field(container, "state.waiting.reason"),
            waiting["reason"],
        )
    ready = _condition(pod, "Ready").get("status")
    for container in containers:
        terminated = (container.get("lastState") or {}).get("terminated") or {}
        # a kill the container recovered from (running again, the pod Ready) stops nothing
        down = ready != "True" or "waiting" in (container.get("state") or {})
        if terminated.get("reason") == "OOMKilled" and down:
            return PodTrouble(
                "InstallPodOOMKilled",
                f"container {container.get('name', '?')} was killed for memory (OOMKilled, "
                f"{container.get('restartCount', 0)} restarts): it needs more than its memory "
                "limit",
                _field(container, "lastState.terminated.reason"),
                "OOMKilled",
            )
    for container, _ in _waiting(containers, frozenset({"CrashLoopBackOff"})):
        last = (container.get("lastState") or {}).get("terminated") or {}
        ended = f", last ended {last['reason']}" if last.get("reason") else ""
        return PodTrouble(
            "InstallPodCrashLoopBackOff",
            f"container {container.get('name', '?')} is in CrashLoopBackOff "
            f"({container.get('restartCount', 0)} restarts{ended})",
            _field(container, "state.waiting.reason"),
            "CrashLoopBackOff",
        )
    scheduled = _condition(pod, "PodScheduled")
    if scheduled.get("status") == "False" and scheduled.get("reason") == "Unschedulable":
        said = f": {scheduled['message']}" if scheduled.get("message") else ""
        return PodTrouble(
            "InstallPodUnschedulable",
            f"the scheduler cannot place the pod (Unschedulable{said.rstrip('.')})",
            "status.conditions[PodScheduled].reason",
            "Unschedulable",
        )
    probe = next(iter(unhealthy), None)
    if ready == "False" and probe is not None:
        return PodTrouble(
            "InstallPodProbeFailing",
            f"the pod is not Ready: its probes fail ({probe.get('message') or 'Unhealthy'})",
            "status.conditions[Ready].status",
            "False",
            "warning",
        )
    return None


def _finding(
    csv: Obj, deployment: str, pod: Obj, trouble: PodTrouble, events: list[Obj]
) -> Finding:
    namespace, csv_name = namespace_of(csv), name_of(csv)
    csv_status = status(csv)
    phase = csv_status.get("phase") or ""
    reason = csv_status.get("reason") or ""
    held = (
        "OLM failed its install check (InstallCheckFailed) while the Deployment was not "
        "available, and installs it again only once the pod runs."
        if phase == "Failed"
        else "OLM keeps the CSV waiting until the Deployment is available, and fails it "
        "(InstallCheckFailed) after five minutes of failed checks."
    )
    evidence: list[Evidence] = [
        FieldEvidence(POD, namespace, name_of(pod), trouble.field, trouble.value)
    ]
    evidence += map(event_evidence, events)
    return Finding(
        trouble.severity,
        trouble.code,
        POD,
        namespace,
        name_of(pod),
        f"Pod {name_of(pod)} of Deployment {deployment} (CSV {csv_name}, "
        f"{phase}{'/' + reason if reason else ''}): {trouble.sentence}. {held}",
        rule="R-EVD-9",
        related=(ObjectRef(CSV, namespace, csv_name), ObjectRef(DEPLOYMENT, namespace, deployment)),
        evidence=tuple(evidence),
    )


def install_pod_findings(csvs: Iterable[Obj], objects: Objects) -> list[Finding]:
    """R-EVD-9: one finding per troubled pod of a Deployment a waiting CSV installs, naming
    why, with the field it rests on and the pod's Events (R-EVD-1) as its evidence. Only the
    namespaces of waiting CSVs are read."""
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for csv in csvs:
        names = install_deployments(csv) if waits_on_deployments(csv) else []
        namespace = namespace_of(csv)
        pods = list(objects.list(POD, namespace)) if names else []
        if not pods:
            continue  # not gathered, or none yet: unknown is not absent
        about = events_about(objects.list(EVENT, namespace))
        for name in names:
            deployment = objects.get(DEPLOYMENT, namespace, name)
            for pod in deployment_pods(name, deployment, pods):
                events = about.get((POD, namespace, name_of(pod)), [])
                unhealthy = [e for e in events if e.get("reason") == "Unhealthy"]
                trouble = pod_trouble(pod, unhealthy)
                if trouble is not None and (namespace, name_of(pod)) not in seen:
                    seen.add((namespace, name_of(pod)))
                    findings.append(_finding(csv, name, pod, trouble, events))
    return findings
