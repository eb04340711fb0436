"""The diagnosis proven, the table: one small state per class of failure, each asserting the
incident, its root, its named blast radius (``affected``), and that the remedy olmtui offers
passes the simulation (``Simulator.verify``: ``simulated``) while the wrong remedies users
have been given come out refused. ``test_diagnosis_incidents.py`` holds one state per link rule
(R-DIAG-*); these go wider, one per state class, built on OLM's own cases: the etcd package
of ``tests/data/resolution/orphaned-csv-blocks-package`` (OLM's e2e etcd bundles), the
resolver tests under ``tests/data/resolution`` (``resolver_test.go``, ``step_resolver_test.go``)
and the bug reports each test's docstring names."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from check_runs import MUST_GATHERS, run_check
from model_builders import (
    catalog_source,
    csv,
    failed_plan,
    install_plan,
    namespace,
    operator_group,
    subscription,
)
from simulation_support import (
    FAIL_FORWARD,
    ORPHAN,
    RESOLUTION,
    catalog_specs,
    find,
    fixture_objects,
    references_plan,
    session_of,
)
from v1_objects import catalog as cluster_catalog
from v1_objects import condition
from v1_objects import extension as cluster_extension

from olmtui.demo.scenario import build_scenario
from olmtui.model.diagnosis.relations import EXCLUDE_GLOBAL
from olmtui.model.records.diagnosis import (
    Change,
    FindingKey,
    Incident,
    Remedy,
    Step,
    StepAction,
    finding_key,
)
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.pipeline.session import Session
from olmtui.pipeline.simulation import refused

Obj = dict[str, Any]
MARKET = "openshift-marketplace"
TEAM = "team"
ETCD_SUB = ObjectRef("Subscription", TEAM, "etcd")
ETCD_PLAN = ObjectRef("InstallPlan", TEAM, "install-etcd")
CATALOG = ObjectRef("CatalogSource", MARKET, "community-operators")


@dataclass
class Diagnosed:
    """A state read as ``check`` reads it: its findings, incidents and session."""

    session: Session
    findings: list[Finding]
    incidents: list[Incident]

    def incident(self, code: str) -> Incident:
        (found,) = [i for i in self.incidents if i.root[0] == code]
        return found

    def finding(self, key: FindingKey) -> Finding:
        return next(f for f in self.findings if finding_key(f) == key)

    def codes(self, severities: Iterable[str] = ("error", "warning")) -> set[str]:
        return {f.code for f in self.findings if f.severity in severities}

    def remedy(self, incident: Incident) -> Remedy:
        """The remedy offered for the incident's root, proven on the state."""
        offered = self.session.analysis.remedy(self.finding(incident.root))
        assert offered is not None, incident
        return self.verify(offered, incident)

    def verify(self, remedy: Remedy, incident: Incident) -> Remedy:
        clears = {incident.root, *incident.consequences}
        return self.session.analysis.simulator(in_place=True).verify(remedy, clears)


def diagnosed(tmp_path: Path, objects: list[Obj], catalogs: list[str] | None = None) -> Diagnosed:
    session = session_of(objects, tmp_path, catalogs)
    analysis = session.analysis
    return Diagnosed(session, list(analysis.all_findings()), list(analysis.diagnosis().incidents()))


def names(incident: Incident, kind: str) -> list[str]:
    return [f"{a.namespace}/{a.name}" for a in incident.affected if a.kind == kind]


def step(action: StepAction, *changes: Change) -> Remedy:
    """A remedy of one step, as a person (or olmtui's old advice) would try it."""
    return Remedy((Step(action, "tried", changes[0].target, changes=changes),))


def recreate(session: Session, ref: ObjectRef) -> tuple[Change, ...]:
    """Delete ``ref`` and create it again from what the state holds (its status dropped)."""
    body = session.store.get(ref.kind, ref.namespace, ref.name)
    assert body is not None
    fresh = {k: copy.deepcopy(v) for k, v in body.items() if k != "status"}
    return (Change("delete", ref), Change("create", ref, body=fresh))


# -- states ----------------------------------------------------------------------------------


def etcd_team(*, installed: str | None = None) -> list[Obj]:
    """OLM's etcd operator subscribed in ``team`` from the global community catalog; the
    fixture's CSV left out, or kept under the name ``installed`` (the Subscription then
    references it, as OLM writes it when the install succeeded)."""
    objects = fixture_objects(ORPHAN)
    csv_ = find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")
    if installed is None:
        objects.remove(csv_)
        return objects
    version = installed.removeprefix("etcdoperator.v")
    csv_["metadata"]["name"] = installed
    csv_["spec"]["version"] = version
    properties = csv_["metadata"]["annotations"]["operatorframework.io/properties"]
    csv_["metadata"]["annotations"]["operatorframework.io/properties"] = properties.replace(
        '"version":"0.9.4"', f'"version":"{version}"'
    )
    sub = find(objects, "Subscription", "etcd")
    sub["status"] = {"state": "AtLatestKnown", "installedCSV": installed, "currentCSV": installed}
    return objects


def etcd_catalogs() -> list[str]:
    return catalog_specs(ORPHAN)


def upgrading(objects: list[Obj], plan: str, csv_name: str, *, state: str) -> Obj:
    """The etcd Subscription moved to ``csv_name`` by InstallPlan ``plan`` (R-SUB-3)."""
    sub = find(objects, "Subscription", "etcd")
    references_plan(sub, plan, state=state, failed=False)
    sub["status"]["currentCSV"] = csv_name
    return sub


def scoped_forbidden() -> list[Obj]:
    """OLM's e2e ``user_defined_sa_test.go``: a scoped group whose ServiceAccount may not
    create the CSV; the plan retries (``retrying execution due to error``), the CSV waits."""
    objects = etcd_team()
    group = find(objects, "OperatorGroup", "og")
    group["spec"]["serviceAccountName"] = "scoped"
    user = 'User "system:serviceaccount:team:scoped"'
    error = (
        "error creating csv etcdoperator.v0.9.4: clusterserviceversions.operators.coreos.com "
        f'is forbidden: {user} cannot create resource "clusterserviceversions" in API group '
        '"operators.coreos.com" in the namespace "team"'
    )
    objects.append(
        install_plan(
            TEAM,
            ETCD_PLAN.name,
            "Installing",
            True,
            approval="Automatic",
            csvs=[("etcdoperator.v0.9.4", None)],
            status={"message": f"retrying execution due to error: {error}"},
        )
    )
    objects.append(
        csv(
            TEAM,
            "etcdoperator.v0.9.4",
            modes=("OwnNamespace", "SingleNamespace"),
            phase="Pending",
            reason="RequirementsNotMet",
            group="og",
            targets=TEAM,
            version="0.9.4",
        )
    )
    upgrading(objects, ETCD_PLAN.name, "etcdoperator.v0.9.4", state="UpgradePending")
    return objects


def failed_upgrade(error: str | None = None) -> list[Obj]:
    """etcd 0.9.2 installed, its InstallPlan to 0.9.4 Failed before creating the CSV, the
    Subscription UpgradePending on 0.9.4 (OLM's ``transitionInstallPlanState``)."""
    objects = etcd_team(installed="etcdoperator.v0.9.2")
    plan = failed_plan(TEAM, ETCD_PLAN.name, ["etcdoperator.v0.9.4"])
    if error is not None:
        plan["status"]["conditions"][0]["message"] = error
    objects.append(plan)
    sub = find(objects, "Subscription", "etcd")
    references_plan(sub, ETCD_PLAN.name, state="UpgradePending")
    sub["status"]["currentCSV"] = "etcdoperator.v0.9.4"
    if error is not None:
        sub["status"]["conditions"][-1]["message"] = error
    return objects


def resolution_failed(objects: list[Obj], message: str) -> Obj:
    """The etcd Subscription with OLM's ResolutionFailed condition (R-SUB-7)."""
    sub = find(objects, "Subscription", "etcd")
    sub["status"] = {
        "conditions": [
            {
                "type": "ResolutionFailed",
                "status": "True",
                "reason": "ConstraintsNotSatisfiable",
                "message": message,
            }
        ]
    }
    return sub


# -- the catalogs a namespace resolves from (R-RES-3, R-RES-5) ---------------------------------


def test_a_group_excluding_the_global_namespace_is_fixed_on_the_group_not_the_catalog(
    tmp_path: Path,
) -> None:
    """OLM's ``olm.operatorframework.io/exclude-global-namespace-resolution`` (resolver
    ``source_registry.go``): the healthy global catalog is never blamed, the annotation's
    removal is proven, and "fix the catalog" (recreate it) is never proven."""
    objects = etcd_team()
    find(objects, "OperatorGroup", "og")["metadata"]["annotations"] = {EXCLUDE_GLOBAL: "true"}
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("CatalogNotVisible")
    assert incident.root == ("CatalogNotVisible", "Subscription", TEAM, "etcd")
    assert names(incident, "OperatorGroup") == ["team/og"]
    assert not [f for f in state.findings if f.kind == "CatalogSource"]
    remedy = state.remedy(incident)
    assert [(s.action, s.object) for s in remedy.steps] == [
        ("patch", ObjectRef("OperatorGroup", TEAM, "og"))
    ]
    assert remedy.verified == "simulated", remedy
    assert remedy.steps[0].command == f"oc annotate operatorgroup og -n team {EXCLUDE_GLOBAL}-"
    wrong = state.verify(step("delete", *recreate(state.session, CATALOG)), incident)
    assert wrong.verified == "not-simulated", wrong


def test_a_catalog_in_a_namespace_the_subscription_does_not_resolve_from(
    tmp_path: Path,
) -> None:
    """R-RES-3, OLM issue reports of "no operators found from catalog X in namespace Y"
    where Y is a third namespace: the Subscription is pointed at the copy it sees."""
    objects = etcd_team()
    vendor = copy.deepcopy(find(objects, "CatalogSource", CATALOG.name))
    vendor["metadata"]["namespace"] = "vendor"
    objects += [namespace("vendor"), vendor]
    sub = resolution_failed(
        objects,
        "no operators found from catalog community-operators in namespace vendor referenced "
        "by subscription etcd",
    )
    sub["spec"]["sourceNamespace"] = "vendor"
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("ConstraintsNotSatisfiable")
    assert names(incident, "CatalogSource") == ["vendor/community-operators"]
    assert "the namespace's view, not the catalog" in state.finding(incident.root).message
    remedy = state.remedy(incident)
    assert remedy.verified == "simulated", remedy
    assert remedy.steps[0].changes == (
        Change("patch", ETCD_SUB, field="spec.sourceNamespace", value=MARKET),
    )


def test_a_broken_global_catalog_names_every_subscription_it_blocks_but_the_excluded(
    tmp_path: Path,
) -> None:
    """R-RES-5: one unhealthy global CatalogSource stops resolution in every namespace
    resolving against it (R-RES-3: an excluded namespace is spared)."""
    objects = etcd_team()
    objects.append(catalog_source(MARKET, "certified", state="TRANSIENT_FAILURE"))
    for ns in ("team-b", "team-c", "apart"):
        group = operator_group(ns, "og", targets=[ns])
        source, source_ns = CATALOG.name, MARKET
        if ns == "apart":
            group["metadata"]["annotations"] = {EXCLUDE_GLOBAL: "true"}
            source, source_ns = "local", ns
        objects += [
            namespace(ns),
            group,
            subscription(
                ns, "etcd", package="etcd", channel="alpha", source=source, source_ns=source_ns
            ),
        ]
    objects.append(catalog_source("apart", "local"))
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("CatalogSourceNotReady")
    assert incident.root == ("CatalogSourceNotReady", "CatalogSource", MARKET, "certified")
    assert names(incident, "Subscription") == ["team/etcd", "team-b/etcd", "team-c/etcd"]
    remedy = state.remedy(incident)
    assert remedy.verified == "not-simulated" and remedy.missing is not None


def test_a_never_connected_catalog_is_one_incident_with_its_subscription(tmp_path: Path) -> None:
    case = RESOLUTION / "catalog-never-connected"
    state = diagnosed(tmp_path, fixture_objects(case), catalog_specs(case))
    (incident,) = [i for i in state.incidents if i.severity == "error"]
    assert incident.root[:2] == ("CatalogSourceNotReady", "CatalogSource")
    assert names(incident, "Subscription") == ["team/app"]


def test_the_subscriptions_own_catalog_broken_folds_both_its_conditions(tmp_path: Path) -> None:
    """R-DIAG-1, R-SUB-8: OLM writes CatalogSourcesUnhealthy and the targeted variant; both
    follow from the one catalog, whose repair lies outside the state."""
    objects = etcd_team()
    broken = find(objects, "CatalogSource", CATALOG.name)
    broken["status"]["connectionState"]["lastObservedState"] = "TRANSIENT_FAILURE"
    unhealthy = [
        {
            "catalogSourceRef": {
                "kind": "CatalogSource",
                "namespace": MARKET,
                "name": CATALOG.name,
            },
            "healthy": False,
        }
    ]
    find(objects, "Subscription", "etcd")["status"] = {
        "catalogHealth": unhealthy,
        "conditions": [
            {
                "type": "CatalogSourcesUnhealthy",
                "status": "True",
                "reason": "UnhealthyCatalogSourceFound",
                "message": f"targeted catalogsource {MARKET}/{CATALOG.name} unhealthy",
            }
        ],
    }
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    (incident,) = [i for i in state.incidents if i.severity != "info"]
    assert incident.root == ("CatalogSourceNotReady", CATALOG.kind, MARKET, CATALOG.name)
    assert {c[0] for c in incident.consequences} == {
        "CatalogSourcesUnhealthy",
        "TargetedCatalogSourceUnhealthy",
    }
    assert names(incident, "Subscription") == ["team/etcd"]
    assert state.remedy(incident).verified == "not-simulated"


def test_an_excluded_namespace_with_its_own_catalog_has_nothing_to_diagnose(
    tmp_path: Path,
) -> None:
    """R-RES-3: the exclusion annotation with the catalog in the namespace is a working setup."""
    objects = etcd_team()
    find(objects, "OperatorGroup", "og")["metadata"]["annotations"] = {EXCLUDE_GLOBAL: "true"}
    own = copy.deepcopy(find(objects, "CatalogSource", CATALOG.name))
    own["metadata"]["namespace"] = TEAM
    objects.append(own)
    find(objects, "Subscription", "etcd")["spec"]["sourceNamespace"] = TEAM
    content = f"{TEAM}/{CATALOG.name}={ORPHAN / 'catalog-community-operators.yaml'}"
    state = diagnosed(tmp_path, objects, [content])
    assert not [i for i in state.incidents if i.severity != "info"]


# -- InstallPlans (R-IP-*, R-SUB-*, R-DOC-14) ----------------------------------------------------


def test_a_failed_installplan_and_the_csv_it_left_pending_are_one_incident(
    tmp_path: Path,
) -> None:
    """R-DIAG-3: one incident, one remedy (the reinstall deletes both etcd CSVs first,
    R-DOC-14); recreating the Subscription while 0.9.2 stays is refused."""
    objects = failed_upgrade()
    left = copy.deepcopy(find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.2"))
    left["metadata"]["name"] = "etcdoperator.v0.9.4"
    left["spec"].update(version="0.9.4", replaces="etcdoperator.v0.9.2")
    left["status"] = {"phase": "Pending", "reason": "RequirementsNotMet"}
    objects.append(left)
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("InstallPlanFailed")
    assert incident.consequences == (
        ("CSVPending", "ClusterServiceVersion", TEAM, "etcdoperator.v0.9.4"),
    )
    assert names(incident, "InstallPlan") == ["team/install-etcd"]
    remedy = state.remedy(incident)
    assert remedy.verified == "simulated", remedy
    deleted = [s.object for s in remedy.steps if s.action == "delete"]
    assert ObjectRef("ClusterServiceVersion", TEAM, "etcdoperator.v0.9.2") in deleted
    wrong = state.verify(step("delete", *recreate(state.session, ETCD_SUB)), incident)
    assert refused(wrong), wrong
    assert "is not referenced by a subscription" in wrong.outcome


def test_a_failed_plan_before_its_csv_is_retried_by_deleting_the_plan(tmp_path: Path) -> None:
    """R-SUB-6: UpgradePending and no CSV of the plan: deleting it makes OLM resolve again."""
    state = diagnosed(tmp_path, failed_upgrade(), etcd_catalogs())
    incident = state.incident("InstallPlanFailed")
    remedy = state.remedy(incident)
    assert remedy.verified == "simulated", remedy
    assert ("delete", ETCD_PLAN) in [(s.action, s.object) for s in remedy.steps]


def test_a_dropped_stored_version_names_the_crd_before_the_retry(tmp_path: Path) -> None:
    """R-DOC-5, OLM's ``crd.go`` "risk of data loss updating": the cause is
    ``status.storedVersions``, then the retry is proven."""
    error = (
        'error updating CRD: risk of data loss updating "etcdclusters.etcd.database.coreos.com"'
        ": new CRD removes version v1beta1 that is listed as a stored version on the existing CRD"
    )
    objects = failed_upgrade(error)
    crd = find(objects, "CustomResourceDefinition", "etcdclusters.etcd.database.coreos.com")
    crd["status"] = {"storedVersions": ["v1beta1", "v1beta2"]}
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    remedy = state.remedy(state.incident("InstallPlanFailed"))
    assert "status.storedVersions" in remedy.steps[0].text
    assert remedy.steps[0].object == ObjectRef(
        "CustomResourceDefinition", "", crd["metadata"]["name"]
    )
    assert remedy.verified == "simulated", remedy
    assert "taken as done" in remedy.outcome


def test_a_scoped_account_forbidden_is_the_root_of_the_csv_it_left(tmp_path: Path) -> None:
    """R-DIAG-11 (OLM e2e ``user_defined_sa_test.go``): an error with the CSV folded under
    it, not an info "in progress"; the grant lies outside the state, and the report says so."""
    state = diagnosed(tmp_path, scoped_forbidden(), etcd_catalogs())
    incident = state.incident("InstallPlanForbidden")
    assert incident.severity == "error"
    assert incident.consequences == (
        ("CSVPending", "ClusterServiceVersion", TEAM, "etcdoperator.v0.9.4"),
    )
    assert names(incident, "ServiceAccount") == ["team/scoped"]
    remedy = state.remedy(incident)
    assert remedy.verified == "not-simulated"
    assert remedy.missing is not None and "outside the state" in remedy.missing
    assert "InstallPlanPending" not in state.codes(("info",))


def test_a_plan_waiting_for_approval_is_approved_and_what_is_missing_is_said(
    tmp_path: Path,
) -> None:
    """R-IP-2: approving is the remedy; the bundle's manifest is not in the state, so the
    install is not claimed proven."""
    objects = etcd_team()
    objects.append(install_plan(TEAM, ETCD_PLAN.name, csvs=[("etcdoperator.v0.9.4", None)]))
    find(objects, "Subscription", "etcd")["spec"]["installPlanApproval"] = "Manual"
    upgrading(objects, ETCD_PLAN.name, "etcdoperator.v0.9.4", state="UpgradePending")
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("UpgradePending")
    remedy = state.remedy(incident)
    assert [(s.action, s.object) for s in remedy.steps] == [("approve", ETCD_PLAN)]
    assert remedy.verified == "not-simulated" and "manifest" in (remedy.missing or "")


def _fail_forward(tmp_path: Path, *, enabled: bool) -> Diagnosed:
    """``step_resolver_test.go`` FailForwardEnabled: a.v1 Replacing, a.v2 Failed, its plan
    Failed; a.v3 in the catalog replaces a.v2."""
    objects = fixture_objects(FAIL_FORWARD)
    if not enabled:
        del find(objects, "OperatorGroup", "og")["spec"]["upgradeStrategy"]
    objects.append(failed_plan("catsrc-namespace", "install-a2", ["a.v2"]))
    references_plan(find(objects, "Subscription", "a-alpha"), "install-a2", state="AtLatestKnown")
    return diagnosed(tmp_path, objects, catalog_specs(FAIL_FORWARD))


def test_under_fail_forward_deleting_the_failed_plan_resolves_to_the_next_bundle(
    tmp_path: Path,
) -> None:
    """R-UPG-8: OLM goes UpgradePending and resolves a.v3; the Subscription's failure clears."""
    state = _fail_forward(tmp_path, enabled=True)
    incident = state.incident("InstallPlanFailed")
    offered = state.session.analysis.remedy(state.finding(incident.root))
    assert offered is not None
    steps = [(s.action, s.object) for s in offered.steps]
    assert ("delete", ObjectRef("InstallPlan", "catsrc-namespace", "install-a2")) in steps
    assert not [s for s in offered.steps if s.object and s.object.kind == "Subscription"]
    proven = state.session.analysis.simulator(in_place=True).verify(offered, {incident.root})
    assert proven.verified == "simulated", proven
    assert "a-alpha to a.v3" in proven.outcome


def test_under_fail_forward_the_whole_incident_is_not_refused(tmp_path: Path) -> None:
    state = _fail_forward(tmp_path, enabled=True)
    remedy = state.remedy(state.incident("InstallPlanFailed"))
    # R-UPG-8: the Failed a.v2 goes only once a.v3 installs, which olmtui does not model
    assert not refused(remedy), remedy
    assert remedy.verified == "not-simulated" and "installing a.v3" in (remedy.missing or "")


def test_without_fail_forward_deleting_the_failed_plan_is_refused(tmp_path: Path) -> None:
    """R-SUB-6, R-RES-21: the Failed a.v2 exists, so OLM only reports InstallPlanMissing."""
    state = _fail_forward(tmp_path, enabled=False)
    incident = state.incident("InstallPlanFailed")
    plan = ObjectRef("InstallPlan", "catsrc-namespace", "install-a2")
    wrong = state.verify(step("delete", Change("delete", plan)), incident)
    assert refused(wrong), wrong
    assert "InstallPlanMissing" in wrong.outcome
    offered = state.session.analysis.remedy(state.finding(incident.root))
    assert offered is not None
    assert ("delete", plan) not in [(s.action, s.object) for s in offered.steps]


def test_an_orphaned_csv_is_deleted_before_the_subscription_resolves(tmp_path: Path) -> None:
    """R-DOC-14 (OLM issue: "clusterserviceversion X exists and is not referenced by a
    subscription"): deleting the CSV is proven; recreating the Subscription is refused."""
    state = diagnosed(tmp_path, fixture_objects(ORPHAN), etcd_catalogs())
    incident = state.incident("UnreferencedCSV")
    assert names(incident, "Subscription") == ["team/etcd"]
    remedy = state.remedy(incident)
    assert remedy.verified == "simulated", remedy
    wrong = state.verify(step("delete", *recreate(state.session, ETCD_SUB)), incident)
    assert refused(wrong), wrong


# -- CSVs (R-CSV-*) ------------------------------------------------------------------------------


def test_a_csv_failed_on_its_subscriptions_spec_config_is_fixed_on_the_subscription(
    tmp_path: Path,
) -> None:
    """R-CSV-IR (OLM's ``overrides`` and e2e "Subscription config"): the step patches the
    Subscription, and the rollout the simulation lacks is named."""
    objects = etcd_team(installed="etcdoperator.v0.9.4")
    sub = find(objects, "Subscription", "etcd")
    sub["spec"]["config"] = {"resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}}
    find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")["status"] = {
        "phase": "Failed",
        "reason": "InstallComponentFailed",
        "message": 'install strategy failed: Deployment.apps "etcd-operator" is invalid: '
        'spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be '
        "less than or equal to cpu limit",
    }
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("CSVFailed")
    assert names(incident, "Subscription") == ["team/etcd"]
    remedy = state.remedy(incident)
    assert remedy.steps[0].changes == (
        Change("patch", ETCD_SUB, field="spec.config.resources", value=""),
    )
    assert remedy.verified == "not-simulated" and "spec.config" in (remedy.missing or "")


def test_a_csv_pending_on_min_kube_version_needs_a_newer_cluster(tmp_path: Path) -> None:
    """R-CSV-P: never "something was deleted"; the cluster upgrade lies outside the state."""
    objects = etcd_team()
    objects.append(
        csv(
            TEAM,
            "etcdoperator.v0.9.4",
            modes=("OwnNamespace", "SingleNamespace"),
            phase="Pending",
            reason="RequirementsNotMet",
            group="og",
            targets=TEAM,
            version="0.9.4",
            spec={"minKubeVersion": "1.99.0"},
            status={
                "requirementStatus": [
                    {
                        "group": "operators.coreos.com",
                        "kind": "ClusterServiceVersion",
                        "name": "etcdoperator.v0.9.4",
                        "status": "PresentNotSatisfied",
                        "message": "CSV version requirement not met: minKubeVersion (1.99.0) > "
                        "server version (1.27.0)",
                    }
                ]
            },
        )
    )
    objects.append(
        install_plan(
            TEAM,
            ETCD_PLAN.name,
            "Complete",
            True,
            approval="Automatic",
            csvs=[("etcdoperator.v0.9.4", None)],
        )
    )
    upgrading(objects, ETCD_PLAN.name, "etcdoperator.v0.9.4", state="AtLatestKnown")
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("CSVPending")
    assert "deleted" not in state.finding(incident.root).message
    remedy = state.remedy(incident)
    assert remedy.steps[0].action == "upgrade-cluster"
    assert remedy.verified == "not-simulated" and "1.99.0" in (remedy.missing or "")


def test_a_csv_whose_install_modes_the_group_does_not_support(tmp_path: Path) -> None:
    """R-MEM-6 (``operatorgroup.go``): an AllNamespaces-only CSV in an own-namespace group."""
    objects = etcd_team(installed="etcdoperator.v0.9.4")
    found = find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")
    found["spec"]["installModes"] = [
        {"type": t, "supported": t == "AllNamespaces"}
        for t in ("OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces")
    ]
    found["status"] = {
        "phase": "Failed",
        "reason": "UnsupportedOperatorGroup",
        "message": "OwnNamespace InstallModeType not supported, cannot configure to watch own "
        "namespace",
    }
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("UnsupportedOperatorGroup")
    assert incident.affected[0] == ObjectRef("ClusterServiceVersion", TEAM, "etcdoperator.v0.9.4")
    assert state.remedy(incident).verified == "not-simulated"


# -- resolution with the catalog content given (R-SUB-7, R-UPG-6) ---------------------------------


def test_no_operators_in_a_channel_moves_to_the_default_channel_the_content_lists(
    tmp_path: Path,
) -> None:
    objects = etcd_team()
    sub = resolution_failed(
        objects,
        "no operators found in channel beta of package etcd in the catalog referenced by "
        "subscription etcd",
    )
    sub["spec"]["channel"] = "beta"
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("ConstraintsNotSatisfiable")
    assert "its channels are alpha (default alpha)" in state.finding(incident.root).message
    remedy = state.remedy(incident)
    assert remedy.steps[0].changes == (
        Change("patch", ETCD_SUB, field="spec.channel", value="alpha"),
    )
    assert remedy.verified == "simulated", remedy


def test_no_operators_in_a_package_lists_the_packages_of_the_content(tmp_path: Path) -> None:
    objects = etcd_team()
    sub = resolution_failed(
        objects,
        "no operators found in package etcd-operator in the catalog referenced by "
        "subscription etcd",
    )
    sub["spec"]["name"] = "etcd-operator"
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("ConstraintsNotSatisfiable")
    assert "has no package etcd-operator; it has etcd" in state.finding(incident.root).message
    wrong = state.verify(
        step("patch", Change("patch", ETCD_SUB, field="spec.channel", value="alpha")), incident
    )
    assert refused(wrong), wrong
    right = state.verify(
        step("patch", Change("patch", ETCD_SUB, field="spec.name", value="etcd")), incident
    )
    assert right.verified == "simulated", right


def test_a_channel_the_catalog_cannot_order_asks_the_catalogs_author(tmp_path: Path) -> None:
    """``TestDisjointChannelGraph``: a channel with two heads; nothing in the cluster fixes it."""
    case = RESOLUTION / "TestDisjointChannelGraph"
    state = diagnosed(tmp_path, fixture_objects(case), catalog_specs(case))
    incident = state.incident("ChannelGraphError")
    remedy = state.remedy(incident)
    assert [s.action for s in remedy.steps] == ["contact-author"]
    assert remedy.verified == "not-simulated"


# -- groups (R-OG-*, R-MEM-*) --------------------------------------------------------------------


def test_two_groups_are_one_incident_and_deleting_one_is_proven(tmp_path: Path) -> None:
    case = RESOLUTION / "two-operatorgroups"
    state = diagnosed(tmp_path, fixture_objects(case), catalog_specs(case))
    incident = state.incident("MultipleOperatorGroupsFound")
    assert incident.consequences == (("SubscriptionStalled", "Subscription", TEAM, "app"),)
    assert names(incident, "OperatorGroup") == ["team/og", "team/og-2"]
    assert state.remedy(incident).verified == "simulated"


def test_no_group_stalls_the_subscription_without_a_condition(tmp_path: Path) -> None:
    case = RESOLUTION / "no-operatorgroup"
    state = diagnosed(tmp_path, fixture_objects(case), catalog_specs(case))
    incident = state.incident("SubscriptionStalled")
    assert incident.severity == "error"
    assert state.remedy(incident).verified == "not-simulated"


def test_a_selector_matching_nothing_is_the_root_of_the_csvs_failure(tmp_path: Path) -> None:
    objects = etcd_team(installed="etcdoperator.v0.9.4")
    group = find(objects, "OperatorGroup", "og")
    del group["spec"]["targetNamespaces"]
    group["spec"]["selector"] = {"matchLabels": {"team": "none"}}
    group["status"] = {"namespaces": []}
    find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")["status"] = {
        "phase": "Failed",
        "reason": "NoTargetNamespaces",
        "message": "no targetNamespaces are matched operatorgroups namespace selection",
    }
    state = diagnosed(tmp_path, objects, etcd_catalogs())
    incident = state.incident("SelectorMatchesNothing")
    assert incident.consequences == (
        ("NoTargetNamespaces", "ClusterServiceVersion", TEAM, "etcdoperator.v0.9.4"),
    )


def test_overlapping_groups_of_one_api_are_one_incident_naming_the_other_group(
    tmp_path: Path,
) -> None:
    """R-API-9, R-CSV-O (the demo's etcd in ``team-b-operators`` and the global group): OLM
    fails only the CSV that came second, so there is one error, not two to link; its blast
    radius names the group that also claims the API."""
    state = diagnosed(tmp_path, [dict(o) for o in build_scenario().objects])
    (incident,) = [i for i in state.incidents if i.root[0] == "InterOperatorGroupOwnerConflict"]
    assert incident.root[1:] == ("ClusterServiceVersion", "team-b-operators", "etcdoperator.v0.9.4")
    assert names(incident, "OperatorGroup") == ["openshift-operators/global-operators"]
    assert sum(f.code == "InterOperatorGroupOwnerConflict" for f in state.findings) == 1


# -- OLM v1 (R-V1-*) -----------------------------------------------------------------------------


def _v1(message: str) -> list[Obj]:
    return [
        cluster_catalog(
            "operatorhubio",
            serving=("False", "Unavailable", "Catalog content not available"),
            progressing=("True", "Retrying", "source catalog content: unauthorized"),
        ),
        cluster_extension(
            "argocd",
            installed=None,
            conditions=[
                condition("Progressing", "True", "Retrying", message),
                condition("Installed", "False", "Failed", "No bundle installed"),
            ],
        ),
    ]


def test_a_cluster_catalog_not_served_is_the_root_of_the_extension_it_fails(
    tmp_path: Path,
) -> None:
    """R-DIAG-12, R-V1-9 (``catalogmetadata/client/client.go``: "is not being served")."""
    state = diagnosed(
        tmp_path,
        _v1(
            'error walking catalogs: error getting package "argocd-operator" from catalog '
            '"operatorhubio": catalog "operatorhubio" is not being served'
        ),
    )
    incident = state.incident("ClusterCatalogRetrying")
    assert set(incident.consequences) == {
        ("ClusterExtensionRetrying", "ClusterExtension", "", "argocd"),
        ("ClusterCatalogNotServing", "ClusterCatalog", "", "operatorhubio"),
    }
    assert names(incident, "ClusterExtension") == ["/argocd"]


def test_an_extension_failing_for_another_reason_stands_alone(tmp_path: Path) -> None:
    state = diagnosed(
        tmp_path, _v1('no bundles found for package "argocd-operator" matching version ">=9"')
    )
    incident = state.incident("ClusterExtensionRetrying")
    assert incident.consequences == ()


# -- the real must-gathers: one incident where there were two errors ------------------------------


@pytest.mark.parametrize("gather", ["azure", "metal", "vsphere"])
def test_a_real_must_gathers_failed_plan_and_pending_csv_are_one_incident(gather: str) -> None:
    """openshift/must-gather-clean's OCP 4.8/4.9 CI must-gathers (tests/data/SOURCES.md):
    the image-caching-operator's failed InstallPlan and the CSV it left Pending."""
    _, report = run_check([str(MUST_GATHERS / f"must-gather-{gather}")])
    errors = [i for i in report["incidents"] if i["severity"] == "error"]
    assert len(errors) == 1
    (incident,) = errors
    sub = "image-caching-operator-v0-0-1-sub"
    assert incident["root"] == {
        "code": "InstallPlanFailed",
        "kind": "Subscription",
        "namespace": "cfe-test-namespace",
        "name": sub,
    }
    assert [c["code"] for c in incident["consequences"]] == ["CSVPending"]
    failing = [f for f in report["findings"] if f["severity"] == "error"]
    assert len(failing) == 2 and {f["incident"] for f in failing} == {incident["id"]}
    assert report["summary"]["incidents"]["error"] == 1


def test_the_aws_must_gather_has_no_error_incident() -> None:
    _, report = run_check([str(MUST_GATHERS / "must-gather-aws")])
    assert not [i for i in report["incidents"] if i["severity"] == "error"]
