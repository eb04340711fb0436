"""The merge of findings with unreadable kinds (``olmtui.model.rules.input.access``), on the real
Azure must-gather: a kind the source may not read leaves no finding that rests on its absence,
and one LiveNoAccess warning per kind instead."""

from __future__ import annotations

import time

from live_support import must_gather_objects

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.model.records.types import Finding
from olmtui.model.viewmodels.views import change_entries
from olmtui.store import ACCESS, Change, Store, Unreadable


def _azure(skip_kind: str) -> Store:
    """The must-gather as a cache that could not read ``skip_kind``."""
    store = Store()
    store.apply_many(o for o in must_gather_objects() if o.get("kind") != skip_kind)
    return store


def _findings(store: Store, unreadable: dict[str, Unreadable] | None) -> list[Finding]:
    model = Model(store)
    return merged_findings(
        model=model.findings(),
        health=health_findings(store, (), model.subscriptions()),
        unreadable=unreadable,
    )


def test_r_mem_1_no_operator_group_is_not_concluded_from_unreadable_groups():
    store = _azure("OperatorGroup")
    blind = {f.code for f in _findings(store, None)}
    assert "NoOperatorGroup" in blind  # what the empty cache alone would say (R-MEM-1)
    assert "SubscriptionStalled" in blind  # R-SUB-9 with no group
    told = _findings(store, {"OperatorGroup": Unreadable("operatorgroups", "403", 0.0)})
    codes = {f.code for f in told}
    assert not {"NoOperatorGroup", "SubscriptionStalled"} & codes
    warning = [f for f in told if f.code == "LiveNoAccess"]
    assert [(f.kind, f.name, f.severity) for f in warning] == [
        ("OperatorGroup", "operatorgroups", "warning")
    ]
    assert "not re-checked" not in warning[0].message  # a one-shot read names no period
    assert "asks again" not in warning[0].message


def test_r_api_6_csv_findings_stay_when_only_install_plans_are_unreadable():
    """Unreadable InstallPlans take nothing from the group and CSV findings."""
    store = _azure("InstallPlan")
    blind = _findings(store, None)
    assert {"StaticProvidedAPIs", "InstallPlanFailed"} <= {f.code for f in blind}
    told = _findings(store, {"InstallPlan": Unreadable("installplans", "403", 0.0, 60)})
    kept = [f for f in told if f.code != "LiveNoAccess"]
    # only the InstallPlanMissing olmtui derives (info) goes; OLM's own condition stays
    assert kept == [f for f in blind if f.code != "InstallPlanMissing" or f.severity == "error"]
    assert "asks again every 1 min" in next(f for f in told if f.code == "LiveNoAccess").message


def test_store_publishes_access_changes_and_keeps_since():
    store = Store()
    model = Model(store)
    seen: list = []
    store.subscribe(seen.extend)
    version = model.version
    first = Unreadable("clusterserviceversions", "403 one stream", time.time() - 60, 60)
    store.set_unreadable("ClusterServiceVersion", first)
    assert [(c.type, c.key.kind, c.key.name) for c in seen] == [
        ("ADDED", ACCESS, "ClusterServiceVersion")
    ]
    assert model.version > version, "the model re-derives on an access change"
    assert store.set_unreadable("ClusterServiceVersion", first) is None  # nothing new
    store.set_unreadable(
        "ClusterServiceVersion", Unreadable("clusterserviceversions", "403 both", time.time(), 60)
    )
    assert store.unreadable["ClusterServiceVersion"].since == first.since
    assert store.unreadable["ClusterServiceVersion"].reason == "403 both"
    store.set_unreadable("ClusterServiceVersion", None)
    assert [c.type for c in seen] == ["ADDED", "MODIFIED", "DELETED"]
    assert store.unreadable == {} and len(store) == 0


def test_change_log_tells_access_lost_and_given_back():
    store = Store()
    seen: list[Change] = []
    store.subscribe(seen.extend)
    store.set_unreadable("Subscription", Unreadable("subscriptions", "403 Forbidden", 0.0, 60))
    store.set_unreadable("Subscription", None)
    entries = change_entries(seen)
    assert [(e.what, e.ref.kind, e.severity) for e in entries] == [
        ("no access", "Subscription", "warning"),
        ("access back", "Subscription", "info"),
    ]
    assert "no access to subscriptions (RBAC): 403 Forbidden" in entries[0].message


def test_groups_unreadable_in_one_namespace_leave_the_others_findings():
    """A --namespace session forbidden to read OperatorGroups in one namespace: R-MEM-1 and
    R-SUB-9 rest on the groups of their own namespace and stay elsewhere; the copy findings
    (R-COPY-2 follows every group's targets) fall everywhere."""
    store = _azure("OperatorGroup")
    blind = _findings(store, None)
    lonely = sorted({f.namespace for f in blind if f.code == "NoOperatorGroup"})
    assert len(lonely) >= 2
    hidden = lonely[0]
    told = _findings(
        store, {"OperatorGroup": Unreadable("operatorgroups", "403", 0.0, namespaces=(hidden,))}
    )
    still = {f.namespace for f in told if f.code == "NoOperatorGroup"}
    assert still == set(lonely[1:])
    elsewhere = {"StaleCopiedCSV", "NamespaceLabelDrift"}
    assert elsewhere <= {f.code for f in blind}
    assert not elsewhere & {f.code for f in told}
    warning = next(f for f in told if f.code == "LiveNoAccess")
    assert f"no access to operatorgroups in {hidden} (RBAC)" in warning.message
