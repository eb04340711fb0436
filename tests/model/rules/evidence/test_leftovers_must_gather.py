"""R-EVD-4..8, R-DOC-18 and R-DIAG-23..26 over must-gather-shaped snapshots: one object per
file where ``oc adm inspect`` writes it, read by ``olmtui check`` and reported in JSON, text
and Markdown, each finding with its evidence and its place in an incident."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from model_builders import (
    clusteroperator,
    copy_of,
    crd,
    csv,
    namespace,
    operator_group,
    subscription,
)
from report_records import validate_report

from olmtui.cli import main
from olmtui.pipeline.build import snapshot_session

Obj = dict[str, Any]
OPERATOR_LABEL = {"operators.coreos.com/etcd.team-a": ""}
CLEANUP = "operators.coreos.com/csv-cleanup"
_GROUPS = {
    "ClusterServiceVersion": "operators.coreos.com/clusterserviceversions",
    "Subscription": "operators.coreos.com/subscriptions",
    "OperatorGroup": "operators.coreos.com/operatorgroups",
    "CustomResourceDefinition": "apiextensions.k8s.io/customresourcedefinitions",
    "ClusterOperator": "config.openshift.io/clusteroperators",
}


def write_must_gather(root: Path, objects: list[Obj]) -> Path:
    """``objects`` as a must-gather lays them out: one file per object, namespaces in
    ``namespaces/NS/NS.yaml``, cluster-scoped kinds below ``cluster-scoped-resources``."""
    base = root / "must-gather" / "quay-io-must-gather-sha256-0"
    for obj in objects:
        meta = obj["metadata"]
        if obj["kind"] == "Namespace":
            path = base / "namespaces" / meta["name"] / f"{meta['name']}.yaml"
        elif "namespace" in meta:
            folder = _GROUPS[obj["kind"]]
            path = base / "namespaces" / meta["namespace"] / folder / f"{meta['name']}.yaml"
        else:
            path = base / "cluster-scoped-resources" / _GROUPS[obj["kind"]] / f"{meta['name']}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(obj))
    (base / "timestamp").write_text("2026-11-20 10:00:00.000000000 +0000 UTC m=+0.1\n")
    return root / "must-gather"


def run(path: Path, output: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(path), "--output", output])
    assert status in (0, 1)
    return out.getvalue()


def report_of(path: Path) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(run(path, "json"))
    validate_report(report)
    return report


def finding(report: dict[str, Any], code: str) -> dict[str, Any]:
    found = [f for f in report["findings"] if f["code"] == code]
    assert len(found) == 1, [f["code"] for f in report["findings"]]
    return found[0]


def owner(namespace_name: str = "team-a", **kwargs: Any) -> Obj:
    return csv(
        namespace_name, "etcd.v1", owned=(("EtcdCluster", "v1", "etcdclusters.etcd.io"),), **kwargs
    )


def crd_left() -> list[Obj]:
    """R-EVD-4: the CRD of an operator uninstalled from team-a; no CSV owns it."""
    return [
        namespace("team-a"),
        operator_group("team-a", "og", targets=["team-a"]),
        crd("etcdclusters.etcd.io", labels=OPERATOR_LABEL, stored=["v1"]),
    ]


def stored_not_served() -> list[Obj]:
    """R-EVD-5: v1beta1 stored, no longer served, not named by the owning CSV."""
    versions = [
        {"name": "v1beta1", "served": False, "storage": False},
        {"name": "v1", "served": True, "storage": True},
    ]
    return [
        namespace("team-a"),
        operator_group("team-a", "og", targets=["team-a"]),
        owner(),
        crd(
            "etcdclusters.etcd.io",
            versions=versions,
            labels=OPERATOR_LABEL,
            stored=["v1beta1", "v1"],
        ),
    ]


def terminating() -> list[Obj]:
    """R-EVD-6: team-a deleted, its CSV keeping OLM's csv-cleanup finalizer."""
    message = (
        f"Some content in the namespace has finalizers remaining: {CLEANUP} in 1 resource instances"
    )
    return [
        namespace(
            "team-a",
            deleted="2026-11-20T09:00:00Z",
            conditions=(("NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain", message),),
        ),
        owner(finalizers=[CLEANUP]),
    ]


def copied_installed() -> list[Obj]:
    """R-EVD-7: team-b's Subscription says the copy of the global operator is installed."""
    original = csv("openshift-operators", "etcd.v1", group="global-operators")
    return [
        namespace("openshift-operators"),
        namespace("team-b"),
        operator_group("openshift-operators", "global-operators"),
        operator_group("team-b", "og", targets=["team-b"]),
        original,
        copy_of(original, "team-b"),
        subscription("team-b", "etcd", package="etcd", installed="etcd.v1", state="AtLatestKnown"),
    ]


def platform_orphan() -> list[Obj]:
    """R-EVD-8: the cluster-logging Subscription left after its operator moved to the payload."""
    ns = "openshift-logging"
    return [
        namespace(ns),
        operator_group(ns, "og", targets=[ns]),
        subscription(
            ns,
            "cluster-logging",
            package="cluster-logging",
            installed="cluster-logging.v5.9.0",
            state="AtLatestKnown",
        ),
        clusteroperator("True", "AsExpected", "", name="logging", namespaces=(ns,)),
    ]


def olm_degraded() -> list[Obj]:
    """R-DOC-18: the packageserver ClusterOperator Degraded, naming its failed CSV."""
    ns = "openshift-operator-lifecycle-manager"
    message = f"ClusterServiceVersion {ns}/packageserver observed in phase Failed"
    return [
        namespace(ns),
        csv(ns, "packageserver", phase="Failed", reason="InstallCheckFailed"),
        clusteroperator(
            "True",
            "AsExpected",
            "",
            name="operator-lifecycle-manager-packageserver",
            conditions=(
                ("Degraded", "True", "ClusterServiceVersionNotSucceeded", message),
                ("Available", "False", "ClusterServiceVersionNotSucceeded", message),
            ),
        ),
    ]


# (case, its objects, the root's code and object, consequences' codes, evidence field, words)
CASES: list[tuple[str, Callable[[], list[Obj]], str, tuple[str, str, str], set[str], str, str]] = [
    (
        "crd-left",
        crd_left,
        "CRDOwnerGone",
        ("CustomResourceDefinition", "", "etcdclusters.etcd.io"),
        set(),
        "metadata.labels[operators.coreos.com/etcd.team-a]",
        "no CSV in the input owns it any more",
    ),
    (
        "stored-not-served",
        stored_not_served,
        "CRDStoredVersionNotServed",
        ("CustomResourceDefinition", "", "etcdclusters.etcd.io"),
        set(),
        "status.storedVersions",
        "still lists v1beta1 in status.storedVersions",
    ),
    (
        "terminating",
        terminating,
        "NamespaceHeldByOLM",
        ("Namespace", "", "team-a"),
        {"OLMFinalizerHoldsNamespace"},
        "status.conditions[NamespaceFinalizersRemaining].message",
        "is stuck Terminating",
    ),
    (
        "copied-installed",
        copied_installed,
        "InstalledCSVIsCopy",
        ("Subscription", "team-b", "etcd"),
        set(),
        "status.installedCSV",
        "OLM accepts the copy as installed and deploys nothing",
    ),
    (
        "platform-orphan",
        platform_orphan,
        "SubscriptionOrphanedByPlatform",
        ("Subscription", "openshift-logging", "cluster-logging"),
        {"InstalledCSVGone"},
        "status.relatedObjects[namespaces]",
        "not the admin's to change",
    ),
    (
        "olm-degraded",
        olm_degraded,
        "CSVFailed",
        ("ClusterServiceVersion", "openshift-operator-lifecycle-manager", "packageserver"),
        {"OLMClusterOperatorDegraded"},
        "",
        "",
    ),
]


@pytest.mark.parametrize(
    ("case", "objects", "code", "root", "consequences", "field", "words"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_each_leftover_is_a_finding_with_evidence_at_the_root_of_its_incident(
    tmp_path: Path,
    case: str,
    objects: Callable[[], list[Obj]],
    code: str,
    root: tuple[str, str, str],
    consequences: set[str],
    field: str,
    words: str,
) -> None:
    path = write_must_gather(tmp_path, objects())
    report = report_of(path)
    found = finding(report, code)
    assert (found["kind"], found["namespace"] or "", found["name"]) == root
    if field:
        assert field in {e.get("field") for e in found["evidence"]}
    assert words in found["message"]
    incident = next(i for i in report["incidents"] if i["root"]["code"] == code)
    assert {c["code"] for c in incident["consequences"]} >= consequences
    for effect in consequences:
        assert finding(report, effect)["incident"] == incident["id"]
    text, markdown = run(path, "text"), run(path, "markdown")
    assert code in text and code in markdown


def test_r_doc_18_the_degraded_cluster_operator_shows_its_four_conditions(tmp_path: Path) -> None:
    report = report_of(write_must_gather(tmp_path, olm_degraded()))
    degraded = finding(report, "OLMClusterOperatorDegraded")
    fields = {e["field"]: e["value"] for e in degraded["evidence"]}
    assert fields["status.conditions[Degraded]"].startswith(
        "True: ClusterServiceVersionNotSucceeded"
    )
    assert fields["status.conditions[Available]"].startswith("False")
    assert "status.conditions[Upgradeable]" in fields
    assert degraded["rule"] == "R-DOC-18"


def test_a_crd_kept_from_a_must_gather_has_no_schema(tmp_path: Path) -> None:
    big = crd("etcdclusters.etcd.io", versions=[{"name": "v1", "served": True, "storage": True}])
    big["spec"]["versions"][0]["schema"] = {"openAPIV3Schema": {"type": "object", "x": "y" * 5000}}
    path = write_must_gather(tmp_path, [namespace("team-a"), big, owner()])
    session = snapshot_session([str(path)])
    kept = session.store.get("CustomResourceDefinition", "", "etcdclusters.etcd.io")
    assert kept is not None
    assert kept["spec"]["versions"] == [{"name": "v1", "served": True, "storage": True}]


@pytest.mark.parametrize("case", ["crd-left", "platform-orphan"])
def test_absence_findings_are_withheld_while_csvs_are_read_in_part(
    tmp_path: Path, case: str
) -> None:
    objects = dict((c[0], c[1]) for c in CASES)[case]()
    path = write_must_gather(tmp_path, objects)
    broken = (
        next(path.glob("*"))
        / "namespaces"
        / "team-z"
        / "operators.coreos.com"
        / "clusterserviceversions"
    )
    broken.mkdir(parents=True)
    (broken / "broken.yaml").write_text("kind: ClusterServiceVersion\nmetadata: {name: [\n")
    report = report_of(path)
    codes = {f["code"] for f in report["findings"]}
    assert not codes & {"CRDOwnerGone", "SubscriptionOrphanedByPlatform"}
    assert "InputIncomplete" in codes
