"""Incidents (R-DIAG-1 .. R-DIAG-10): one table test per causal class, each a small state run
through ``olmtui check --output json``, asserting the incident's root, its consequences and
its named blast radius; and the links can never form a cycle."""

from __future__ import annotations

import copy
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml
from model_builders import (
    catalog_source,
    csv,
    failed_plan,
    namespace,
    operator_group,
    subscription,
)
from report_records import checked_report
from v1_objects import catalog as v1_catalog

from olmtui.model.diagnosis.causes import LINK_RULES, without_cycles
from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.records.types import Finding

Obj = dict[str, Any]
MARKET = "openshift-marketplace"
SAMPLE = Path(str(files("olmtui").joinpath("samples", "cluster.yaml")))


def ref(code: str, kind: str, ns: str | None, name: str | None) -> dict[str, Any]:
    return {"code": code, "kind": kind, "namespace": ns, "name": name}


def incident_of(report: dict[str, Any], code: str) -> dict[str, Any]:
    return next(i for i in report["incidents"] if i["root"]["code"] == code)


def affected(incident: dict[str, Any], kind: str) -> list[str]:
    return [f"{a['namespace']}/{a['name']}" for a in incident["affected"] if a["kind"] == kind]


def every_finding_in_one_incident(report: dict[str, Any]) -> None:
    ids = [i["id"] for i in report["incidents"]]
    assert len(ids) == len(set(ids))
    members = {i["id"]: [i["root"], *i["consequences"]] for i in report["incidents"]}
    for finding in report["findings"]:
        key = ref(finding["code"], finding["kind"], finding["namespace"], finding["name"])
        holding = [i for i, keys in members.items() if key in keys]
        assert holding == [finding["incident"]], finding
    assert sum(len(keys) for keys in members.values()) == len(report["findings"])


def unhealthy_sub(ns: str, name: str, source: str) -> Obj:
    """A Subscription of catalog ``source`` whose CatalogSourcesUnhealthy names ``broken``."""
    sub = subscription(ns, name)
    sub["spec"]["source"] = source
    sub["status"] = {
        "state": "AtLatestKnown",
        "catalogHealth": [
            {
                "catalogSourceRef": {
                    "kind": "CatalogSource",
                    "namespace": MARKET,
                    "name": "broken",
                },
                "healthy": False,
            }
        ],
        "conditions": [
            {
                "type": "CatalogSourcesUnhealthy",
                "status": "True",
                "reason": "UnhealthyCatalogSourceFound",
                "message": "targeted catalogsource openshift-marketplace/broken unhealthy",
            }
        ],
    }
    return sub


def with_group(ns: str, exclude_global: bool = False) -> list[Obj]:
    group = operator_group(ns, f"{ns}-og", targets=[ns])
    if exclude_global:
        group["metadata"]["annotations"] = {
            "olm.operatorframework.io/exclude-global-namespace-resolution": "true"
        }
    return [namespace(ns), group]


def test_r_diag_1_a_broken_global_catalog_is_one_incident_naming_every_subscription_it_blocks(
    tmp_path: Path,
) -> None:
    objects = [
        namespace(MARKET),
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        catalog_source(MARKET, "fine", state="READY"),
        *with_group("team-a"),
        *with_group("team-b"),
        *with_group("team-c"),
        *with_group("team-d", exclude_global=True),
        unhealthy_sub("team-a", "a", "broken"),
        unhealthy_sub("team-b", "b", "fine"),
        subscription("team-c", "c"),  # no condition yet: still blocked (R-RES-5)
        subscription("team-d", "d"),  # resolves without the global namespace (R-RES-3)
    ]
    report = checked_report(tmp_path, objects)
    incident = incident_of(report, "CatalogSourceNotReady")
    assert incident["root"] == ref("CatalogSourceNotReady", "CatalogSource", MARKET, "broken")
    assert incident["severity"] == "error"
    assert ref("CatalogSourcesUnhealthy", "Subscription", "team-a", "a") in incident["consequences"]
    assert ref("CatalogSourcesUnhealthy", "Subscription", "team-b", "b") in incident["consequences"]
    assert affected(incident, "Subscription") == ["team-a/a", "team-b/b", "team-c/c"]
    assert "3 Subscriptions cannot resolve" in incident["summary"]
    every_finding_in_one_incident(report)
    by_code = {(f["code"], f["name"]): f for f in report["findings"]}
    consequence = by_code[("CatalogSourcesUnhealthy", "a")]
    assert consequence["cause"] == incident["root"]
    assert consequence["incident"] == incident["id"]
    assert incident["id"] == f"CatalogSourceNotReady:CatalogSource/{MARKET}/broken"
    assert {"kind": "Subscription", "namespace": "team-a", "name": "a", "field": None,
            "value": None} in consequence["evidence"]  # fmt: skip


def test_r_diag_1_a_healthy_catalog_never_takes_the_blame(tmp_path: Path) -> None:
    """Only the catalog the state shows broken is a cause; a Subscription whose condition
    names no catalog in view of a broken one stays its own incident."""
    objects = [
        namespace(MARKET),
        catalog_source(MARKET, "fine", state="READY"),
        *with_group("team-a"),
        unhealthy_sub("team-a", "a", "fine"),
    ]
    report = checked_report(tmp_path, objects)
    finding = next(f for f in report["findings"] if f["code"] == "CatalogSourcesUnhealthy")
    assert finding["cause"] is None
    assert finding["incident"] == "CatalogSourcesUnhealthy:Subscription/team-a/a"


def test_r_diag_2_a_resolution_stopped_by_a_catalog_follows_from_it(tmp_path: Path) -> None:
    sub = subscription("team-a", "a")
    sub["status"] = {
        "conditions": [
            {
                "type": "ResolutionFailed",
                "status": "True",
                "reason": "ErrorPreventedResolution",
                "message": "error using catalogsource openshift-marketplace/broken: no "
                "registry client established for catalogsource openshift-marketplace/broken",
            }
        ]
    }
    objects = [
        namespace(MARKET),
        catalog_source(MARKET, "broken", state="TRANSIENT_FAILURE"),
        *with_group("team-a"),
        sub,
    ]
    report = checked_report(tmp_path, objects)
    incident = incident_of(report, "CatalogSourceNotReady")
    assert incident["consequences"] == [
        ref("ErrorPreventedResolution", "Subscription", "team-a", "a")
    ]
    every_finding_in_one_incident(report)


def pending_csv(ns: str, name: str) -> Obj:
    pending = csv(ns, name, phase="Pending", reason="RequirementsNotMet")
    pending["status"]["requirementStatus"] = [
        {
            "kind": "ServiceAccount",
            "name": "sa",
            "status": "NotPresent",
            "group": "",
            "version": "v1",
        }
    ]
    pending["status"]["lastTransitionTime"] = "2026-01-01T00:00:00Z"
    return pending


def test_r_diag_3_and_4_a_failed_installplan_is_one_incident_with_the_csv_it_left(
    tmp_path: Path,
) -> None:
    first = subscription("team-a", "a", plan="install-1")
    second = subscription("team-a", "b", plan="install-1", package="other")
    for sub in (first, second):
        sub["status"]["state"] = "AtLatestKnown"
    objects = [
        namespace(MARKET),
        catalog_source(MARKET, "cat", state="READY"),
        *with_group("team-a"),
        first,
        second,
        failed_plan(
            "team-a",
            "install-1",
            ["op.v1"],
            message='error creating role r: Role.rbac.authorization.k8s.io "r" is forbidden',
            on_status=True,
        ),
        pending_csv("team-a", "op.v1"),
    ]
    report = checked_report(tmp_path, objects)
    errors = [i for i in report["incidents"] if i["severity"] == "error"]
    assert len(errors) == 1
    incident = errors[0]
    assert incident["root"] == ref("InstallPlanFailed", "Subscription", "team-a", "a")
    assert incident["consequences"] == [
        ref("CSVPending", "ClusterServiceVersion", "team-a", "op.v1"),
        ref("InstallPlanFailed", "Subscription", "team-a", "b"),
    ]
    assert affected(incident, "InstallPlan") == ["team-a/install-1"]
    assert affected(incident, "ClusterServiceVersion") == ["team-a/op.v1"]
    assert report["summary"]["incidents"]["error"] == 1
    assert report["summary"]["findings"]["error"] == 3
    every_finding_in_one_incident(report)


def test_r_diag_5_several_groups_in_a_namespace_are_the_root_of_its_csvs_and_subscriptions(
    tmp_path: Path,
) -> None:
    objects = [
        namespace("team-b"),
        operator_group("team-b", "one", targets=["team-b"]),
        operator_group("team-b", "two", targets=["team-b"]),
        csv("team-b", "op.v1", phase="Failed", reason="TooManyOperatorGroups"),
        subscription("team-b", "op"),
    ]
    report = checked_report(tmp_path, objects)
    incident = incident_of(report, "MultipleOperatorGroupsFound")
    assert incident["root"] == ref("MultipleOperatorGroupsFound", "Namespace", None, "team-b")
    assert ref("SubscriptionStalled", "Subscription", "team-b", "op") in incident["consequences"]
    assert (
        ref("TooManyOperatorGroups", "ClusterServiceVersion", "team-b", "op.v1")
        in incident["consequences"]
    )
    assert affected(incident, "OperatorGroup") == ["team-b/one", "team-b/two"]
    every_finding_in_one_incident(report)


def test_r_diag_6_a_group_selecting_nothing_is_the_root_of_its_csvs_failure(
    tmp_path: Path,
) -> None:
    objects = [
        namespace("team-c"),
        operator_group("team-c", "og", selector={"matchLabels": {"team": "nobody"}}),
        csv("team-c", "op.v1", phase="Failed", reason="NoTargetNamespaces"),
    ]
    report = checked_report(tmp_path, objects)
    incident = incident_of(report, "SelectorMatchesNothing")
    assert incident["root"] == ref("SelectorMatchesNothing", "OperatorGroup", "team-c", "og")
    assert incident["consequences"] == [
        ref("NoTargetNamespaces", "ClusterServiceVersion", "team-c", "op.v1")
    ]
    every_finding_in_one_incident(report)


def test_r_diag_7_a_copy_problem_follows_from_its_originals_group_failure(
    tmp_path: Path,
) -> None:
    """The sample's team-a etcd fails on its group (InterOperatorGroupOwnerConflict); a copy
    of it left in team-b is stale because of that failure (R-COPY-6)."""
    objects = [o for o in yaml.safe_load_all(SAMPLE.read_text()) if o]
    original = next(
        o
        for o in objects
        if o["kind"] == "ClusterServiceVersion"
        and o["metadata"]["namespace"] == "team-a"
        and o["metadata"]["name"] == "etcdoperator.v0.9.4"
    )
    stale = copy.deepcopy(original)
    stale["metadata"]["namespace"] = "team-b"
    stale["metadata"].setdefault("labels", {})["olm.copiedFrom"] = "team-a"
    stale["status"] = {**stale.get("status", {}), "reason": "Copied"}
    report = checked_report(tmp_path, [*objects, stale])
    incident = incident_of(report, "InterOperatorGroupOwnerConflict")
    assert incident["root"] == ref(
        "InterOperatorGroupOwnerConflict", "ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4"
    )
    assert incident["consequences"] == [
        ref("StaleCopiedCSV", "ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")
    ]
    every_finding_in_one_incident(report)


@pytest.mark.parametrize(
    ("progressing", "cause"),
    [
        (("True", "Retrying", "error unpacking: manifest unknown"), "ClusterCatalogRetrying"),
        (("False", "Blocked", "source image not allowed"), "ClusterCatalogBlocked"),
    ],
)
def test_r_diag_10_a_catalog_that_cannot_unpack_is_the_root_of_its_not_serving(
    tmp_path: Path, progressing: tuple[str, str, str], cause: str
) -> None:
    broken = v1_catalog(
        "certified",
        serving=("False", "Unavailable", "Catalog has not been unpacked"),
        progressing=progressing,
        unpacked=False,
    )
    report = checked_report(tmp_path, [broken])
    incident = incident_of(report, cause)
    assert incident["root"] == ref(cause, "ClusterCatalog", None, "certified")
    assert incident["consequences"] == [
        ref("ClusterCatalogNotServing", "ClusterCatalog", None, "certified")
    ]
    assert len(report["incidents"]) == 1
    every_finding_in_one_incident(report)


def test_r_diag_10_a_catalog_not_serving_for_another_reason_stands_alone(
    tmp_path: Path,
) -> None:
    """Serving=False with a successful unpack: nothing on the catalog explains it."""
    other = v1_catalog("certified", serving=("False", "Unavailable", "being deleted"))
    report = checked_report(tmp_path, [other])
    incident = incident_of(report, "ClusterCatalogNotServing")
    assert incident["consequences"] == []
    every_finding_in_one_incident(report)


def test_the_sample_folds_eleven_incidents_out_of_fourteen_findings(tmp_path: Path) -> None:
    report = checked_report(tmp_path, [o for o in yaml.safe_load_all(SAMPLE.read_text()) if o])
    assert report["summary"]["incidents"] == {"error": 3, "warning": 3, "info": 5}
    every_finding_in_one_incident(report)


# -- no cycle (R-DIAG-8) ---------------------------------------------------------------------


def test_r_diag_8_the_link_table_has_no_cycle_but_one_ordered_self_link() -> None:
    """Over codes, the table links an effect to a cause with no cycle; the one code linked
    to itself is InstallPlanFailed, whose link goes only to a Subscription that sorts first."""
    edges = {(e, c) for rule in LINK_RULES for e in rule.effects for c in rule.causes}
    assert {e for e, c in edges if e == c} == {"InstallPlanFailed"}
    graph: dict[str, set[str]] = {}
    for effect, cause in edges:
        if effect != cause:
            graph.setdefault(effect, set()).add(cause)

    def reaches(start: str, target: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            nxt == target or (nxt not in seen and reaches(nxt, target, seen | {nxt}))
            for nxt in graph.get(start, ())
        )

    assert not any(reaches(code, code) for code in graph)


@pytest.mark.parametrize(
    "links",
    [
        {0: 1, 1: 0},
        {0: 1, 1: 2, 2: 0, 3: 2},
        {0: 0},
        {4: 3, 3: 2, 2: 3, 1: 4},
    ],
)
def test_r_diag_8_a_cycle_in_the_links_is_cut_and_every_finding_reaches_a_root(
    links: dict[int, int],
) -> None:
    kept = without_cycles(links)
    findings = [Finding("error", f"C{i}", "Subscription", "ns", f"s{i}", "m") for i in range(5)]
    diagnosis = Diagnosis(findings, kept)
    for index in range(5):
        seen = {index}
        node = index
        while node in kept:
            node = kept[node]
            assert node not in seen
            seen.add(node)
        assert diagnosis.root(index) == node
    assert sum(1 + len(diagnosis.consequences(r)) for r in diagnosis.roots()) == 5


def test_r_diag_8_copies_that_claim_each_other_make_no_cycle(tmp_path: Path) -> None:
    """Hostile input: two CSVs each labelled a copy of the other's namespace."""
    left = csv("ns-a", "op.v1", phase="Failed", reason="NoOperatorGroup")
    right = csv("ns-b", "op.v1", phase="Failed", reason="NoOperatorGroup")
    left["metadata"]["labels"] = {"olm.copiedFrom": "ns-b"}
    right["metadata"]["labels"] = {"olm.copiedFrom": "ns-a"}
    report = checked_report(tmp_path, [namespace("ns-a"), namespace("ns-b"), left, right])
    every_finding_in_one_incident(report)


# -- one diagnosis per session (pipeline/analysis.py) ----------------------------------------


def test_the_session_makes_its_diagnosis_once_per_findings_and_objects() -> None:
    from olmtui.pipeline.build import snapshot_session

    session = snapshot_session([str(SAMPLE)])
    analysis = session.analysis
    first = analysis.diagnosis()
    assert analysis.diagnosis() is first
    assert analysis.incident_counts() == {"error": 3, "warning": 3, "info": 5}
    session.store.apply("ADDED", namespace("team-z"))
    session.store.apply("ADDED", subscription("team-z", "new"))
    assert analysis.diagnosis() is not first
