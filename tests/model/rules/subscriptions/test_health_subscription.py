"""Subscription conditions and state as findings (R-SUB-2, R-SUB-5..8, R-SUB-10, R-SUB-11)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from data_paths import TESTS
from model_builders import csv, install_plan, subscription

from olmtui.model.diagnosis.remedies import ObjectsContext, remedy_for
from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.installplans.summaries import (
    ConditionState,
    expected_subscription_condition,
)
from olmtui.model.rules.subscriptions.subscription_health import (
    namespace_subscription_findings,
    subscription_condition_findings,
)
from olmtui.store import Store

DATA = TESTS / "data" / "health"


def load(name: str) -> dict[str, Any]:
    return yaml.load((DATA / name).read_bytes(), Loader=yaml.CSafeLoader)


def sub(
    conditions: tuple[tuple[str, str, str, str], ...] = (),
    *,
    state: str | None = None,
    plan: str | None = None,
    catalog_health: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return subscription(
        "ns1",
        "etcd",
        package="etcd",
        channel="alpha",
        source="community",
        source_ns="olm",
        approval="Automatic",
        conditions=conditions,
        state=state,
        plan=plan,
        catalog_health=catalog_health,
    )


def plan(
    name: str = "install-abc",
    phase: str = "RequiresApproval",
    approved: bool = False,
    **status: Any,
) -> dict[str, Any]:
    return install_plan(
        "ns1",
        name,
        phase,
        approved,
        csvs=[("etcdoperator.v0.9.4", None)],
        lookups=False,
        status=status,
    )


# -- real must-gather objects ---------------------------------------------------------------


def test_r_sub_5_real_failed_installplan_gives_install_plan_failed_with_its_steps() -> None:
    findings = subscription_condition_findings(
        load("metal-sub-image-caching.yaml"), load("metal-ip-install-b8pzk.yaml")
    )
    assert [(f.severity, f.code, f.rule) for f in findings] == [
        ("error", "InstallPlanFailed", "R-SUB-5")
    ]
    message = findings[0].message
    assert "reason InstallComponentFailed" in message
    assert "metadata.ownerReferences.apiVersion: Invalid value" in message
    assert (
        "Role image-caching-operator.v0.0.1-image-caching-operator-86998f54f6 (Unknown)" in message
    )
    assert "not written" not in message
    assert findings[0].related == (ObjectRef("InstallPlan", "cfe-test-namespace", "install-b8pzk"),)


def test_r_sub_7_resolution_failed_false_and_complete_plan_give_no_finding() -> None:
    # metal: ResolutionFailed is present with status False, the plan is Complete.
    sub_obj = load("metal-sub-projectrequestlimits.yaml")
    assert any(c["type"] == "ResolutionFailed" for c in sub_obj["status"]["conditions"])
    assert subscription_condition_findings(sub_obj, load("metal-ip-install-4snvd.yaml")) == []


def test_r_sub_5_condition_without_message_takes_the_plans_installed_message() -> None:
    # vsphere (OCP 4.8) wrote InstallPlanFailed without a message.
    sub_obj = load("vsphere-sub-image-caching.yaml")
    failed = [c for c in sub_obj["status"]["conditions"] if c.get("type") == "InstallPlanFailed"]
    assert failed and "message" not in failed[0]
    (finding,) = subscription_condition_findings(sub_obj, load("vsphere-ip-install-tcnhq.yaml"))
    assert finding.code == "InstallPlanFailed"
    assert "error creating role" in finding.message


def test_r_sub_5_failed_plan_is_reported_before_olm_writes_the_condition() -> None:
    sub_obj = copy.deepcopy(load("metal-sub-image-caching.yaml"))
    sub_obj["status"]["conditions"] = []
    (finding,) = subscription_condition_findings(sub_obj, load("metal-ip-install-b8pzk.yaml"))
    assert finding.code == "InstallPlanFailed"
    assert "OLM has not written this condition yet" in finding.message


def test_r_sub_5_expected_condition_per_plan_phase() -> None:
    lookups = [
        {
            "identifier": "x",
            "conditions": [
                {
                    "type": "BundleLookupPending",
                    "status": "True",
                    "reason": "JobIncomplete",
                    "message": "unpack job not completed",
                }
            ],
        }
    ]
    assert expected_subscription_condition(plan(phase="")) == ConditionState(
        "InstallPlanPending", "True", "InstallPlanNotYetReconciled", None
    )
    assert expected_subscription_condition(
        plan(phase="Installing", bundleLookups=lookups)
    ) == ConditionState("InstallPlanPending", "True", "Installing", "unpack job not completed.")
    assert expected_subscription_condition(plan(phase="Complete")) is None
    failed = plan(
        phase="Failed",
        conditions=[
            {
                "type": "Installed",
                "status": "False",
                "reason": "InstallCheckFailed",
                "message": "boom",
            }
        ],
    )
    assert expected_subscription_condition(failed) == ConditionState(
        "InstallPlanFailed", "True", "InstallCheckFailed", "boom"
    )
    assert expected_subscription_condition(plan(phase="Failed")).reason == "InstallPlanFailed"


# -- conditions, one rule at a time -----------------------------------------------------------

CONSTRAINTS = (
    "constraints not satisfiable: no operators found in channel beta of package etcd in the "
    "catalog referenced by subscription etcd, subscription etcd exists"
)


@pytest.mark.parametrize(
    ("condition", "severity", "code", "rule"),
    [
        (
            ("ResolutionFailed", "True", "ConstraintsNotSatisfiable", CONSTRAINTS),
            "error",
            "ConstraintsNotSatisfiable",
            "R-SUB-7",
        ),
        (
            ("ResolutionFailed", "True", "ErrorPreventedResolution", "catalog unreachable"),
            "error",
            "ErrorPreventedResolution",
            "R-SUB-7",
        ),
        (("InstallPlanPending", "True", "Installing", ""), "info", "InstallPlanPending", "R-SUB-5"),
        (
            ("InstallPlanMissing", "True", "ReferencedInstallPlanNotFound", ""),
            "error",
            "InstallPlanMissing",
            "R-SUB-6",
        ),
        (
            (
                "CatalogSourcesUnhealthy",
                "True",
                "UnhealthyCatalogSourceFound",
                "targeted catalogsource olm/community unhealthy",
            ),
            "warning",
            "CatalogSourcesUnhealthy",
            "R-SUB-8",
        ),
        (
            (
                "CatalogSourcesUnhealthy",
                "True",
                "NoCatalogSourcesFound",
                "dependency resolution requires at least one catalogsource",
            ),
            "error",
            "NoCatalogSourcesFound",
            "R-SUB-8",
        ),
        (
            ("BundleUnpacking", "True", "UnpackingInProgress", "unpacking"),
            "info",
            "BundleUnpacking",
            "R-SUB-11",
        ),
        (
            (
                "BundleUnpackFailed",
                "True",
                "BundleUnpackFailed",
                "Bundle unpacking failed - DeadlineExceeded: Job was active longer than deadline",
            ),
            "error",
            "BundleUnpackFailed",
            "R-SUB-11",
        ),
        (
            ("PackageDeprecated", "True", "Deprecated", "etcd is end of life"),
            "warning",
            "PackageDeprecated",
            "R-SUB-10",
        ),
        (
            ("ChannelDeprecated", "True", "Deprecated", "use stable"),
            "warning",
            "ChannelDeprecated",
            "R-SUB-10",
        ),
        (
            ("BundleDeprecated", "True", "Deprecated", "0.9.4 has a CVE"),
            "warning",
            "BundleDeprecated",
            "R-SUB-10",
        ),
    ],
    ids=lambda v: v[0] + "-" + v[2] if isinstance(v, tuple) else None,
)
def test_r_sub_condition_table(
    condition: tuple[str, str, str, str],
    severity: str,
    code: str,
    rule: str,
) -> None:
    (finding,) = subscription_condition_findings(sub((condition,)))
    assert (finding.severity, finding.code, finding.rule) == (severity, code, rule)
    assert (finding.kind, finding.namespace, finding.name) == ("Subscription", "ns1", "etcd")
    if condition[3]:
        assert condition[3] in finding.message


@pytest.mark.parametrize(
    "kind",
    [
        "ResolutionFailed",
        "InstallPlanPending",
        "InstallPlanFailed",
        "InstallPlanMissing",
        "CatalogSourcesUnhealthy",
        "BundleUnpacking",
        "BundleUnpackFailed",
        "Deprecated",
    ],
)
def test_r_sub_conditions_with_status_false_give_nothing(kind: str) -> None:
    assert subscription_condition_findings(sub(((kind, "False", "X", "y"),))) == []


def test_r_sub_7_resolution_failed_keeps_the_full_constraint_message() -> None:
    (finding,) = subscription_condition_findings(
        sub((("ResolutionFailed", "True", "ConstraintsNotSatisfiable", CONSTRAINTS),))
    )
    assert CONSTRAINTS in finding.message
    assert "package etcd, channel alpha, catalog olm/community" in finding.message


def test_r_sub_10_rollup_deprecated_only_when_no_specific_condition() -> None:
    rollup = ("Deprecated", "True", "Deprecated", "etcd is end of life; use stable")
    specific = ("PackageDeprecated", "True", "Deprecated", "etcd is end of life")
    assert [f.code for f in subscription_condition_findings(sub((rollup, specific)))] == [
        "PackageDeprecated"
    ]
    assert [f.code for f in subscription_condition_findings(sub((rollup,)))] == ["Deprecated"]


def test_r_sub_8_unhealthy_catalogs_named_from_catalog_health() -> None:
    health = [
        {"catalogSourceRef": {"name": "community", "namespace": "olm"}, "healthy": False},
        {"catalogSourceRef": {"name": "other", "namespace": "olm"}, "healthy": True},
    ]
    (finding,) = subscription_condition_findings(
        sub(
            (("CatalogSourcesUnhealthy", "True", "UnhealthyCatalogSourceFound", "x"),),
            catalog_health=health,
        )
    )
    assert finding.related == (ObjectRef("CatalogSource", "olm", "community"),)
    assert "olm/community" in finding.message


# -- state and the referenced InstallPlan -----------------------------------------------------


def test_r_sub_2_upgrade_pending_with_unapproved_plan_is_one_warning() -> None:
    pending = ("InstallPlanPending", "True", "RequiresApproval", "")
    findings = subscription_condition_findings(
        sub((pending,), state="UpgradePending", plan="install-abc"), plan()
    )
    assert [(f.severity, f.code) for f in findings] == [("warning", "UpgradePending")]
    assert "etcdoperator.v0.9.4" in findings[0].message
    assert "oc patch installplan install-abc -n ns1" in findings[0].message


def test_r_sub_2_upgrade_pending_found_from_the_plan_without_the_condition() -> None:
    findings = subscription_condition_findings(
        sub(state="UpgradePending", plan="install-abc"), plan()
    )
    assert [f.code for f in findings] == ["UpgradePending"]


def test_r_sub_2_approved_plan_is_not_waiting() -> None:
    findings = subscription_condition_findings(
        sub(state="UpgradePending", plan="install-abc"), plan(phase="Installing", approved=True)
    )
    assert [(f.severity, f.code) for f in findings] == [("info", "InstallPlanPending")]


def test_r_upg_8_upgrade_failed_state_is_an_error() -> None:
    findings = subscription_condition_findings(sub(state="UpgradeFailed"))
    assert [(f.severity, f.code, f.rule) for f in findings] == [
        ("error", "UpgradeFailed", "R-UPG-8")
    ]


def test_r_sub_6_missing_plan_while_upgrade_pending_resolves_again() -> None:
    findings = subscription_condition_findings(sub(state="UpgradePending", plan="install-gone"))
    assert [(f.severity, f.code) for f in findings] == [("info", "InstallPlanMissing")]


def test_r_sub_6_missing_plan_after_install_is_an_error() -> None:
    findings = subscription_condition_findings(sub(state="AtLatestKnown", plan="install-gone"))
    assert [(f.severity, f.code, f.rule) for f in findings] == [
        ("error", "InstallPlanMissing", "R-SUB-6")
    ]
    assert "install-gone" in findings[0].message


def test_r_sub_6_missing_plan_not_reported_when_plans_were_not_collected() -> None:
    assert (
        subscription_condition_findings(
            sub(state="AtLatestKnown", plan="install-gone"), install_plans_known=False
        )
        == []
    )


def test_r_sub_5_whole_real_namespace_gives_the_one_failed_plan() -> None:
    subs = [load("metal-sub-image-caching.yaml"), load("metal-sub-projectrequestlimits.yaml")]
    ips = [load("metal-ip-install-4snvd.yaml"), load("metal-ip-install-b8pzk.yaml")]
    findings = namespace_subscription_findings("cfe-test-namespace", subs, ips)
    assert [(f.code, f.name) for f in findings] == [
        ("InstallPlanFailed", "image-caching-operator-v0-0-1-sub")
    ]
    assert namespace_subscription_findings("other-namespace", subs, ips) == []


def test_r_sub_4_check_joins_conditions_and_contagion_once_each() -> None:
    # As `olmtui check` merges them: the conditions are the health rules', the contagion the
    # engine's, and neither appears twice.
    manual = copy.deepcopy(sub(state="UpgradeFailed"))
    manual["metadata"]["name"] = "manual-one"
    manual["spec"]["installPlanApproval"] = "Manual"
    store = Store()
    store.apply_many([sub(), manual])
    model = Model(store)
    findings = merged_findings(model=model.findings(), health=health_findings(store))
    found = [(f.severity, f.code, f.name) for f in findings]
    assert ("error", "UpgradeFailed", "manual-one") in found
    assert found.count(("warning", "ManualApprovalContagion", "etcd")) == 1
    keys = [(f.code, f.kind, f.namespace, f.name) for f in findings]
    assert len(keys) == len(set(keys))
    assert namespace_subscription_findings("ns1", [sub(), manual], []) == [
        f for f in findings if f.code == "UpgradeFailed"
    ]


# -- the remedy for a failed InstallPlan is the one that works in the state seen ----

OWNER_REF_ERROR = (
    'error creating role r: Role.rbac.authorization.k8s.io "r" is invalid: '
    'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty'
)


def _failed(message: str = "quota exceeded") -> dict[str, Any]:
    return plan(
        phase="Failed",
        conditions=[
            {
                "type": "Installed",
                "status": "False",
                "reason": "InstallComponentFailed",
                "message": message,
            }
        ],
    )


def _csv(phase: str, reason: str) -> dict[str, Any]:
    return csv("ns1", "etcdoperator.v0.9.4", bare=True, version=None, phase=phase, reason=reason)


def _plan_failed(
    subscription: dict[str, Any], csvs: list[dict[str, Any]], message: str = "x"
) -> tuple[Finding, list[str]]:
    """The InstallPlanFailed finding, and its remedy's steps as ``action object`` lines."""
    failed = _failed(message)
    found = namespace_subscription_findings("ns1", [subscription], [failed], csvs)
    (finding,) = [f for f in found if f.code == "InstallPlanFailed"]
    remedy = remedy_for(finding, ObjectsContext([subscription, failed, *csvs]))
    assert remedy is not None
    return finding, [f"{s.action} {s.object}" for s in remedy.steps]


def test_upgrade_pending_without_the_csv_deleting_the_plan_resolves_again() -> None:
    """R-SUB-6: in UpgradePending OLM clears a missing plan's reference and resolves again."""
    finding, steps = _plan_failed(sub(state="UpgradePending", plan="install-abc"), [])
    assert "OLM does not retry a Failed InstallPlan (R-IP-3)" in finding.message
    assert steps == [
        "other InstallPlan ns1/install-abc",
        "delete InstallPlan ns1/install-abc",
        "wait None",
    ]


def test_at_latest_known_with_the_csv_the_subscription_and_csv_go() -> None:
    """AtLatestKnown with its CSV present: deleting the plan only gives
    InstallPlanMissing (R-SUB-6); delete the Subscription and the CSV, create it again."""
    subscription = sub(state="AtLatestKnown", plan="install-abc")
    subscription["status"]["installedCSV"] = "etcdoperator.v0.9.4"
    finding, steps = _plan_failed(subscription, [_csv("Pending", "RequirementsNotMet")])
    assert steps == [
        "other InstallPlan ns1/install-abc",
        "delete Subscription ns1/etcd",
        "delete ClusterServiceVersion ns1/etcdoperator.v0.9.4",
        "create Subscription ns1/etcd",
    ]
    assert "It left CSV etcdoperator.v0.9.4 (Pending/RequirementsNotMet) behind" in finding.message
    assert ObjectRef("ClusterServiceVersion", "ns1", "etcdoperator.v0.9.4") in finding.related
    assert "OLM defect" not in finding.message


def test_an_olm_defect_is_said_and_a_manual_namespace_waits_for_approval() -> None:
    subscription = sub(state="AtLatestKnown", plan="install-abc")
    subscription["spec"]["installPlanApproval"] = "Manual"
    finding, steps = _plan_failed(
        subscription, [_csv("Pending", "RequirementsNotMet")], OWNER_REF_ERROR
    )
    assert "This error comes from OLM itself" in finding.message
    assert steps == [
        "delete Subscription ns1/etcd",
        "delete ClusterServiceVersion ns1/etcdoperator.v0.9.4",
        "create Subscription ns1/etcd",
        "wait None",
        "upgrade-cluster None",
    ]


def test_install_plan_missing_with_a_stuck_csv_deletes_the_csv_too() -> None:
    subscription = sub(
        (("InstallPlanMissing", "True", "ReferencedInstallPlanNotFound", ""),),
        state="AtLatestKnown",
        plan="install-gone",
    )
    subscription["status"]["installedCSV"] = "etcdoperator.v0.9.4"
    stuck = _csv("Pending", "RequirementsNotMet")
    found = namespace_subscription_findings("ns1", [subscription], [], [stuck])
    (finding,) = [f for f in found if f.code == "InstallPlanMissing"]
    remedy = remedy_for(finding, ObjectsContext([subscription, stuck]))
    assert remedy is not None
    assert [str(s.object) for s in remedy.steps] == [
        "Subscription ns1/etcd",
        "ClusterServiceVersion ns1/etcdoperator.v0.9.4",
        "Subscription ns1/etcd",
    ]
