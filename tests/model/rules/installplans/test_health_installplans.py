"""InstallPlan summaries, pending approvals and shared InstallPlans (R-IP-1..4, R-DOC-6
colocation); Manual-approval contagion (R-SUB-4) is the engine's."""

from __future__ import annotations

from typing import Any

import yaml
from data_paths import TESTS
from model_builders import ABSENT, install_plan, subscription

from olmtui.model.rules.installplans.summaries import (
    PendingApproval,
    PlannedCSV,
    namespace_installplan_findings,
    olm_defect,
    pending_approvals,
    plan_error,
    subscriptions_moved,
    summarize_install_plan,
)

DATA = TESTS / "data" / "health"


def load(name: str) -> dict[str, Any]:
    return yaml.load((DATA / name).read_bytes(), Loader=yaml.CSafeLoader)


def sub(
    name: str,
    approval: str | None = "Automatic",
    installed: str | None = None,
    plan: str | None = None,
    ns: str = "team",
) -> dict[str, Any]:
    return subscription(
        ns,
        name,
        package=name,
        channel=ABSENT,
        source_ns="olm",
        approval=approval,
        installed=installed,
        current=installed,
        state="AtLatestKnown" if installed else None,
        plan=plan,
    )


def plan(
    name: str,
    csvs: list[tuple[str, str | None]],
    phase: str = "RequiresApproval",
    approved: bool = False,
    ns: str = "team",
) -> dict[str, Any]:
    """A plan installing ``(csv name, replaces)`` pairs, with bundle lookups like OLM's."""
    return install_plan(ns, name, phase, approved, csvs=csvs)


# -- summaries of real plans ----------------------------------------------------------------


def test_r_ip_4_summary_of_the_real_failed_plan() -> None:
    summary = summarize_install_plan(load("metal-ip-install-b8pzk.yaml"))
    assert (summary.namespace, summary.name, summary.phase) == (
        "cfe-test-namespace",
        "install-b8pzk",
        "Failed",
    )
    assert (summary.approval, summary.approved, summary.waiting_for_approval) == (
        "Manual",
        True,
        False,
    )
    assert summary.csv_names == ("image-caching-operator.v0.0.1",)
    assert summary.csvs == (
        PlannedCSV(
            "image-caching-operator.v0.0.1",
            "image-caching-operator",
            "0.0.1",
            None,
            "cfe-test-namespace/image-caching-operator-catalog",
        ),
    )
    (lookup,) = summary.bundle_lookups
    assert lookup.path == "quay.io/josefkarasek/image-caching-operator-bundle:v0.0.1"
    assert [(s.kind, s.status) for s in summary.failed_steps] == [
        ("Role", "Unknown"),
        ("RoleBinding", "Unknown"),
        ("ClusterRole", "Unknown"),
        ("ClusterRoleBinding", "Unknown"),
    ]
    assert summary.conditions[0].reason == "InstallComponentFailed"
    assert summary.message is not None and summary.message.startswith("error creating role")
    assert summary.owners == ("image-caching-operator-v0-0-1-sub",)


def test_r_ip_1_old_format_plan_reads_the_version_from_the_inlined_csv() -> None:
    summary = summarize_install_plan(load("insights-installplan-psql.yaml"))
    assert summary.phase == "Complete" and summary.failed_steps == ()
    assert summary.csvs == (
        PlannedCSV(
            "cloud-native-postgresql.v0.3.0",
            None,
            "0.3.0",
            None,
            "openshift-marketplace/certified-operators",
        ),
    )
    assert len(summary.owners) == 3


def test_r_ip_1_complete_plan_has_no_failed_steps() -> None:
    summary = summarize_install_plan(load("metal-ip-install-4snvd.yaml"))
    assert summary.phase == "Complete" and summary.failed_steps == ()


# -- which Subscriptions a plan moves ----------------------------------------------------------


def test_seed_004_owner_references_alone_do_not_make_a_shared_plan() -> None:
    # metal install-4snvd is owned by both Subscriptions but installs one CSV.
    subs = [load("metal-sub-image-caching.yaml"), load("metal-sub-projectrequestlimits.yaml")]
    ip = load("metal-ip-install-4snvd.yaml")
    summary = summarize_install_plan(ip)
    assert len(summary.owners) == 2
    assert subscriptions_moved(summary, subs) == {
        "projectrequestlimits-v0-0-1-sub": ("projectrequestlimits.v0.0.1",)
    }
    ips = [ip, load("metal-ip-install-b8pzk.yaml")]
    assert namespace_installplan_findings("cfe-test-namespace", subs, ips) == []


def test_seed_004_real_plan_owned_by_three_subscriptions_moves_the_one_it_installs() -> None:
    summary = summarize_install_plan(load("insights-installplan-psql.yaml"))
    subs = [
        sub(
            "cloud-native-postgresql",
            installed="cloud-native-postgresql.v0.3.0",
            ns="openshift-operators",
        ),
        sub(
            "lib-bucket-provisioner",
            installed="lib-bucket-provisioner.v1.0.0",
            ns="openshift-operators",
        ),
    ]
    assert list(subscriptions_moved(summary, subs)) == ["cloud-native-postgresql"]


def test_seed_004_plan_maps_csvs_through_the_replaces_of_created_csvs() -> None:
    ip = plan("install-1", [("a.v2", None), ("b.v2", None)])
    csvs = [
        {"metadata": {"name": "a.v2", "namespace": "team"}, "spec": {"replaces": "a.v1"}},
        {"metadata": {"name": "b.v2", "namespace": "team"}, "spec": {"replaces": "b.v1"}},
    ]
    subs = [sub("a", installed="a.v1"), sub("b", installed="b.v1"), sub("c", installed="c.v1")]
    summary = summarize_install_plan(ip)
    assert subscriptions_moved(summary, subs) == {}
    assert subscriptions_moved(summary, subs, csvs) == {"a": ("a.v2",), "b": ("b.v2",)}


# -- R-SUB-4 contagion ------------------------------------------------------------------------


def test_r_sub_4_contagion_is_left_to_the_engine() -> None:
    # The engine says it per Subscription (test_model_subscriptions); saying it here too would
    # make two findings with two wordings for one fact.
    subs = [sub("a", "Manual"), sub("b", "Automatic")]
    assert namespace_installplan_findings("team", subs, []) == []


# -- R-DOC-6 shared InstallPlans -----------------------------------------------------------


def test_seed_004_pending_plan_carrying_two_operators_is_a_shared_plan_warning() -> None:
    subs = [
        sub("a", "Manual", installed="a.v1", plan="install-1"),
        sub("b", "Manual", installed="b.v1", plan="install-1"),
    ]
    ip = plan("install-1", [("a.v2", "a.v1"), ("b.v2", "b.v1")])
    findings = namespace_installplan_findings("team", subs, [ip])
    assert [(f.severity, f.code, f.name) for f in findings] == [
        ("warning", "SharedInstallPlan", "install-1"),
        ("info", "InstallPlanRequiresApproval", "install-1"),
    ]
    assert "a: a.v2; b: b.v2" in findings[0].message
    assert "approving it upgrades all of them at once" in findings[0].message
    assert "a.v2 replacing a.v1" in findings[1].message


def test_seed_004_completed_shared_plan_still_referenced_is_info() -> None:
    subs = [
        sub("a", installed="a.v2", plan="install-1"),
        sub("b", installed="b.v2", plan="install-1"),
    ]
    ip = plan("install-1", [("a.v2", "a.v1"), ("b.v2", "b.v1")], phase="Complete", approved=True)
    (finding,) = namespace_installplan_findings("team", subs, [ip])
    assert (finding.severity, finding.code) == ("info", "SharedInstallPlan")


def test_seed_004_old_plans_nobody_references_are_history() -> None:
    subs = [
        sub("a", installed="a.v2", plan="install-2"),
        sub("b", installed="b.v2", plan="install-2"),
    ]
    old = plan("install-1", [("a.v2", "a.v1"), ("b.v2", "b.v1")], phase="Complete", approved=True)
    assert namespace_installplan_findings("team", subs, [old]) == []


# -- R-IP-2 pending approvals -----------------------------------------------------------------


def test_r_ip_2_pending_approvals_across_namespaces() -> None:
    ips = [
        plan("install-z", [("b.v2", "b.v1")]),
        plan("install-a", [("a.v2", "a.v1")], ns="alpha"),
        plan("install-done", [("c.v2", "c.v1")], phase="Installing", approved=True),
    ]
    subs = [sub("b", installed="b.v1"), sub("a", installed="a.v1", ns="alpha")]
    assert pending_approvals(ips, subs) == [
        PendingApproval(
            "alpha", "install-a", (PlannedCSV("a.v2", None, None, "a.v1", "olm/cat"),), ("a",)
        ),
        PendingApproval(
            "team", "install-z", (PlannedCSV("b.v2", None, None, "b.v1", "olm/cat"),), ("b",)
        ),
    ]


def test_r_ip_2_approved_plan_in_requires_approval_is_not_pending() -> None:
    # OLM moves it to Installing on its next sync (R-IP-2).
    assert pending_approvals([plan("install-1", [("a.v2", None)], approved=True)]) == []


# -- a failed InstallPlan's error, whose fault, and the remedy per state ----------


def test_plan_error_is_the_installed_condition_message_as_olm_copies_it() -> None:
    """R-SUB-5: the Installed condition's message, else status.message."""
    failed = {
        "status": {
            "phase": "Failed",
            "message": "short",
            "conditions": [{"type": "Installed", "status": "False", "message": "long"}],
        }
    }
    assert plan_error(failed) == "long"
    assert plan_error({"status": {"message": "short"}}) == "short"


def test_the_empty_owner_reference_api_version_is_an_olm_defect() -> None:
    said = 'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty'
    assert "OLM defect" in olm_defect(said)
    assert olm_defect("exceeded quota") == ""
