"""The demo scenario loads into a Store and a Model and yields exactly the facts it was
built to show, with status written as OLM writes it."""

from __future__ import annotations

from collections import Counter

import pytest

from olmtui.demo import objects as o
from olmtui.demo import scenario as s
from olmtui.model.incremental.engine import Model
from olmtui.model.rules.installplans.summaries import (
    namespace_installplan_findings,
    summarize_install_plan,
)
from olmtui.model.rules.upgrades.graph import upgrade_hook
from olmtui.store import COPIED_FROM_LABEL, Store


@pytest.fixture(scope="module")
def loaded() -> tuple[Store, Model]:
    store = Store()
    store.apply_many(s.build_scenario("2026-11-21T22:00:00Z").objects)
    return store, Model(store, upgrades=upgrade_hook([s.demo_catalog()]))


def _codes(model: Model) -> Counter[str]:
    return Counter(f.code for f in model.findings())


def test_r_api_5_one_tenant_csv_conflicts_with_the_global_group(loaded) -> None:
    _, model = loaded
    conflicts = [f for f in model.findings() if f.code == "InterOperatorGroupOwnerConflict"]
    assert [(f.namespace, f.name) for f in conflicts] == [(s.TEAM_B_OPERATORS, s.ETCD)]
    csv = model.csv(s.TEAM_B_OPERATORS, s.ETCD)
    assert csv is not None and csv.phase == "Failed"
    assert [c.operator_group for c in csv.conflicts] == [f"{s.GLOBAL_NS}/{s.GLOBAL_OG}"]
    assert "EtcdCluster.v1beta2.etcd.database.coreos.com" in csv.conflicts[0].apis
    assert csv.conflicts[0].namespaces == (s.TEAM_B, s.TEAM_B_OPERATORS)


def test_r_mem_2_one_namespace_has_two_operator_groups(loaded) -> None:
    _, model = loaded
    many = [f for f in model.findings() if f.code == "MultipleOperatorGroupsFound"]
    assert [f.name for f in many] == [s.TWO_GROUPS_NS]
    assert _codes(model)["TooManyOperatorGroups"] == 1
    csv = model.csv(s.TWO_GROUPS_NS, s.RABBITMQ_TOPOLOGY)
    assert csv is not None and csv.verdict is not None
    assert csv.verdict.reason == "TooManyOperatorGroups"


def test_r_sub_4_manual_subscription_makes_its_neighbour_manual(loaded) -> None:
    _, model = loaded
    contagion = [f for f in model.findings() if f.code == "ManualApprovalContagion"]
    assert [(f.namespace, f.name) for f in contagion] == [(s.TEAM_A_OPERATORS, s.RABBITMQ_SUB)]
    subs = {sub.ref: sub for sub in model.subscriptions()}
    neighbour = subs[f"{s.TEAM_A_OPERATORS}/{s.RABBITMQ_SUB}"]
    assert (neighbour.approval, neighbour.effective_approval) == ("Automatic", "Manual")


def test_r_ip_2_one_install_plan_waits_for_approval(loaded) -> None:
    store, model = loaded
    waiting = [
        p
        for p in (summarize_install_plan(ip) for ip in store.list("InstallPlan"))
        if p.waiting_for_approval
    ]
    assert [(p.namespace, p.name, p.csv_names) for p in waiting] == [
        (s.TEAM_A_OPERATORS, s.PENDING_PLAN, (s.KEYCLOAK_NEXT,))
    ]
    findings = namespace_installplan_findings(
        s.TEAM_A_OPERATORS, store.list("Subscription"), store.list("InstallPlan")
    )
    assert [f.name for f in findings if f.code == "InstallPlanRequiresApproval"] == [s.PENDING_PLAN]
    sub = next(
        x
        for x in model.subscriptions()
        if (x.namespace, x.name) == (s.TEAM_A_OPERATORS, s.KEYCLOAK_SUB)
    )
    assert sub.install_plan is not None
    assert (sub.install_plan.phase, sub.install_plan.approved) == ("RequiresApproval", False)
    assert (sub.state, sub.installed_csv, sub.current_csv) == (
        "UpgradePending",
        s.KEYCLOAK_OLD,
        s.KEYCLOAK_NEXT,
    )


def test_r_upg_5_keycloak_is_several_hops_behind_the_fast_head(loaded) -> None:
    _, model = loaded
    sub = next(
        x
        for x in model.subscriptions()
        if (x.namespace, x.name) == (s.TEAM_A_OPERATORS, s.KEYCLOAK_SUB)
    )
    assert sub.upgrade.graph == "catalog"
    assert sub.upgrade.head == s.KEYCLOAK_HEAD
    assert sub.upgrade.next == s.KEYCLOAK_NEXT
    assert sub.upgrade.path == (
        "keycloak-operator.v26.6.3",
        "keycloak-operator.v26.6.4",
        "keycloak-operator.v26.7.0",
        "keycloak-operator.v26.7.1",
    )
    assert {e.via for e in sub.upgrade.edges} == {"replaces"}
    at_head = [x for x in model.subscriptions() if x.ref != sub.ref and x.upgrade.next is not None]
    assert at_head == [], "only team-a's keycloak is behind"


def test_r_copy_3_global_operators_are_copied_everywhere_else(loaded) -> None:
    _, model = loaded
    copied = model.copied_csvs()
    assert (copied.missing, copied.stale) == ((), ())
    others = len(s.NAMESPACES) - 1
    assert len(s.NAMESPACES) >= 30
    # three global operators everywhere else, plus one copy per tenant operator.
    assert copied.present == 3 * others + 3
    assert model.copies_of(s.TEAM_A_OPERATORS, s.KEYCLOAK_OLD) == [s.TEAM_A]


def test_r_copy_4_copy_carries_source_status_with_reason_copied(loaded) -> None:
    store, _ = loaded
    source = store.get("ClusterServiceVersion", s.GLOBAL_NS, s.CERT_MANAGER)
    copy = store.get("ClusterServiceVersion", s.TEAM_A, s.CERT_MANAGER)
    assert source is not None and copy is not None
    assert copy["metadata"]["labels"][COPIED_FROM_LABEL] == s.GLOBAL_NS
    assert o.TARGETS_ANNOTATION not in copy["metadata"]["annotations"]
    assert copy["metadata"]["annotations"][o.GROUP_ANNOTATION] == s.GLOBAL_OG
    assert copy["status"]["phase"] == source["status"]["phase"] == "Succeeded"
    assert copy["status"]["reason"] == "Copied"
    assert copy["status"]["message"] == (
        "The operator is running in openshift-operators but is managing this namespace"
    )
    assert source["metadata"]["annotations"][o.TARGETS_ANNOTATION] == ""


def test_r_api_3_group_annotations_match_their_members(loaded) -> None:
    _, model = loaded
    for og in model.operator_groups():
        assert og.provided_apis == og.expected_provided_apis, og.ref
    global_og = model.operator_group(s.GLOBAL_NS, s.GLOBAL_OG)
    assert global_og is not None and global_og.target_namespaces == ("",)
    assert "EtcdCluster.v1beta2.etcd.database.coreos.com" in global_og.provided_apis


def test_r_og_5_target_namespaces_carry_the_group_uid_label(loaded) -> None:
    store, _ = loaded
    og = store.get("OperatorGroup", s.TEAM_A_OPERATORS, s.TEAM_A_OG)
    label = f"olm.operatorgroup.uid/{og['metadata']['uid']}"
    assert label in store.get("Namespace", "", s.TEAM_A)["metadata"]["labels"]
    assert label not in store.get("Namespace", "", s.TEAM_A_OPERATORS)["metadata"]["labels"]
    assert _codes(loaded[1])["NamespaceLabelDrift"] == 0


def test_catalog_sources_one_ready_one_failing(loaded) -> None:
    store, _ = loaded
    states = {
        c["metadata"]["name"]: c["status"]["connectionState"]["lastObservedState"]
        for c in store.list("CatalogSource")
    }
    assert states == {s.CATALOG: "READY", s.BROKEN_CATALOG: "TRANSIENT_FAILURE"}
    manifests = {p["metadata"]["name"]: p for p in store.list("PackageManifest")}
    assert sorted(manifests) == [
        "cert-manager",
        "etcd",
        "keycloak-operator",
        "node-healthcheck-operator",
        "rabbitmq-messaging-topology-operator",
    ]
    fast = next(
        c for c in manifests["keycloak-operator"]["status"]["channels"] if c["name"] == "fast"
    )
    assert fast["currentCSV"] == s.KEYCLOAK_HEAD
    assert fast["entries"][0]["name"] == s.KEYCLOAK_HEAD
