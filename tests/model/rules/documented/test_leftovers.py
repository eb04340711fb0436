"""Leftovers (R-DOC-14, R-DOC-15) and the findings on what a resolution failure names
(R-SUB-7): when they are said, when they are not (an upgrade under way, the release payload's
CSV, copies, objects the source could not read)."""

from __future__ import annotations

from typing import Any

from model_builders import copy_of, install_plan, subscription
from model_builders import csv as make_csv

from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.model.records.types import Finding
from olmtui.model.rules.documented.leftovers import csv_package
from olmtui.store import Store, Unreadable


def sub(name: str, package: str = "pkg", **status: Any) -> dict[str, Any]:
    return subscription("a", name, package=package, source_ns="a", status=status)


def findings(*objs: dict[str, Any], unreadable: dict[str, Unreadable] | None = None):
    store = Store()
    store.apply_many(list(objs))
    for kind, why in (unreadable or {}).items():
        store.set_unreadable(kind, why)
    return merged_findings(health=health_findings(store), unreadable=store.unreadable)


def codes(found: list[Finding], code: str) -> list[tuple[str, str]]:
    return [(f.severity, f.name) for f in found if f.code == code]


def test_an_unreferenced_csv_is_info_and_copies_upgrades_and_payload_are_not() -> None:
    old = make_csv("a", "pkg.v1", phase="Replacing")
    new = make_csv("a", "pkg.v2", replaces="pkg.v1")
    payload = make_csv("a", "packageserver")
    payload["metadata"]["annotations"] = {"include.release.openshift.io/self-managed": "true"}
    olm_ns = make_csv("openshift-operator-lifecycle-manager", "packageserver")
    copied = copy_of(make_csv("b", "other.v1"), "a")
    elsewhere = sub("other", "other-pkg")
    elsewhere["metadata"]["namespace"] = "z"  # Subscriptions were read: none is in "a"
    found = findings(old, new, payload, olm_ns, copied, make_csv("a", "lone.v1"), elsewhere)
    assert codes(found, "UnreferencedCSV") == [("info", "lone.v1"), ("info", "pkg.v2")]


def test_a_source_without_subscriptions_judges_no_csv_unreferenced() -> None:
    """R-DOC-14: a snapshot holding no Subscription at all may simply have left the kind
    out; unknown is not absent."""
    assert not codes(findings(make_csv("a", "lone.v1")), "UnreferencedCSV")


def test_a_subscription_for_the_package_makes_it_a_warning() -> None:
    left = make_csv("a", "pkg.v1")
    left["metadata"]["labels"] = {"operators.coreos.com/pkg.a": ""}
    assert csv_package(left) == "pkg"
    found = findings(left, sub("s"))
    assert codes(found, "UnreferencedCSV") == [("warning", "pkg.v1")]
    # currentCSV counts: OLM sets installedCSV once the CSV exists (R-SUB-1).
    assert not codes(findings(left, sub("s", currentCSV="pkg.v1")), "UnreferencedCSV")


def test_installed_csv_gone() -> None:
    gone = sub("s", installedCSV="pkg.v1", currentCSV="pkg.v1", state="AtLatestKnown")
    assert codes(findings(gone), "InstalledCSVGone") == [("warning", "s")]
    moving = sub("s", installedCSV="pkg.v1", currentCSV="pkg.v2", state="UpgradePending")
    assert not codes(findings(moving, make_csv("a", "pkg.v2")), "InstalledCSVGone")
    # R-SUB-6: with its plan gone while UpgradePending, OLM starts over by itself.
    plan_gone = sub(
        "s",
        installedCSV="pkg.v1",
        currentCSV="pkg.v1",
        state="UpgradePending",
        installPlanRef={"name": "p1", "namespace": "a", "kind": "InstallPlan"},
    )
    found = findings(plan_gone, plan("other", "Complete", owner=None))
    assert codes(found, "InstalledCSVGone") == [("info", "s")]
    (known,) = [f for f in found if f.code == "InstalledCSVGone"]
    assert "is gone too and the state" in known.message
    # without any InstallPlan in the input, whether p1 is gone is unknown (R-SUB-6)
    (unknown,) = [f for f in findings(plan_gone) if f.code == "InstalledCSVGone"]
    assert unknown.severity == "info" and "holds no InstallPlans" in unknown.message
    assert "is gone too and the state" not in unknown.message


def test_unread_kinds_prove_nothing() -> None:
    lost = {
        "ClusterServiceVersion": Unreadable("clusterserviceversions", "forbidden", 0.0),
        "Subscription": Unreadable("subscriptions", "forbidden", 0.0),
    }
    gone = sub("s", installedCSV="pkg.v1", currentCSV="pkg.v1", state="AtLatestKnown")
    found = findings(gone, make_csv("a", "lone.v1"), unreadable=lost)
    assert not codes(found, "InstalledCSVGone") and not codes(found, "UnreferencedCSV")


def plan(name: str, phase: str, owner: str | None = "s") -> dict[str, Any]:
    return install_plan("a", name, phase, True, approval="Automatic", owner=owner)


def test_installplans_piling_up() -> None:
    two = findings(plan("p1", "Failed"), plan("p2", "Failed"))
    assert not codes(two, "InstallPlansFailingAgain")
    three = findings(plan("p1", "Failed"), plan("p2", "Failed"), plan("p3", "Failed"))
    assert codes(three, "InstallPlansFailingAgain") == [("warning", "s")]
    five = findings(*(plan(f"p{i}", "Complete", None) for i in range(5)))
    assert not codes(five, "InstallPlansPilingUp")
    six = findings(*(plan(f"p{i}", "Complete", None) for i in range(6)))
    assert codes(six, "InstallPlansPilingUp") == [("warning", "a")]


def test_a_clause_about_a_catalog_source_lands_on_it_only_when_it_exists() -> None:
    message = (
        "constraints not satisfiable: no operators found from catalog cat in namespace a "
        "referenced by subscription s, subscription s exists"
    )
    condition = {
        "type": "ResolutionFailed",
        "status": "True",
        "reason": "ConstraintsNotSatisfiable",
        "message": message,
    }
    failing = sub("s", conditions=[condition])
    assert not codes(findings(failing), "ResolutionCatalogEmpty")
    source = {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "CatalogSource",
        "metadata": {"name": "cat", "namespace": "a"},
        "spec": {"sourceType": "grpc"},
    }
    assert codes(findings(failing, source), "ResolutionCatalogEmpty") == [("warning", "cat")]


def test_an_orphan_clause_is_dropped_once_a_subscription_references_the_csv() -> None:
    message = (
        "constraints not satisfiable: clusterserviceversion pkg.v1 exists and is not "
        "referenced by a subscription, @existing/a//pkg.v1 and cat/a/stable/pkg.v2 originate "
        "from package pkg, subscription t exists, subscription t requires cat/a/stable/pkg.v2"
    )
    condition = {
        "type": "ResolutionFailed",
        "status": "True",
        "reason": "ConstraintsNotSatisfiable",
        "message": message,
    }
    failing = sub("t", conditions=[condition])
    csv = make_csv("a", "pkg.v1")
    assert codes(findings(failing, csv), "ResolutionOrphanedCSV") == [("error", "pkg.v1")]
    # The orphan clause speaks for the CSV: no second finding about the same leftover.
    assert not codes(findings(failing, csv), "UnreferencedCSV")
    adopted = sub("s", installedCSV="pkg.v1", currentCSV="pkg.v1", state="AtLatestKnown")
    assert not codes(findings(failing, adopted, csv), "ResolutionOrphanedCSV")
