"""R-SUB-4 (Manual approval contagion) and R-SUB-9 (silent stalls), plus the Subscription
record's InstallPlan reference."""

from __future__ import annotations

from model_builders import (
    MODEL_DATA,
    codes,
    install_plan,
    load_all,
    model_of,
    namespace,
    operator_group,
    package_manifest,
    percona_csv,
    subscription,
)

from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.subscriptions.state import (
    approval,
    effective_approval,
    install_plan_name,
)


def test_r_sub_4_anything_but_manual_is_automatic():
    assert approval(subscription("n", "s")) == "Automatic"
    assert approval(subscription("n", "s", approval="")) == "Automatic"
    assert approval(subscription("n", "s", approval="manual")) == "Automatic"
    assert approval(subscription("n", "s", approval="Manual")) == "Manual"


def test_r_sub_4_one_manual_subscription_makes_the_namespace_manual():
    subs = [subscription("n", "a", approval="Automatic"), subscription("n", "b", approval="Manual")]
    assert effective_approval(subs) == "Manual"
    model, _ = model_of(namespace("n"), operator_group("n", "g", status=[""]), *subs)
    states = {s.name: s for s in model.subscriptions()}
    assert states["a"].approval == "Automatic" and states["a"].effective_approval == "Manual"
    contagion = [f for f in model.findings() if f.code == "ManualApprovalContagion"]
    assert [f.name for f in contagion] == ["a"]
    assert contagion[0].related[0].name == "b"


def _contagion(*subs: dict[str, object]) -> list[Finding]:
    model, _ = model_of(namespace("team"), operator_group("team", "g", status=[""]), *subs)
    return [f for f in model.findings() if f.code == "ManualApprovalContagion"]


def test_r_sub_4_automatic_subscriptions_beside_a_manual_one_work_as_manual():
    findings = _contagion(
        subscription("team", "a", approval="Manual"),
        subscription("team", "b", approval="Automatic"),
        subscription("team", "c"),
        subscription("other", "x"),
    )
    assert [(f.severity, f.code, f.name, f.rule) for f in findings] == [
        ("warning", "ManualApprovalContagion", "b", "R-SUB-4"),
        ("warning", "ManualApprovalContagion", "c", "R-SUB-4"),
    ]
    assert findings[0].related == (ObjectRef("Subscription", "team", "a"),)
    assert "Subscription a in namespace team asks for Manual" in findings[0].message


def test_r_sub_4_no_contagion_when_approvals_agree():
    assert _contagion(subscription("team", "a"), subscription("team", "b")) == []
    manual = [subscription("team", n, approval="Manual") for n in ("a", "b")]
    assert _contagion(*manual) == []


def test_r_sub_4_several_manual_subscriptions_are_all_named():
    (finding,) = _contagion(
        subscription("team", "m1", approval="Manual"),
        subscription("team", "m2", approval="Manual"),
        subscription("team", "auto"),
    )
    assert "Subscriptions m1, m2 in namespace team ask for Manual" in finding.message
    assert [r.name for r in finding.related] == ["m1", "m2"]


def test_r_sub_9_no_operator_group_stalls_silently():
    model, _ = model_of(namespace("n"), subscription("n", "s"))
    stalled = [f for f in model.findings() if f.code == "SubscriptionStalled"]
    assert len(stalled) == 1 and stalled[0].severity == "error"
    assert "no OperatorGroup" in stalled[0].message


def test_r_sub_9_several_operator_groups_stall():
    model, _ = model_of(
        namespace("n"),
        operator_group("n", "g1", status=[""]),
        operator_group("n", "g2", status=[""]),
        subscription("n", "s"),
    )
    stalled = next(f for f in model.findings() if f.code == "SubscriptionStalled")
    assert {r.name for r in stalled.related} == {"g1", "g2"}
    model, _ = model_of(
        namespace("n"), operator_group("n", "g1", status=[""]), subscription("n", "s")
    )
    assert "SubscriptionStalled" not in codes(model)


def test_install_plan_reference_is_looked_up():
    model, _ = model_of(
        namespace("n"),
        operator_group("n", "g", status=[""]),
        subscription("n", "s", plan="install-1"),
        install_plan("n", "install-1", "Complete", True),
        subscription("n", "t", plan="gone"),
        subscription("n", "u"),
    )
    states = {s.name: s for s in model.subscriptions()}
    assert (states["s"].install_plan.phase, states["s"].install_plan.approved) == ("Complete", True)
    assert states["t"].install_plan.name == "gone" and states["t"].install_plan.phase is None
    assert states["u"].install_plan is None


def test_real_subscription_fields():
    _, sub, plan = load_all(MODEL_DATA / "azure-image-caching.yaml")
    assert install_plan_name(sub) == ("cfe-test-namespace", "install-bfnbn")
    model, _ = model_of(
        namespace("cfe-test-namespace"),
        sub,
        plan,
        operator_group("cfe-test-namespace", "g", status=[""]),
    )
    state = model.subscriptions()[0]
    assert (state.package, state.channel, state.state) == (
        "image-caching-operator",
        "alpha",
        "AtLatestKnown",
    )
    assert state.installed_csv == state.current_csv == "image-caching-operator.v0.0.1"
    assert state.install_plan.name == "install-bfnbn"
    assert state.install_plan.phase == "Failed" and state.install_plan.approved is True
    assert state.starting_csv == "image-caching-operator.v0.0.1"


def test_r_im_1_preflight_of_the_channel_head_against_the_group():
    """R-IM-1 before the install, with the real percona installModes (typo included): only
    SingleNamespace."""
    modes = percona_csv()["spec"]["installModes"]
    pm = package_manifest("cat", "openshift-marketplace", "pkg", "percona.v1", modes)
    model, store = model_of(
        namespace("n"),
        operator_group("n", "g", targets=["n"], status=["n"]),
        subscription("n", "s"),
        pm,
    )
    found = next(f for f in model.findings() if f.code == "HeadInstallModeUnsupported")
    assert found.severity == "error" and "percona.v1" in found.message
    assert "OwnNamespace InstallModeType not supported" in found.message
    store.apply("MODIFIED", operator_group("n", "g", targets=["other"], status=["other"]))
    assert "HeadInstallModeUnsupported" not in codes(model)


def test_r_im_1_preflight_advice_is_concrete_and_spares_a_platform_group():
    """An AllNamespaces-only head: the advice names a global group; in a group the release
    payload owns (R-DOC-7) it never asks to change the group."""
    modes = [
        {"type": t, "supported": t == "AllNamespaces"}
        for t in ("OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces")
    ]
    pm = package_manifest("cat", "openshift-marketplace", "pkg", "all.v1", modes)
    group = operator_group("n", "g", targets=["n"], status=["n"])
    model, store = model_of(namespace("n"), group, subscription("n", "s"), pm)
    found = next(f for f in model.findings() if f.code == "HeadInstallModeUnsupported")
    assert "This CSV supports only AllNamespaces: install it in a global group" in found.message
    assert "openshift-operators" in found.message
    assert "change OperatorGroup n/g to that shape" in found.message
    group["metadata"]["annotations"] = {
        "include.release.openshift.io/self-managed-high-availability": "true"
    }
    store.apply("MODIFIED", group)
    found = next(f for f in model.findings() if f.code == "HeadInstallModeUnsupported")
    assert "not the admin's to change (R-DOC-7)" in found.message
    assert "change OperatorGroup" not in found.message and "change the group" not in found.message
