"""The pure builders behind ``:ip`` (``model.installplan_view``) and ``:xray``
(``model.xray``), on small objects shaped as OLM writes them."""

from __future__ import annotations

import datetime as dt

from model_builders import csv, install_plan, model_of, subscription

from olmtui.model.records.types import Finding, ObjectRef, StaleCopy
from olmtui.model.viewmodels.installplan_view import (
    age_of,
    approval_lines,
    install_plan_rows,
    plan_steps,
)
from olmtui.model.viewmodels.views import worst
from olmtui.model.viewmodels.xray import CopyFacts, copy_nodes, subscription_tree, unsubscribed

NS = "ops"


def _plan(phase: str, approved: bool, approval: str = "Manual") -> dict:
    ip = install_plan(NS, "install-abc", phase, approved)
    ip["spec"]["approval"] = approval
    ip["spec"]["clusterServiceVersionNames"] = ["foo.v2"]
    ip["metadata"]["creationTimestamp"] = "2024-05-01T10:00:00Z"
    ip["metadata"]["ownerReferences"] = [{"kind": "Subscription", "name": "foo"}]
    ip["status"]["plan"] = [
        {
            "resolving": "foo.v2",
            "resource": {"kind": "ClusterServiceVersion", "name": "foo.v2"},
            "status": "Created",
        },
        {"resolving": "foo.v2", "resource": {"kind": "Role", "name": "foo-role"}},
    ]
    return ip


def test_plan_steps_lists_every_step_with_unknown_for_no_status():
    steps = plan_steps(_plan("Failed", True))
    assert [(s.kind, s.name, s.status) for s in steps] == [
        ("ClusterServiceVersion", "foo.v2", "Created"),
        ("Role", "foo-role", "Unknown"),
    ]


def test_rows_are_coloured_by_phase_and_findings():
    failed = _plan("Failed", True)
    waiting = _plan("RequiresApproval", False)
    waiting["metadata"]["name"] = "install-wait"
    complete = _plan("Complete", True)
    complete["metadata"]["name"] = "install-done"
    info = Finding("info", "X", "InstallPlan", NS, "install-done", "m", rule="R-IP-3")
    rows = install_plan_rows(
        [waiting, complete, failed], {("InstallPlan", NS, "install-done"): [info]}
    )
    assert [(r.summary.name, r.severity) for r in rows] == [
        ("install-abc", "error"),
        ("install-done", "info"),
        ("install-wait", "warning"),
    ]
    assert worst([None, "info", "warning"]) == "warning"
    assert worst([None]) is None


def test_age_is_a_duration_with_a_clock_and_the_creation_time_without():
    ip = _plan("Complete", True)
    now = dt.datetime(2024, 5, 1, 13, 30, tzinfo=dt.UTC)
    assert age_of(ip, now) == "3h"  # the largest unit, as kubectl shows an old object
    assert age_of(ip, now - dt.timedelta(hours=3, minutes=29, seconds=15)) == "45s"
    assert age_of(ip, now - dt.timedelta(hours=4)) == "0s"  # a clock behind the creation
    assert age_of(ip, None) == "2024-05-01 10:00"


def test_approval_names_the_manual_subscription_that_makes_the_namespace_manual():
    ip = _plan("RequiresApproval", False)
    subs = [subscription(NS, "foo", package="foo"), subscription(NS, "bar", approval="Manual")]
    lines = approval_lines(ip, subs)
    assert lines[0] == (
        "Manual: Manual Subscriptions in ops: bar; one Manual Subscription makes every "
        "InstallPlan of its namespace Manual (R-SUB-4)"
    )
    assert lines[1] == "waiting for approval (R-IP-2): approving it installs foo.v2"


def test_approval_of_an_automatic_plan():
    lines = approval_lines(_plan("Complete", True, "Automatic"), [subscription(NS, "foo")])
    assert lines == [
        "Automatic: OLM approves it itself (no Subscription of the namespace is Manual)",
        "approved (spec.approved is true)",
    ]


def _operator():
    sub = subscription(NS, "foo", plan="install-abc", package="foo")
    sub["status"].update({"installedCSV": "foo.v2", "currentCSV": "foo.v2"})
    sub["status"]["state"] = "AtLatestKnown"
    the_csv = csv(
        NS,
        "foo.v2",
        phase="Pending",
        reason="RequirementsNotMet",
        owned=(("Foo", "v1", "foos.example.com"),),
        required=(("Bar", "v1", "bars.example.com"),),
    )
    the_csv["spec"]["install"] = {"spec": {"deployments": [{"name": "foo-operator"}]}}
    lone = csv("other", "lone.v1")
    return model_of(sub, the_csv, _plan("Failed", True), lone)


def test_xray_tree_follows_subscription_plan_csv_and_marks_findings():
    model, store = _operator()
    sub = model.subscriptions()[0]
    finding = Finding("error", "CSVPending", "ClusterServiceVersion", NS, "foo.v2", "m", "R-CSV-P")
    tree = subscription_tree(
        sub,
        model.csv(NS, "foo.v2"),
        store.get,
        {("ClusterServiceVersion", NS, "foo.v2"): [finding, finding]},
        CopyFacts(present=["a", "b"], missing=["c"]),
    )
    assert tree.label == "Subscription ops/foo: AtLatestKnown"
    (plan,) = tree.children
    assert (plan.label, plan.state, plan.ref) == (
        "InstallPlan install-abc: Failed",
        "Failed",
        ObjectRef("InstallPlan", NS, "install-abc"),
    )
    (node,) = plan.children
    assert (node.label, node.severity, node.codes) == (
        "CSV foo.v2: Pending (RequirementsNotMet)",
        "error",
        ("CSVPending",),
    )
    labels = [c.label for c in node.children]
    assert labels == [
        "Deployments (1)",
        "CRDs owned (1)",
        "CRDs required (1)",
        "2 copies, 1 missing",
    ]
    # absent from the cache is never "missing": a snapshot may not hold Deployments or CRDs
    assert node.children[0].children[0].label == "Deployment foo-operator: not in the cache"
    assert node.children[3].copies_of == ObjectRef("ClusterServiceVersion", NS, "foo.v2")
    assert not node.children[3].children  # filled only when opened


def test_copy_nodes_put_problems_first_and_cap_the_present():
    src = ObjectRef("ClusterServiceVersion", NS, "foo.v2")
    facts = CopyFacts(
        present=[f"ns{i}" for i in range(1000)],
        missing=["gone"],
        stale=[StaleCopy("old", "foo.v2", NS, "spec differs")],
    )
    held = {("ns0", "foo.v2"): {"status": {"phase": "Failed"}}}
    nodes = copy_nodes(src, facts, lambda _k, ns, name: held.get((ns, name)), cap=5)
    assert [(n.label, n.state) for n in nodes[:4]] == [
        ("missing in gone", "Missing"),
        ("stale in old: spec differs", None),
        ("copy in ns0: Failed", "Failed"),
        ("copy in ns1: -", None),
    ]
    assert len(nodes) == 2 + 5 + 1
    assert nodes[-1].label == "… and 995 more copies"


def test_csvs_without_a_subscription_are_their_own_roots():
    model, _ = _operator()
    assert [c.name for c in unsubscribed(model.subscriptions(), model.csvs())] == ["lone.v1"]
