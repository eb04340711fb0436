"""Every installed CSV not Succeeded is a finding, its severity by phase and age."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from data_paths import DATA
from model_builders import csv, deployment
from model_builders import operator_condition as condition

from olmtui.model.incremental.health import health_findings
from olmtui.model.rules.csvs.csv_phase_findings import csv_phase_findings
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

NOW = dt.datetime(2024, 1, 1, 12, 0, tzinfo=dt.UTC)


def make_csv(name: str, phase: str, reason: str = "", minutes: int = 1, **extra: Any) -> dict:
    since = (NOW - dt.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
    replaces = extra.pop("replaces", None)
    return csv(
        "ns",
        name,
        bare=True,
        version=None,
        phase=phase,
        reason=reason,
        spec={"replaces": replaces},
        status={"message": f"{phase} message", "lastTransitionTime": since, **extra},
    )


REQUIREMENTS = [
    {"kind": "CustomResourceDefinition", "name": "a.example.com", "status": "Present"},
    {"kind": "CustomResourceDefinition", "name": "b.example.com", "status": "NotPresent"},
    {
        "kind": "ServiceAccount",
        "name": "op-sa",
        "status": "PresentNotSatisfied",
        "dependents": [
            {"kind": "PolicyRule", "status": "NotSatisfied", "message": "cluster rule: nodes"},
            {"kind": "PolicyRule", "status": "Satisfied", "message": "fine"},
        ],
    },
]


@pytest.mark.parametrize(
    ("obj", "severity", "rule", "words"),
    [
        (
            make_csv("x", "Failed", "InstallCheckFailed"),
            "error",
            "R-CSV-F",
            ["Failed/InstallCheckFailed"],
        ),
        (make_csv("x", "Failed", "ComponentUnhealthy"), "error", "R-CSV-F", ["ComponentUnhealthy"]),
        (
            make_csv("x", "Pending", "RequirementsNotMet", requirementStatus=REQUIREMENTS),
            "info",
            "R-CSV-P",
            ["b.example.com: NotPresent", "ServiceAccount op-sa", "cluster rule: nodes"],
        ),
        (
            make_csv("x", "Pending", "RequirementsNotMet", 11, requirementStatus=REQUIREMENTS),
            "error",
            "R-CSV-P",
            ["for 11m 0s"],
        ),
        (make_csv("x", "Installing", "InstallWaiting", 2), "info", "R-CSV-I", ["for 2m 0s"]),
        (make_csv("x", "Installing", "InstallWaiting", 10), "warning", "R-CSV-I", ["for 10m 0s"]),
        (make_csv("x", "Installing", "InstallWaiting", 30), "error", "R-CSV-I", ["for 30m 0s"]),
        (make_csv("x", "InstallReady", "", 5), "info", "R-CSV-IR", []),
        (make_csv("x", "InstallReady", "", 12), "warning", "R-CSV-IR", []),
        (make_csv("x", "Replacing", "BeingReplaced"), "info", "R-CSV-R", ["y replaces it"]),
        (make_csv("x", "Replacing", "BeingReplaced", 45), "warning", "R-CSV-R", ["45m 0s"]),
        (make_csv("x", "Deleting", "Replaced"), "info", "R-CSV-D", ["OLM deletes it"]),
    ],
)
def test_one_finding_per_phase(obj: dict, severity: str, rule: str, words: list[str]) -> None:
    successor = make_csv("y", "Succeeded", replaces="x")
    (found,) = csv_phase_findings("ns", {"x": obj, "y": successor}, now=NOW)
    assert (found.severity, found.rule, found.name) == (severity, rule, "x")
    for word in words:
        assert word in found.message
    assert "a.example.com" not in found.message


def test_succeeded_and_group_reasons_are_left_alone() -> None:
    csvs = {
        "ok": make_csv("ok", "Succeeded"),
        "og": make_csv("og", "Failed", "TooManyOperatorGroups"),
        "conflict": make_csv("conflict", "Failed", "InterOperatorGroupOwnerConflict"),
    }
    assert csv_phase_findings("ns", csvs, now=NOW) == []


def test_copied_csvs_give_no_finding() -> None:
    store = Store()
    copy = make_csv("x", "Failed", "Copied")
    copy["metadata"]["labels"] = {"olm.copiedFrom": "operators"}
    store.apply("ADDED", copy)
    assert [f for f in health_findings(store) if f.code.startswith("CSV")] == []


def test_without_a_clock_the_age_is_a_lower_bound_from_the_namespace() -> None:
    old = make_csv("x", "Installing", "InstallWaiting", 40)
    newer = make_csv("y", "Succeeded", minutes=0)
    (found,) = csv_phase_findings("ns", {"x": old, "y": newer})
    assert found.severity == "error"
    assert (
        "for at least 40m 0s" in found.message
        and "snapshot was taken then or later" in found.message
    )
    unknown = make_csv("x", "Installing", "InstallWaiting")
    del unknown["status"]["lastTransitionTime"]
    (found,) = csv_phase_findings("ns", {"x": unknown}, now=NOW)
    assert found.severity == "warning" and "for how long is unknown" in found.message


def test_must_gather_image_caching_operator_pending_after_its_plan_failed_is_an_error() -> None:
    store = Store()
    load_snapshot([str(DATA / "must-gather/must-gather-clean/must-gather-azure")], store)
    found = {(f.code, f.name): f for f in health_findings(store) if f.code.startswith("CSV")}
    assert sorted(found) == [
        ("CSVInstalling", "projectrequestlimits.v0.0.1"),
        ("CSVPending", "image-caching-operator.v0.0.1"),
    ]
    pending = found[("CSVPending", "image-caching-operator.v0.0.1")]
    assert pending.severity == "error"
    assert "ServiceAccount image-caching-operator-controller-manager" in pending.message
    assert "install-bfnbn" in pending.message
    assert "ownerReferences.apiVersion" in pending.message
    # the same OLM created the Roles of the other bundle's plan (install-p2fmw) in this
    # namespace: "an OLM defect" is not what the state shows
    assert "an OLM defect" not in pending.message and "install-p2fmw" in pending.message
    # Installing for a few minutes is news, not a problem.
    assert found[("CSVInstalling", "projectrequestlimits.v0.0.1")].severity == "info"


def test_a_csv_olm_has_not_reported_on_yet_is_news_not_a_warning() -> None:
    """No status at all: nothing shows the CSV has waited (the demo's freshly created CSVs)."""
    fresh = {"kind": "ClusterServiceVersion", "metadata": {"namespace": "ns", "name": "x"}}
    (found,) = csv_phase_findings("ns", {"x": fresh}, now=NOW)
    assert (found.severity, found.rule, found.code) == ("info", "R-CSV-N", "CSVNoPhase")
    assert "has not written a status" in found.message
    waited = make_csv("x", "", minutes=31)
    (found,) = csv_phase_findings("ns", {"x": waited}, now=NOW)
    assert (found.severity, found.rule) == ("error", "R-CSV-N")


WAITING = 'installing: waiting for deployment op to become ready: deployment "op" not available'


def test_installing_names_the_deployment_it_waits_for_and_what_it_says() -> None:
    """R-CSV-I: the Deployment from OLM's message, and from the Deployment when present."""
    obj = make_csv("x", "Installing", "InstallWaiting", 40)
    obj["status"]["message"] = WAITING
    (found,) = csv_phase_findings(
        "ns", {"x": obj}, deployments={"op": deployment("ns", "op")}, now=NOW
    )
    assert found.severity == "error"
    assert "Deployment op has 0/1 replicas available" in found.message
    assert "Available=False (MinimumReplicasUnavailable" in found.message
    (found,) = csv_phase_findings("ns", {"x": obj}, now=NOW)
    assert "Deployment op is not in the input" in found.message


def test_a_failed_install_check_names_the_deployment_from_its_condition_history() -> None:
    """R-CSV-H: the InstallWaiting message stays in the conditions after InstallCheckFailed."""
    obj = make_csv("x", "Failed", "InstallCheckFailed", conditions=[{"message": WAITING}])
    obj["status"]["message"] = "install timeout"
    (found,) = csv_phase_findings("ns", {"x": obj}, now=NOW)
    assert "Deployment op is not in the input" in found.message


def test_a_zero_age_in_a_snapshot_is_not_at_least_0s() -> None:
    obj = make_csv("x", "Installing", "InstallWaiting", 0)
    (found,) = csv_phase_findings("ns", {"x": obj})
    assert "at least 0s" not in found.message
    assert "for how long is unknown" in found.message
    assert found.severity == "info"
    (found,) = csv_phase_findings("ns", {"x": obj}, now=NOW)
    assert "(just now)" in found.message


def test_a_live_clock_gives_the_age_not_a_lower_bound() -> None:
    obj = make_csv("x", "Installing", "InstallWaiting", 12)
    (found,) = csv_phase_findings("ns", {"x": obj}, now=NOW)
    assert "for 12m 0s (since" in found.message and "at least" not in found.message
    assert found.severity == "warning"


@pytest.mark.parametrize(
    ("status_value", "override", "held_by"),
    [
        ("False", None, "Busy: wait"),
        ("True", None, None),
        ("False", "True", None),  # R-CSV-P 1: spec.overrides win
        ("True", "False", "Forced: admin"),
        (None, None, None),
    ],
)
def test_r_csv_p_an_operator_condition_holds_the_upgrade(
    status_value: str | None, override: str | None, held_by: str | None
) -> None:
    old = make_csv("x.v1", "Replacing", "BeingReplaced")
    new = make_csv("x.v2", "Pending", "RequirementsUnknown", replaces="x.v1")
    sub = {
        "kind": "Subscription",
        "metadata": {"namespace": "ns", "name": "s"},
        "status": {"installedCSV": "x.v2", "currentCSV": "x.v2"},
    }
    found = csv_phase_findings(
        "ns",
        {"x.v1": old, "x.v2": new},
        subs=[sub],
        conditions={"x.v1": condition("x.v1", status_value, override)},
        now=NOW,
    )
    held = {(f.kind, f.name, f.severity) for f in found if f.code == "UpgradeHeld"}
    if held_by is None:
        assert held == set()
        assert any(f.code == "CSVReplacing" for f in found)
        return
    assert held == {
        ("ClusterServiceVersion", "x.v2", "warning"),
        ("ClusterServiceVersion", "x.v1", "info"),
        ("Subscription", "s", "warning"),
    }
    assert all(held_by in f.message for f in found if f.code == "UpgradeHeld")
    # Nothing says x.v1 will be replaced while the upgrade is held.
    assert not [f for f in found if f.code in ("CSVReplacing", "CSVPending")]


def test_pending_with_nothing_unmet_asks_for_nothing_to_be_created() -> None:
    """A RequirementsNotMet CSV whose status lists no unmet entry has nothing missing to
    create again: no "create it again" advice, even after a Complete plan."""
    obj = make_csv("foo.v1", "Pending", "RequirementsNotMet", minutes=1)
    obj["status"]["requirementStatus"] = [
        {"group": "", "version": "v1", "kind": "ServiceAccount", "name": "foo", "status": "Present"}
    ]
    plan = {
        "kind": "InstallPlan",
        "metadata": {"name": "install-a", "namespace": "ns"},
        "spec": {"clusterServiceVersionNames": ["foo.v1"]},
        "status": {"phase": "Complete"},
    }
    [finding] = csv_phase_findings("ns", {"foo.v1": obj}, [plan], now=NOW)
    assert "lists no unmet entry" in finding.message
    assert "checks them again at its next sync" in finding.message
    assert "create it again" not in finding.message
