"""The screens' pure derivations (olmtui/model/viewmodels/views.py): who watches a namespace, the
ClusterRoles of an OperatorGroup (R-OG-8) and the change log."""

from __future__ import annotations

import copy

from model_builders import csv, install_plan, model_of, namespace, operator_group

from olmtui.model.viewmodels.views import (
    api_hash,
    change_entries,
    cluster_role_name,
    group_cluster_roles,
    namespace_summaries,
    watching_groups,
)
from olmtui.store import Store

ETCD = (("EtcdCluster", "v1beta2", "etcdclusters.etcd.database.coreos.com"),)


def test_r_og_8_cluster_role_names_match_olm_check_values():
    base = "olm.og.operator-group-1"
    assert (
        cluster_role_name("operator-ns", "operator-group-1", "admin")
        == f"{base}.admin-8rdAjL0E35JMMAkOqYmoorzjpIIihfnj3DcgDU"
    )
    assert (
        cluster_role_name("operator-ns", "operator-group-1", "edit")
        == f"{base}.edit-9lBEUxqAYE7CX7wZfFEPYutTfQTo43WarB08od"
    )
    assert (
        cluster_role_name("operator-ns", "operator-group-1", "view")
        == f"{base}.view-1l6ymczPK5SceF4d0DCtAnWZuvmKn6s8oBUxHr"
    )


def test_r_og_8_long_group_name_is_truncated_to_253_characters():
    name = cluster_role_name("ns", "g" * 300, "admin")
    assert len(name) == 253
    assert name.startswith("olm.og.ggg")
    suffix = name.rsplit(".", 1)[1]
    assert suffix == cluster_role_name("ns", "g" * 300, "admin").rsplit(".", 1)[1]
    assert suffix.startswith("admin-") and len(suffix) > len("admin-") + 30


def test_api_label_hash_is_fnv1a_64_of_kind_version_group():
    assert api_hash("Ghost.v1alpha1.ghouls") == "6435ab0d7c6bda64"
    assert api_hash("c1.v1.fake.api.group") == "9f4c46c37bdff8d0"


def test_r_og_8_roles_aggregate_annotation_and_member_apis_sorted_by_label():
    model, _ = model_of(
        namespace("ops"),
        operator_group("ops", "og", apis="Ghost.v1alpha1.ghouls"),
        csv("ops", "etcd.v1", owned=ETCD, group="og", targets=""),
    )
    roles = group_cluster_roles(model.operator_group("ops", "og"), model.csvs())
    assert [r.suffix for r in roles] == ["admin", "edit", "view"]
    view = roles[2]
    assert {api for api, _ in view.aggregates} == {
        "Ghost.v1alpha1.ghouls",
        "EtcdCluster.v1beta2.etcd.database.coreos.com",
    }
    labels = [label for _, label in view.aggregates]
    assert labels == sorted(labels)
    assert "olm.opgroup.permissions/aggregate-to-6435ab0d7c6bda64-view" in labels
    assert "read only" in view.grants


def test_r_og_8_group_without_apis_has_no_aggregation():
    model, _ = model_of(namespace("ops"), operator_group("ops", "og"))
    roles = group_cluster_roles(model.operator_group("ops", "og"), model.csvs())
    assert all(r.aggregates == () for r in roles)


def test_namespace_is_watched_through_a_global_group_and_a_listed_target():
    model, _ = model_of(
        namespace("ops"),
        namespace("tenant"),
        namespace("other"),
        namespace("global"),
        operator_group("ops", "og", targets=["tenant"], status=["tenant"]),
        csv("ops", "tenant-op.v1", group="og", targets="tenant"),
        operator_group("global", "all", status=[""]),
        csv("global", "cluster-op.v1", group="all", targets=""),
    )
    groups = model.operator_groups()
    assert [g.name for g in watching_groups(groups, "tenant")] == ["all", "og"]
    assert [g.name for g in watching_groups(groups, "other")] == ["all"]
    summaries = {s.name: s for s in namespace_summaries(model.namespaces(), groups, model.csvs())}
    assert summaries["tenant"].watched_by == (
        ("global/cluster-op.v1", "global/all"),
        ("ops/tenant-op.v1", "ops/og"),
    )
    assert summaries["other"].watched_by == (("global/cluster-op.v1", "global/all"),)
    assert summaries["ops"].installed == ("tenant-op.v1",)
    assert summaries["ops"].groups == ("og",)


def _changes(*steps):
    store = Store()
    seen = []
    store.subscribe(seen.extend)
    for event, obj in steps:
        store.apply(event, obj)
    return change_entries(seen)


def test_change_log_tells_phase_transitions_and_conflicts_appearing_and_resolving():
    ok = csv("ns", "op.v1", group="og", targets="ns")
    conflict = copy.deepcopy(ok)
    conflict["status"] = {
        "phase": "Failed",
        "reason": "InterOperatorGroupOwnerConflict",
        "message": "intersecting operatorgroups provide the same apis",
    }
    entries = _changes(("ADDED", ok), ("MODIFIED", conflict), ("MODIFIED", ok))
    assert [e.what for e in entries] == [
        "CSV added",
        "phase",
        "conflict",
        "phase",
        "conflict resolved",
    ]
    assert entries[1].message.startswith("Succeeded -> Failed")
    assert entries[2].severity == "error"


def test_change_log_tells_new_install_plans_and_r_ip_2_approvals():
    plan = install_plan("ns", "install-1", "RequiresApproval", False)
    approved = copy.deepcopy(plan)
    approved["spec"]["approved"] = True
    entries = _changes(("ADDED", plan), ("MODIFIED", approved))
    assert [e.what for e in entries] == ["new InstallPlan", "approved"]
    assert "waiting for approval" in entries[0].message


def test_change_log_ignores_copied_csvs():
    copy_obj = csv("other", "op.v1")
    copy_obj["metadata"]["labels"] = {"olm.copiedFrom": "ns"}
    copy_obj["status"]["reason"] = "Copied"
    assert _changes(("ADDED", copy_obj)) == []


def test_a_relist_is_counted_not_listed_object_by_object():
    objs = [csv("ns", f"op{i}.v1") for i in range(30)]
    plan = install_plan("ns", "install-1", "RequiresApproval", False)
    store = Store()
    seen = []
    store.subscribe(seen.extend)
    store.apply_many([*objs, plan])
    entries = change_entries(seen)
    assert [(e.what, e.message) for e in entries] == [
        ("listed", "30 ClusterServiceVersion objects"),
        ("listed", "1 InstallPlan objects"),
    ]
