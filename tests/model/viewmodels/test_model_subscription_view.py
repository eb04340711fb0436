"""The Subscription's state and catalog as the screens show them (olmtui/model/viewmodels/views.py):
never OLM's state alone when the findings or OLM's own conditions contradict it (R-SUB-5..9),
and the CatalogSource's state beside OLM's CatalogSourcesUnhealthy (R-SUB-8)."""

from __future__ import annotations

from olmtui.model.records.types import Finding
from olmtui.model.rules.catalog.health import CatalogHealth
from olmtui.model.viewmodels.views import (
    findings_by_subject,
    subscription_catalog_view,
    subscription_state_view,
)

FAILED_PLAN = {"type": "InstallPlanFailed", "status": "True", "reason": "InstallComponentFailed"}


def sub_finding(code: str, severity: str = "error") -> Finding:
    return Finding(severity, code, "Subscription", "ops", "foo", "m", "R-SUB-5")  # type: ignore[arg-type]


def health(healthy: bool, state: str = "READY") -> CatalogHealth:
    return CatalogHealth("ops", "cat", "grpc", state, None, None, None, healthy, None)


def test_nothing_wrong_keeps_olms_state_unqualified():
    view = subscription_state_view("AtLatestKnown", [], [], "Succeeded")
    assert (view.text, view.severity, view.problems) == ("AtLatestKnown", None, ())


def test_r_sub_5_failed_plan_finding_qualifies_at_latest_known():
    view = subscription_state_view(
        "AtLatestKnown", [FAILED_PLAN], [sub_finding("InstallPlanFailed")]
    )
    assert view.text == "AtLatestKnown · InstallPlanFailed"
    assert view.severity == "error"


def test_r_sub_5_condition_counts_even_without_a_finding():
    # a finding dropped (e.g. the plan not readable) does not turn the state green
    view = subscription_state_view("AtLatestKnown", [FAILED_PLAN], [])
    assert view.problems == ("InstallPlanFailed",)
    assert view.severity == "error"


def test_a_condition_a_finding_names_by_reason_is_not_repeated():
    cond = {"type": "ResolutionFailed", "status": "True", "reason": "ConstraintsNotSatisfiable"}
    view = subscription_state_view(
        "AtLatestKnown", [cond], [sub_finding("ConstraintsNotSatisfiable")]
    )
    assert view.problems == ("ConstraintsNotSatisfiable",)


def test_false_conditions_and_info_findings_do_not_qualify_the_state():
    cond = {
        "type": "CatalogSourcesUnhealthy",
        "status": "False",
        "reason": "AllCatalogSourcesHealthy",
    }
    view = subscription_state_view(
        "AtLatestKnown", [cond], [sub_finding("UpgradeAvailable", "info")]
    )
    assert view.severity is None


def test_r_sub_9_stall_and_a_failed_csv_worst_first():
    view = subscription_state_view(
        "AtLatestKnown",
        [],
        [sub_finding("ManualApprovalContagion", "warning"), sub_finding("SubscriptionStalled")],
        "Failed",
    )
    assert view.problems == ("SubscriptionStalled", "CSV Failed", "ManualApprovalContagion")
    assert view.text == "AtLatestKnown · SubscriptionStalled · CSV Failed · +1 more"
    assert (
        view.label() == "AtLatestKnown · SubscriptionStalled · CSV Failed · ManualApprovalContagion"
    )


def test_csv_not_succeeded_takes_its_findings_severity_else_its_phase():
    young = Finding(
        "info", "CSVInstalling", "ClusterServiceVersion", "ops", "foo.v1", "m", "R-CSV-1"
    )
    assert (
        subscription_state_view("AtLatestKnown", [], [], "Installing", [young]).severity == "info"
    )
    assert subscription_state_view("AtLatestKnown", [], [], "Installing").severity == "warning"
    assert subscription_state_view("AtLatestKnown", [], [], "Failed").severity == "error"
    assert subscription_state_view("AtLatestKnown", [], [], None).severity is None  # no CSV record


def test_a_finding_that_repeats_the_state_is_not_a_second_word():
    view = subscription_state_view("UpgradePending", [], [sub_finding("UpgradePending", "warning")])
    assert view.text == "UpgradePending"


def test_findings_by_subject_keys_kind_namespace_name():
    a, b = sub_finding("A"), sub_finding("B")
    other = Finding("error", "C", "ClusterServiceVersion", "ops", "foo.v1", "m")
    assert findings_by_subject([a, other, b]) == {
        ("Subscription", "ops", "foo"): [a, b],
        ("ClusterServiceVersion", "ops", "foo.v1"): [other],
    }


UNHEALTHY = {
    "conditions": [
        {
            "type": "CatalogSourcesUnhealthy",
            "status": "True",
            "reason": "UnhealthyCatalogSourceFound",
            "message": "targeted catalogsource ops/cat unhealthy",
        }
    ]
}


def test_r_sub_8_ready_catalog_beside_olms_unhealthy_condition_says_both():
    view = subscription_catalog_view("ops/cat", health(True), UNHEALTHY)
    assert view.source == "ops/cat READY" and view.source_severity is None
    assert view.olm == (
        "CatalogSourcesUnhealthy=True UnhealthyCatalogSourceFound: "
        "targeted catalogsource ops/cat unhealthy"
    )
    assert view.olm_severity == "warning"
    assert "OLM's condition says otherwise" in view.note


def test_r_sub_8_another_unhealthy_catalog_is_named():
    status = {
        **UNHEALTHY,
        "catalogHealth": [
            {"catalogSourceRef": {"namespace": "ops", "name": "cat"}, "healthy": True},
            {"catalogSourceRef": {"namespace": "olm", "name": "broken"}, "healthy": False},
        ],
    }
    assert "olm/broken" in subscription_catalog_view("ops/cat", health(True), status).note


def test_r_sub_8_missing_and_unknown_catalogs():
    missing = subscription_catalog_view("ops/gone", None, UNHEALTHY)
    assert missing.source.startswith("ops/gone missing") and missing.source_severity == "error"
    unknown = subscription_catalog_view("ops/gone", None, {}, readable=False)
    assert "unknown" in unknown.source and "missing" not in unknown.source
    assert unknown.olm == "no CatalogSourcesUnhealthy condition written"


def test_r_sub_8_unhealthy_catalog_is_not_green():
    view = subscription_catalog_view("ops/cat", health(False, "TRANSIENT_FAILURE"), UNHEALTHY)
    assert view.source == "ops/cat TRANSIENT_FAILURE" and view.source_severity == "error"
    assert view.note == ""
