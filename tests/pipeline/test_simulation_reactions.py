"""The simulation's table: one state class per test, built from OLM's own resolver tests
(``tests/data/resolution``, see its README) changed as OLM leaves a cluster after a failed
or pending InstallPlan. Each asserts what OLM does next as olmtui models it (R-SUB-2, R-SUB-6,
R-IP-2, R-RES-21, R-DOC-14) and whether a remedy is proven, refused or not simulated."""

from __future__ import annotations

import json
from pathlib import Path

from model_builders import failed_plan
from simulation_support import (
    FAIL_FORWARD,
    ORPHAN,
    catalog_specs,
    find,
    fixture_objects,
    references_plan,
    session_of,
)

from olmtui.model.records.diagnosis import Change, Remedy, Step
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.simulation import refused

NS = "catsrc-namespace"
PLAN = ObjectRef("InstallPlan", NS, "install-a2")
FAILED_KEY = ("InstallPlanFailed", "Subscription", NS, "a-alpha")


def _fail_forward_state(tmp_path: Path, *, fail_forward: bool):
    """a.v2 Failed after replacing a.v1, its InstallPlan Failed, a.v3 in the catalog."""
    objects = fixture_objects(FAIL_FORWARD)
    if not fail_forward:
        del find(objects, "OperatorGroup", "og")["spec"]["upgradeStrategy"]
    objects.append(failed_plan(NS, "install-a2", ["a.v2"]))
    references_plan(find(objects, "Subscription", "a-alpha"), "install-a2", state="AtLatestKnown")
    return session_of(objects, tmp_path, catalog_specs(FAIL_FORWARD))


def _delete_plan() -> Remedy:
    return Remedy(
        (
            Step(
                "delete",
                "Delete the failed InstallPlan",
                PLAN,
                command=f"oc delete installplan {PLAN.name} -n {NS}",
                changes=(Change("delete", PLAN),),
            ),
        )
    )


def test_fail_forward_deleting_the_failed_plan_resolves_again(tmp_path: Path) -> None:
    # R-UPG-8, R-RES-21: with fail-forward the Failed a.v2 is upgraded to a.v3
    session = _fail_forward_state(tmp_path, fail_forward=True)
    remedy = session.analysis.simulator().verify(_delete_plan(), {FAILED_KEY})
    assert remedy.verified == "simulated", remedy
    assert "a-alpha to a.v3" in remedy.outcome
    assert "InstallPlanFailed clears" in remedy.outcome
    assert remedy.missing is None


def test_default_deleting_the_failed_plan_is_refused(tmp_path: Path) -> None:
    # R-SUB-6: the CSV exists, so OLM only reports InstallPlanMissing; without fail-forward
    # the Failed CSV blocks the upgrade (R-RES-21)
    session = _fail_forward_state(tmp_path, fail_forward=False)
    remedy = session.analysis.simulator().verify(_delete_plan(), {FAILED_KEY})
    assert refused(remedy), remedy
    assert "InstallPlanMissing" in remedy.outcome
    assert "new error" in remedy.outcome


def _etcd_upgrade_failed(tmp_path: Path, *, orphan_stays: bool, catalogs: bool = True):
    """etcd installed at v0.9.2 (Subscription, CSV), its upgrade to v0.9.4 Failed while the
    Subscription is UpgradePending (the new CSV never created)."""
    objects = fixture_objects(ORPHAN)
    csv = find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")
    csv["metadata"]["name"] = "etcdoperator.v0.9.2"
    csv["spec"]["version"] = "0.9.2"
    csv["status"] = {"phase": "Succeeded", "reason": "InstallSucceeded"}
    if not orphan_stays:
        objects.remove(csv)
    sub = find(objects, "Subscription", "etcd")
    sub["status"] = {"currentCSV": "etcdoperator.v0.9.4"}
    if orphan_stays:
        sub["status"]["installedCSV"] = "etcdoperator.v0.9.2"
    objects.append(failed_plan("team", "install-etcd", ["etcdoperator.v0.9.4"]))
    references_plan(sub, "install-etcd", state="UpgradePending")
    return session_of(objects, tmp_path, catalog_specs(ORPHAN) if catalogs else [])


ETCD_FAILED = ("InstallPlanFailed", "Subscription", "team", "etcd")
ETCD_PLAN = ObjectRef("InstallPlan", "team", "install-etcd")
ETCD_SUB = ObjectRef("Subscription", "team", "etcd")


def test_upgrade_pending_plan_deleted_starts_over(tmp_path: Path) -> None:
    # R-SUB-6: UpgradePending and the plan gone: OLM clears the reference and resolves again
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    outcome = session.analysis.simulator().run([Change("delete", ETCD_PLAN)])
    assert any("clears the reference and resolves again" in line for line in outcome.next)
    assert any("team/etcd to etcdoperator.v0.9.4" in line for line in outcome.next)
    assert ETCD_FAILED not in {(f.code, f.kind, f.namespace, f.name) for f in outcome.after}
    assert not outcome.missing


def test_without_catalog_content_resolution_is_not_simulated(tmp_path: Path) -> None:
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True, catalogs=False)
    remedy = session.analysis.simulator().verify(
        Remedy((Step("delete", "Delete it", ETCD_PLAN, changes=(Change("delete", ETCD_PLAN),)),)),
        {ETCD_FAILED},
    )
    assert remedy.verified == "not-simulated"
    assert remedy.missing is not None and "catalog content" in remedy.missing
    assert not refused(remedy)


def _recreate(sub: dict) -> tuple[Change, ...]:
    body = {k: v for k, v in sub.items() if k != "status"}
    return (Change("delete", ETCD_SUB), Change("create", ETCD_SUB, body=body))


def test_recreating_the_subscription_while_its_csv_stays_is_refused(tmp_path: Path) -> None:
    # R-DOC-14: the new Subscription never adopts etcdoperator.v0.9.2, and resolution then
    # fails on it
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    sub = session.store.get("Subscription", "team", "etcd")
    assert sub is not None
    remedy = Remedy(
        (
            Step(
                "delete",
                "Delete the Subscription and create it again",
                ETCD_SUB,
                changes=_recreate(sub),
            ),
        )
    )
    verified = session.analysis.simulator().verify(remedy, {ETCD_FAILED})
    assert refused(verified), verified
    assert (
        "clusterserviceversion etcdoperator.v0.9.2 exists and is not referenced by a subscription"
        in verified.outcome
    )


def test_recreating_the_subscription_after_its_csv_is_proven(tmp_path: Path) -> None:
    # R-DOC-14: with the leftover CSV deleted first, the new Subscription installs the head
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    sub = session.store.get("Subscription", "team", "etcd")
    assert sub is not None
    csv = ObjectRef("ClusterServiceVersion", "team", "etcdoperator.v0.9.2")
    remedy = Remedy(
        (
            Step("delete", "Delete the CSV", csv, changes=(Change("delete", csv),)),
            Step("delete", "Delete and create the Subscription", ETCD_SUB, changes=_recreate(sub)),
        )
    )
    verified = session.analysis.simulator().verify(remedy, {ETCD_FAILED})
    assert verified.verified == "simulated", verified
    assert "etcdoperator.v0.9.4" in verified.outcome


def _manual_pending(tmp_path: Path, *, manifest: bool):
    """A Manual Subscription whose InstallPlan for etcdoperator.v0.9.4 waits (R-IP-2)."""
    objects = fixture_objects(ORPHAN)
    csv = find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")
    objects.remove(csv)
    sub = find(objects, "Subscription", "etcd")
    sub["spec"]["installPlanApproval"] = "Manual"
    sub["status"] = {"currentCSV": "etcdoperator.v0.9.4"}
    references_plan(sub, "install-etcd", state="UpgradePending", failed=False)
    sub["status"]["conditions"].append(
        {"type": "InstallPlanPending", "status": "True", "reason": "RequiresApproval"}
    )
    plan = failed_plan("team", "install-etcd", ["etcdoperator.v0.9.4"])
    plan["spec"].update(approval="Manual", approved=False)
    plan["status"] = {"phase": "RequiresApproval"}
    if manifest:
        plan["status"]["plan"] = [
            {
                "resolving": "etcdoperator.v0.9.4",
                "status": "Unknown",
                "resource": {
                    "kind": "ClusterServiceVersion",
                    "name": "etcdoperator.v0.9.4",
                    "manifest": json.dumps(csv),
                },
            }
        ]
    objects.append(plan)
    return session_of(objects, tmp_path, catalog_specs(ORPHAN))


def test_approving_a_manual_plan_creates_its_csv(tmp_path: Path) -> None:
    # R-IP-2, R-IP-3, R-SUB-1, R-SUB-2
    session = _manual_pending(tmp_path, manifest=True)
    with session.analysis.simulator().trial([Change("approve", ETCD_PLAN)]) as (outcome, store):
        plan = store.get("InstallPlan", "team", "install-etcd")
        assert plan is not None and plan["status"]["phase"] == "Installing"
        assert plan["spec"]["approved"] is True
        assert store.get("ClusterServiceVersion", "team", "etcdoperator.v0.9.4") is not None
        sub = store.get("Subscription", "team", "etcd")
        assert sub is not None and sub["status"]["state"] == "AtLatestKnown"
        assert sub["status"]["installedCSV"] == "etcdoperator.v0.9.4"
    assert not outcome.missing
    assert any("is approved and installs etcdoperator.v0.9.4" in line for line in outcome.next)
    # the session's own cache is untouched, and so is the copy once the trial ends
    assert session.store.get("ClusterServiceVersion", "team", "etcdoperator.v0.9.4") is None
    again = session.analysis.simulator().run([Change("approve", ETCD_PLAN)])
    assert again.after == outcome.after


def test_approving_without_the_plan_manifests_is_not_simulated(tmp_path: Path) -> None:
    session = _manual_pending(tmp_path, manifest=False)
    outcome = session.analysis.simulator().run([Change("approve", ETCD_PLAN)])
    assert outcome.missing and "the manifest of CSV etcdoperator.v0.9.4" in outcome.missing[0]


def test_a_remedy_without_changes_is_not_simulated(tmp_path: Path) -> None:
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    remedy = Remedy((Step("contact-author", "Ask the bundle's author to fix it"),))
    verified = session.analysis.simulator().verify(remedy, {ETCD_FAILED})
    assert verified.verified == "not-simulated"
    assert verified.missing is not None and "Ask the bundle's author" in verified.missing


def test_a_step_olmtui_cannot_apply_is_taken_as_done_and_said(tmp_path: Path) -> None:
    # fail-forward: "fix the cause" (a webhook olmtui does not hold), then delete the plan
    session = _fail_forward_state(tmp_path, fail_forward=True)
    remedy = Remedy((Step("other", "Fix what the error names first."), *_delete_plan().steps))
    verified = session.analysis.simulator().verify(remedy, {FAILED_KEY})
    assert verified.verified == "simulated", verified
    assert verified.outcome.startswith("taken as done: Fix what the error names first;")


def test_a_step_on_an_object_not_there_is_not_simulated(tmp_path: Path) -> None:
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    gone = ObjectRef("InstallPlan", "team", "nope")
    remedy = Remedy((Step("delete", "Delete it", gone, changes=(Change("delete", gone),)),))
    verified = session.analysis.simulator().verify(remedy, {ETCD_FAILED})
    assert verified.verified == "not-simulated"
    assert verified.missing == "InstallPlan team/nope is not in the state"


def test_in_place_trials_leave_the_session_as_it_was(tmp_path: Path) -> None:
    # whatif's one-shot session is tried on in place: every trial is put back
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    before = session.analysis.report()
    objects = {k: dict(o) for k, o in session.store.items("Subscription")}
    simulator = session.analysis.simulator(in_place=True)
    assert simulator.in_place
    sub = session.store.get("Subscription", "team", "etcd")
    assert sub is not None
    copied = session.analysis.simulator().run([*_recreate(sub), Change("delete", ETCD_PLAN)])
    in_place = session.analysis.simulator(in_place=True).run(
        [*_recreate(sub), Change("delete", ETCD_PLAN)]
    )
    assert in_place.after == copied.after and in_place.next == copied.next
    assert {k: dict(o) for k, o in session.store.items("Subscription")} == objects
    after = session.analysis.report()
    assert list(after["findings"]) == list(before["findings"])
    assert after["resolution"] == before["resolution"]


def test_a_changed_group_is_synced_status_and_labels(tmp_path: Path) -> None:
    # R-OG-1, R-OG-2, R-OG-5: OLM writes the new targets to status and labels them
    from model_builders import namespace, operator_group

    og = operator_group("team-a", "og", targets=["team-a"], status=["team-a"])
    objects = [
        namespace("team-a", {"olm.operatorgroup.uid/og-team-a-og": ""}),
        namespace("team-b"),
        og,
    ]
    session = session_of(objects, tmp_path)
    target = ObjectRef("OperatorGroup", "team-a", "og")
    change = Change("patch", target, field="spec.targetNamespaces", value='["team-a", "team-b"]')
    with session.analysis.simulator().trial([change]) as (outcome, store):
        synced = store.get("OperatorGroup", "team-a", "og")
        assert synced is not None and synced["status"]["namespaces"] == ["team-a", "team-b"]
        team_b = store.get("Namespace", "", "team-b")
        assert team_b is not None
        assert "olm.operatorgroup.uid/og-team-a-og" in team_b["metadata"]["labels"]
    assert any("status.namespaces: team-a, team-b (R-OG-2)" in line for line in outcome.next)
    # what stays is the advice on several targets (R-DOC-3); nothing says "not synced"
    assert [f.code for f in outcome.new] == ["MultipleTargetNamespaces"], outcome.new


def test_a_change_whose_effect_olmtui_does_not_model_is_not_simulated(tmp_path: Path) -> None:
    # a CatalogSource's new image: its registry pod rolls, which olmtui does not see
    session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    source = ObjectRef("CatalogSource", "openshift-marketplace", "community-operators")
    change = Change("patch", source, field="spec.image", value="quay.io/example/other:1")
    remedy = session.analysis.simulator().verify(
        Remedy((Step("patch", "Use another image", source, changes=(change,)),)), {ETCD_FAILED}
    )
    assert remedy.verified == "not-simulated" and not refused(remedy)
    assert remedy.missing == (
        "the state of CatalogSource openshift-marketplace/community-operators once OLM rolls "
        "its registry pod (R-SUB-8)"
    )


def test_trials_share_one_copy_until_the_session_moves(tmp_path: Path) -> None:
    # what the trials follow is built once per state of the session, in place too (its
    # model's version moves with each trial put back, its state does not)
    for in_place in (False, True):
        session = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
        simulator = session.analysis.simulator(in_place=in_place)
        simulator.run([Change("delete", ETCD_PLAN)])
        built = simulator._copy
        simulator.run([Change("delete", ETCD_PLAN)])
        assert simulator._copy is built
        session.store.apply("DELETED", session.store.get("InstallPlan", "team", "install-etcd"))
        simulator.run([Change("delete", ETCD_SUB)])
        assert simulator._copy is not built
