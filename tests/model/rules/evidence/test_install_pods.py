"""R-EVD-9 and R-DIAG-27: an installing CSV's Deployment has pods that say why it is not
available (an image pull, a missing Secret, a crash loop, a memory kill, no node that fits,
failing probes), and the pod is the root of the CSV's incident. Over must-gather-shaped
snapshots: one object per file for OLM's kinds, one List per kind for Deployments, Pods and
Events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from check_runs import check_json
from model_builders import (
    catalog_source,
    cluster_event,
    csv,
    deployment,
    namespace,
    operator_group,
    pod,
    subscription,
)

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.types import Finding
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

NS = "team-a"
DEPLOYMENT = "op-controller"
SELECTOR = {"control-plane": "op"}
POD = "op-controller-7d9f8b6c5-x2k4p"
REPLICA_SET = "op-controller-7d9f8b6c5"
WAITING = (
    f"installing: waiting for deployment {DEPLOYMENT} to become ready: deployment "
    f'"{DEPLOYMENT}" not available: Deployment does not have minimum availability.'
)
UNSCHEDULABLE = (
    "0/6 nodes are available: 3 Insufficient cpu, 3 node(s) had untolerated taint "
    "{node-role.kubernetes.io/master: }. preemption: 0/6 nodes are available."
)
Obj = dict[str, Any]


def operator_csv(phase: str = "Installing", reason: str = "InstallWaiting", **more: Any) -> Obj:
    """The CSV op.v1 whose install strategy creates the Deployment op-controller."""
    install = {"strategy": "deployment", "spec": {"deployments": [{"name": DEPLOYMENT}]}}
    state = {"message": WAITING, "lastTransitionTime": "2026-05-01T09:00:00Z"}
    return csv(
        NS, "op.v1", phase=phase, reason=reason, spec={"install": install}, status=state, **more
    )


def typed_list(kind: str, api_version: str, items: list[Obj]) -> Obj:
    """What ``oc adm inspect`` writes: a typed List whose items lack kind and apiVersion."""
    bare = [{k: v for k, v in i.items() if k not in ("kind", "apiVersion")} for i in items]
    return {"apiVersion": api_version, "kind": f"{kind}List", "items": bare}


def must_gather(
    root: Path,
    olm: list[Obj],
    *,
    deployments: list[Obj] = (),  # type: ignore[assignment]
    pods: list[Obj] = (),  # type: ignore[assignment]
    events: list[Obj] = (),  # type: ignore[assignment]
) -> Path:
    """A must-gather: OLM's objects one per file, Deployments, Pods and Events one List each
    in the namespace's ``apps/`` and ``core/`` (absent when none are given: not gathered)."""
    gathered = root / "must-gather"
    for obj in olm:
        plural = f"{obj['kind'].lower()}s"
        ns = obj["metadata"].get("namespace")
        folder = (
            gathered / "namespaces" / ns / "operators.coreos.com" / plural
            if ns
            else gathered / "cluster-scoped-resources" / "core" / plural
        )
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{obj['metadata']['name']}.yaml").write_text(yaml.safe_dump(obj))
    base = gathered / "namespaces" / NS
    for part, kind, api, items in (
        ("apps/deployments.yaml", "Deployment", "apps/v1", deployments),
        ("core/pods.yaml", "Pod", "v1", pods),
        ("core/events.yaml", "Event", "v1", events),
    ):
        if items:
            (base / part).parent.mkdir(parents=True, exist_ok=True)
            (base / part).write_text(yaml.safe_dump(typed_list(kind, api, list(items))))
    (gathered / "timestamp").write_text("2026-05-01 10:00:00.000000000 +0000 UTC m=+0.1\n")
    return gathered


def pod_findings(tmp_path: Path, olm: list[Obj], **evidence: list[Obj]) -> list[Finding]:
    store = Store()
    result = load_snapshot([must_gather(tmp_path, olm, **evidence)], store)
    assert result.skipped == 0
    return [f for f in health_findings(store) if f.rule == "R-EVD-9"]


def unhealthy(message: str) -> Obj:
    return cluster_event(
        NS, "op.probe", kind="Pod", obj_name=POD, reason="Unhealthy", message=message, count=40
    )


@pytest.mark.parametrize(
    ("trouble", "events", "code", "severity", "words"),
    [
        (
            {
                "waiting": "ImagePullBackOff",
                "waiting_message": 'Back-off pulling image "quay.io/x/op:v1"',
            },
            [],
            "InstallPodImagePull",
            "error",
            'cannot pull its image (ImagePullBackOff: Back-off pulling image "quay.io/x/op:v1")',
        ),
        ({"waiting": "ErrImagePull"}, [], "InstallPodImagePull", "error", "(ErrImagePull)"),
        (
            {
                "waiting": "CreateContainerConfigError",
                "waiting_message": 'secret "op-webhook-cert" not found',
            },
            [],
            "InstallPodConfigError",
            "error",
            'cannot be created (CreateContainerConfigError: secret "op-webhook-cert" not found)',
        ),
        (
            {"waiting": "CrashLoopBackOff", "restarts": 9, "last_terminated": "Error"},
            [],
            "InstallPodCrashLoopBackOff",
            "error",
            "CrashLoopBackOff (9 restarts, last ended Error)",
        ),
        (
            {"waiting": "CrashLoopBackOff", "restarts": 4, "last_terminated": "OOMKilled"},
            [],
            "InstallPodOOMKilled",
            "error",
            "killed for memory (OOMKilled, 4 restarts)",
        ),
        (
            {"unschedulable": UNSCHEDULABLE, "ready": False},
            [],
            "InstallPodUnschedulable",
            "error",
            "cannot place the pod (Unschedulable: 0/6 nodes are available: 3 Insufficient cpu",
        ),
        (
            {"ready": False},
            [unhealthy("Readiness probe failed: HTTP probe failed with statuscode: 500")],
            "InstallPodProbeFailing",
            "warning",
            "its probes fail (Readiness probe failed: HTTP probe failed with statuscode: 500)",
        ),
    ],
)
def test_a_pod_of_an_installing_csvs_deployment_says_why(
    tmp_path: Path, trouble: Obj, events: list[Obj], code: str, severity: str, words: str
) -> None:
    found = pod_findings(
        tmp_path,
        [operator_csv()],
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
        pods=[pod(NS, POD, labels=SELECTOR, container="manager", **trouble)],
        events=events,
    )
    assert [(f.code, f.severity, f.kind, f.namespace, f.name) for f in found] == [
        (code, severity, "Pod", NS, POD)
    ]
    assert words in found[0].message
    assert f"of Deployment {DEPLOYMENT} (CSV op.v1, Installing/InstallWaiting)" in found[0].message
    assert {(r.kind, r.name) for r in found[0].related} == {
        ("ClusterServiceVersion", "op.v1"),
        ("Deployment", DEPLOYMENT),
    }


@pytest.mark.parametrize(
    ("phase", "reason", "judged"),
    [
        ("Pending", "NeedsReinstall", True),
        ("InstallReady", "AllRequirementsMet", True),
        ("Failed", "InstallCheckFailed", True),
        ("Failed", "InstallWaiting", True),
        ("Failed", "ComponentUnhealthy", False),  # installed once: not this rule's
        ("Succeeded", "InstallSucceeded", False),
    ],
)
def test_only_a_csv_that_waits_on_its_deployments_is_judged_by_its_pods(
    tmp_path: Path, phase: str, reason: str, judged: bool
) -> None:
    found = pod_findings(
        tmp_path,
        [operator_csv(phase, reason)],
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
        pods=[pod(NS, POD, labels=SELECTOR, waiting="ImagePullBackOff")],
    )
    assert [f.code for f in found] == (["InstallPodImagePull"] if judged else [])


def test_without_the_deployment_its_pods_are_those_its_replica_sets_own(tmp_path: Path) -> None:
    found = pod_findings(
        tmp_path,
        [operator_csv()],
        pods=[
            pod(NS, POD, owner=REPLICA_SET, waiting="CrashLoopBackOff", restarts=3),
            pod(NS, "op-webhook-5c6d7-abcde", owner="op-webhook-5c6d7", waiting="ErrImagePull"),
        ],
    )
    assert [(f.code, f.name) for f in found] == [("InstallPodCrashLoopBackOff", POD)]


@pytest.mark.parametrize(
    "fine",
    [
        {},  # running and ready
        {"ready": False},  # starting: not Ready, no probe has failed yet
        {"restarts": 2, "last_terminated": "OOMKilled"},  # killed once, running and Ready now
    ],
)
def test_a_healthy_or_starting_pod_is_no_finding(tmp_path: Path, fine: Obj) -> None:
    found = pod_findings(
        tmp_path,
        [operator_csv()],
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
        pods=[pod(NS, POD, labels=SELECTOR, **fine)],
    )
    assert found == []


def test_pods_of_other_deployments_or_namespaces_are_not_its_own(tmp_path: Path) -> None:
    elsewhere = pod("team-b", POD, labels=SELECTOR, waiting="ImagePullBackOff")
    found = pod_findings(
        tmp_path,
        [operator_csv(), namespace("team-b"), elsewhere],
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
        pods=[pod(NS, "db-0", labels={"app": "db"}, waiting="ImagePullBackOff")],
    )
    assert found == []


def test_a_copied_csv_deploys_nothing(tmp_path: Path) -> None:
    copied = operator_csv(annotations={"olm.operatorNamespace": "operators"})
    copied["metadata"]["labels"] = {"olm.copiedFrom": "operators"}
    copied["status"]["reason"] = "Copied"
    found = pod_findings(
        tmp_path,
        [copied],
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
        pods=[pod(NS, POD, labels=SELECTOR, waiting="ImagePullBackOff")],
    )
    assert found == []


def test_pods_not_in_the_input_are_no_finding(tmp_path: Path) -> None:
    """Unknown is not absent: a must-gather without core/pods.yaml proves nothing."""
    found = pod_findings(
        tmp_path,
        [operator_csv()],
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
    )
    assert found == []


def incident_of(report: Obj, code: str) -> Obj:
    return next(i for i in report["incidents"] if i["root"]["code"] == code)


def test_r_diag_27_the_pod_is_the_root_of_the_csvs_incident_with_its_evidence(
    tmp_path: Path,
) -> None:
    market = "openshift-marketplace"
    olm = [
        namespace(NS),
        operator_group(NS, "og", targets=[NS]),
        catalog_source(market, "cat"),
        subscription(NS, "op", source="cat", source_ns=market),
        operator_csv(),
    ]
    gathered = must_gather(
        tmp_path,
        olm,
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
        pods=[pod(NS, POD, labels=SELECTOR, unschedulable=UNSCHEDULABLE, ready=False)],
        events=[
            cluster_event(
                NS,
                "op.sched",
                kind="Pod",
                obj_name=POD,
                reason="FailedScheduling",
                message=UNSCHEDULABLE,
                count=17,
            )
        ],
    )
    status, report = check_json(gathered)
    assert status == 1
    incident = incident_of(report, "InstallPodUnschedulable")
    assert incident["root"] == {
        "code": "InstallPodUnschedulable",
        "kind": "Pod",
        "namespace": NS,
        "name": POD,
    }
    assert {(c["code"], c["name"]) for c in incident["consequences"]} == {
        ("CSVInstalling", "op.v1")
    }
    csv_finding = next(f for f in report["findings"] if f["code"] == "CSVInstalling")
    assert csv_finding["incident"] == incident["id"]
    root = next(f for f in report["findings"] if f["code"] == "InstallPodUnschedulable")
    assert root["rule"] == "R-EVD-9"
    assert {
        "kind": "Pod",
        "namespace": NS,
        "name": POD,
        "field": "status.conditions[PodScheduled].reason",
        "value": "Unschedulable",
    } in root["evidence"]
    events = [e["event"] for e in root["evidence"] if "event" in e]
    assert [(e["reason"], e["count"]) for e in events] == [("FailedScheduling", 17)]


def test_r_diag_27_without_pods_the_csv_stands_alone(tmp_path: Path) -> None:
    gathered = must_gather(
        tmp_path,
        [namespace(NS), operator_group(NS, "og", targets=[NS]), operator_csv()],
        deployments=[deployment(NS, DEPLOYMENT, match_labels=SELECTOR)],
    )
    _, report = check_json(gathered)
    csv_finding = next(f for f in report["findings"] if f["code"] == "CSVInstalling")
    assert csv_finding["cause"] is None
    assert not any(f["kind"] == "Pod" for f in report["findings"])


def test_the_screens_index_follows_a_pod_and_its_csv_as_they_change() -> None:
    """The change feed: a pod arriving after its CSV gives the finding, the CSV succeeding
    takes it away, as a from-scratch pass would."""
    store = Store()
    model = Model(store)
    index = HealthIndex(store, model, list, [])
    store.apply_many([operator_csv(), deployment(NS, DEPLOYMENT, match_labels=SELECTOR)])
    assert not [f for f in index.findings() if f.rule == "R-EVD-9"]
    store.apply("ADDED", pod(NS, POD, labels=SELECTOR, waiting="ErrImagePull"))
    assert [f.code for f in index.findings() if f.rule == "R-EVD-9"] == ["InstallPodImagePull"]
    store.apply("MODIFIED", operator_csv("Succeeded", "InstallSucceeded"))
    assert not [f for f in index.findings() if f.rule == "R-EVD-9"]
