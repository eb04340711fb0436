"""Remedies as plans of steps: a plan per family of findings, the wrong
remedies refused (R-DOC-14, R-UPG-8, R-CSV-P, R-DOC-5, "an OLM defect"), every code the
rules emit planned or said to need nothing, and every plan's changes well formed."""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest
import yaml
from check_runs import MUST_GATHERS, run_check
from data_paths import DATA, ROOT
from model_builders import ABSENT, csv, failed_plan, operator_group, subscription

from olmtui.model.diagnosis.remedies import PLANS, ObjectsContext, has_plan, remedy_for
from olmtui.model.diagnosis.remedies.steps import patch
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.csvs.csv_phase_findings import csv_phase_findings
from olmtui.model.rules.documented.leftovers import csv_package
from olmtui.model.rules.subscriptions.subscription_health import namespace_subscription_findings
from olmtui.objects import meta, spec

NS = "ops"
PROPS = '{"properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"%s"}}]}'


def etcd_csv(name: str, phase: str, reason: str = "", version: str = "0.9.4", **extra: Any) -> dict:
    """An etcd CSV in ``NS`` whose properties name its ``version``; ``extra`` are status fields
    (``spec``: spec fields)."""
    return csv(
        NS,
        name,
        bare=True,
        version=None,
        phase=phase,
        reason=reason,
        annotations={"operatorframework.io/properties": PROPS % version},
        spec=extra.pop("spec", None),
        status=extra,
    )


def sub(state: str, installed: str | None = None, plan: str | None = "p2") -> dict:
    return subscription(
        NS,
        "etcd",
        package="etcd",
        channel="alpha",
        source="community",
        source_ns=ABSENT,
        state=state or None,
        installed=installed,
        current=installed,
        plan=plan,
    )


def etcd_plan(name: str = "p2", csvs: tuple[str, ...] = ("etcd.v2",), error: str = "boom") -> dict:
    return failed_plan(NS, name, csvs, message=error, created="2026-01-01T00:00:00Z")


def group(fail_forward: bool = False) -> dict:
    return operator_group(
        NS, "og", upgrade="TechPreviewUnsafeFailForward" if fail_forward else None
    )


def finding(
    code: str,
    kind: str,
    name: str,
    *,
    rule: str = "",
    related: tuple[ObjectRef, ...] = (),
    message: str = "",
) -> Finding:
    return Finding("error", code, kind, NS, name, message or code, rule, related)


def steps_of(remedy: Remedy | None) -> list[str]:
    assert remedy is not None
    return [f"{s.action} {s.object}" for s in remedy.steps]


# -- the state changes a plan makes, applied in order (what the simulation will do) ---------


def apply_and_check(remedy: Remedy, objects: list[dict]) -> None:
    """Apply the plan's changes to a copy of ``objects``, failing on a change that names an
    object not there, a field that is no dotted path, or a Subscription created while a CSV
    of its package stays in the namespace (R-DOC-14: it would never resolve)."""
    state = {(o["kind"], meta(o).get("namespace") or "", meta(o).get("name")): o for o in objects}
    for step in remedy.steps:
        for change in step.changes:
            key = (change.target.kind, change.target.namespace, change.target.name)
            assert step.action == change.action, step
            if change.action == "create":
                assert change.body is not None and change.body["kind"] == change.target.kind
                assert meta(change.body)["name"] == change.target.name
                assert key not in state, f"{key} created while it still exists"
                if change.target.kind == "Subscription":
                    package = spec(change.body)["name"]
                    left = [
                        k
                        for k, o in state.items()
                        if k[0] == "ClusterServiceVersion"
                        and k[1] == key[1]
                        and csv_package(o) == package
                    ]
                    assert not left, f"Subscription created while {left} stay (R-DOC-14)"
                state[key] = dict(change.body)
                continue
            assert key in state, f"{change.action} of {key}, which is not in the state"
            if change.action == "delete":
                del state[key]
            elif change.action == "approve":
                assert change.target.kind == "InstallPlan"
            else:
                assert change.field and re.fullmatch(
                    r"(spec|metadata|status)(\.[^.\s]+)+", change.field
                )
        if step.command is not None:
            assert step.command.startswith(("oc ", "echo ")), step.command


# -- the wrong remedies, fixed ---------------------------------------------------------------


def test_a_reinstall_deletes_the_older_csv_of_the_package_first_and_keeps_its_version() -> None:
    """R-DOC-14: a new Subscription never adopts the older CSV; left in place it blocks
    resolution ("clusterserviceversion X exists and is not referenced by a subscription")."""
    old = etcd_csv("etcd.v1", "Replacing", version="0.9.2")
    new = etcd_csv("etcd.v2", "Pending", "RequirementsNotMet")
    subscription = sub("AtLatestKnown", "etcd.v2")
    objects = [group(), old, new, subscription, etcd_plan()]
    found = namespace_subscription_findings(NS, [subscription], [objects[-1]], [old, new])
    (failed,) = [f for f in found if f.code == "InstallPlanFailed"]
    remedy = remedy_for(failed, ObjectsContext(objects))
    assert steps_of(remedy) == [
        "other InstallPlan ops/p2",
        "delete Subscription ops/etcd",
        "delete ClusterServiceVersion ops/etcd.v1",
        "delete ClusterServiceVersion ops/etcd.v2",
        "create Subscription ops/etcd",
    ]
    assert remedy is not None
    assert "exists and is not referenced by a subscription" in remedy.steps[2].text
    created = remedy.steps[-1].changes[0].body
    assert created is not None and created["spec"]["startingCSV"] == "etcd.v1"
    apply_and_check(remedy, objects)


def test_the_wrong_reinstall_is_refused_by_the_check() -> None:
    """The check above fails on the old advice: recreate the Subscription, the older CSV left."""
    old = etcd_csv("etcd.v1", "Succeeded")
    bad = Remedy((patch(ObjectRef("Subscription", NS, "etcd"), "spec.channel", "alpha", "x"),))
    apply_and_check(bad, [old, sub("AtLatestKnown", "etcd.v1")])
    from olmtui.model.diagnosis.remedies.steps import create, delete

    body = {
        "kind": "Subscription",
        "metadata": {"name": "etcd", "namespace": NS},
        "spec": {"name": "etcd"},
    }
    wrong = Remedy(
        (
            delete(ObjectRef("Subscription", NS, "etcd"), "x"),
            create(ObjectRef("Subscription", NS, "etcd"), body, "x"),
        )
    )
    with pytest.raises(AssertionError, match="R-DOC-14"):
        apply_and_check(wrong, [old, sub("AtLatestKnown", "etcd.v1")])


@pytest.mark.parametrize("created", [False, True])
def test_under_fail_forward_deleting_the_failed_plan_is_the_remedy(created: bool) -> None:
    """R-UPG-8, R-OG-9: OLM goes UpgradePending and resolves again; no reinstall."""
    subscription = sub("UpgradeFailed", "etcd.v1")
    objects = [
        group(fail_forward=True),
        etcd_csv("etcd.v1", "Replacing"),
        subscription,
        etcd_plan(),
    ]
    if created:
        objects.append(etcd_csv("etcd.v2", "Failed", "InstallComponentFailed"))
    found = namespace_subscription_findings(
        NS,
        [subscription],
        [objects[3]],
        [o for o in objects if o["kind"] == "ClusterServiceVersion"],
    )
    upgrade_failed = [f for f in found if f.code == "UpgradeFailed"]
    assert upgrade_failed and "does not help" not in upgrade_failed[0].message
    for f in found:
        if f.code in ("UpgradeFailed", "InstallPlanFailed"):
            remedy = remedy_for(f, ObjectsContext(objects))
            assert steps_of(remedy)[1:3] == ["delete InstallPlan ops/p2", "wait None"]
            assert "Subscription" not in " ".join(steps_of(remedy))
            assert remedy is not None
            apply_and_check(remedy, objects)


def test_a_csv_pending_on_min_kube_version_needs_a_newer_cluster() -> None:
    """R-CSV-P: never "something was deleted after the install"."""
    too_new = etcd_csv(
        "etcd.v2",
        "Pending",
        "RequirementsNotMet",
        spec={"minKubeVersion": "1.99.0"},
        requirementStatus=[
            {
                "group": "operators.coreos.com",
                "kind": "ClusterServiceVersion",
                "name": "etcd.v2",
                "status": "PresentNotSatisfied",
                "message": "CSV version requirement not met: minKubeVersion (1.99.0) > "
                "server version (1.27.0)",
            }
        ],
    )
    complete = etcd_plan()
    complete["status"]["phase"] = "Complete"
    (pending,) = csv_phase_findings(NS, {"etcd.v2": too_new}, [complete], [])
    assert "deleted" not in pending.message and "minKubeVersion (1.99.0)" in pending.message
    remedy = remedy_for(pending, ObjectsContext([too_new, complete]))
    assert remedy is not None and remedy.steps[0].action == "upgrade-cluster"
    assert all(not s.changes for s in remedy.steps)


def test_a_dropped_stored_version_names_the_crd_stored_versions_before_the_retry() -> None:
    """R-DOC-5: the cause is status.storedVersions, not only "retry"."""
    error = (
        'error updating CRD: risk of data loss updating "etcdclusters.etcd.database.coreos.com": '
        "new CRD removes version v1beta1 that is listed as a stored version on the existing CRD"
    )
    crd = {
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "etcdclusters.etcd.database.coreos.com"},
        "status": {"storedVersions": ["v1beta1", "v1"]},
    }
    subscription = sub("UpgradePending")
    plan = etcd_plan(error=error)
    objects = [group(), subscription, plan, crd]
    found = namespace_subscription_findings(NS, [subscription], [plan], [])
    (failed,) = [f for f in found if f.code == "InstallPlanFailed"]
    remedy = remedy_for(failed, ObjectsContext(objects))
    assert remedy is not None
    cause = remedy.steps[0]
    assert "status.storedVersions" in cause.text and cause.object == ObjectRef(
        "CustomResourceDefinition", "", crd["metadata"]["name"]
    )
    assert (
        cause.command is not None
        and "--subresource=status" in cause.command
        and '["v1"]' in cause.command
    )
    assert steps_of(remedy)[1:] == ["delete InstallPlan ops/p2", "wait None"]


OWNER_REF = (
    'error creating role r: Role "r" is invalid: metadata.ownerReferences.apiVersion: '
    'Invalid value: "": version must not be empty'
)


def test_an_olm_defect_is_claimed_only_when_no_other_plan_shows_olm_doing_it_right() -> None:
    subscription = sub("UpgradePending")
    plan = etcd_plan(error=OWNER_REF)
    alone = namespace_subscription_findings(NS, [subscription], [plan], [])
    (failed,) = [f for f in alone if f.code == "InstallPlanFailed"]
    assert "an OLM defect" in failed.message
    assert (
        steps_of(remedy_for(failed, ObjectsContext([subscription, plan])))[-1]
        == "upgrade-cluster None"
    )
    fine = etcd_plan("p1", ("other.v1",))
    fine["status"] = {
        "phase": "Complete",
        "plan": [{"resource": {"kind": "Role", "name": "x"}, "status": "Created"}],
    }
    both = namespace_subscription_findings(NS, [subscription], [plan, fine], [])
    (failed,) = [f for f in both if f.code == "InstallPlanFailed"]
    assert "an OLM defect" not in failed.message and "p1" in failed.message
    remedy = remedy_for(failed, ObjectsContext([subscription, plan, fine]))
    assert "upgrade-cluster None" not in steps_of(remedy)


@pytest.mark.parametrize("gather", ["azure", "metal", "vsphere"])
def test_the_real_must_gathers_do_not_claim_an_olm_defect(gather: str) -> None:
    """The same OLM created the other bundle's Roles in cfe-test-namespace."""
    _, report = run_check([str(MUST_GATHERS / f"must-gather-{gather}")])
    failing = [f for f in report["findings"] if f["severity"] == "error"]
    assert failing
    for f in failing:
        assert "an OLM defect" not in f["message"]
        steps = (f["remedy"] or {}).get("steps") or []
        assert all(s["action"] != "upgrade-cluster" for s in steps)
        assert f["remedy"] is None or f["remedy"]["verified"] == "not-simulated"


# -- plan families -----------------------------------------------------------------------------


def test_a_plan_waiting_for_approval_is_reviewed_then_approved() -> None:
    plan = etcd_plan()
    plan["status"] = {"phase": "RequiresApproval"}
    plan["spec"]["approved"] = False
    remedy = remedy_for(
        finding("InstallPlanRequiresApproval", "InstallPlan", "p2"), ObjectsContext([plan])
    )
    assert steps_of(remedy) == ["other InstallPlan ops/p2", "approve InstallPlan ops/p2"]
    assert remedy is not None
    assert (
        remedy.steps[1].command
        == 'oc patch installplan p2 -n ops --type merge -p \'{"spec":{"approved":true}}\''
    )
    apply_and_check(remedy, [plan])


def test_a_missing_plan_heals_itself_while_upgrade_pending() -> None:
    missing = finding("InstallPlanMissing", "Subscription", "etcd")
    assert remedy_for(missing, ObjectsContext([sub("UpgradePending")])) is None
    stuck = [sub("AtLatestKnown", "etcd.v1"), etcd_csv("etcd.v1", "Succeeded")]
    remedy = remedy_for(missing, ObjectsContext(stuck))
    assert steps_of(remedy) == [
        "delete Subscription ops/etcd",
        "delete ClusterServiceVersion ops/etcd.v1",
        "create Subscription ops/etcd",
    ]
    assert remedy is not None
    apply_and_check(remedy, stuck)


def test_an_unreferenced_csv_is_deleted_and_the_subscription_then_installs() -> None:
    objects = [etcd_csv("etcd.v1", "Succeeded"), sub("", plan=None)]
    remedy = remedy_for(
        finding("UnreferencedCSV", "ClusterServiceVersion", "etcd.v1"), ObjectsContext(objects)
    )
    assert steps_of(remedy) == [
        "delete ClusterServiceVersion ops/etcd.v1",
        "wait Subscription ops/etcd",
    ]
    assert remedy is not None
    apply_and_check(remedy, objects)


def test_extra_operator_groups_are_deleted_but_one() -> None:
    first = {
        "kind": "OperatorGroup",
        "metadata": {"name": "a", "namespace": NS, "creationTimestamp": "2026-01-01T00:00:00Z"},
    }
    second = {
        "kind": "OperatorGroup",
        "metadata": {"name": "b", "namespace": NS, "creationTimestamp": "2026-02-01T00:00:00Z"},
    }
    many = Finding("error", "MultipleOperatorGroupsFound", "Namespace", "", NS, "x", "R-OG-6")
    remedy = remedy_for(many, ObjectsContext([first, second]))
    assert steps_of(remedy) == ["delete OperatorGroup ops/b"]
    assert remedy is not None
    apply_and_check(remedy, [first, second])


def test_waiting_phases_and_news_need_nothing() -> None:
    for code in (
        "CSVInstalling",
        "CSVReplacing",
        "BeingReplaced",
        "UpgradeAvailable",
        "NamespacesInferred",
    ):
        assert (
            code in PLANS
            and remedy_for(finding(code, "ClusterServiceVersion", "x"), ObjectsContext([])) is None
        )
    # a CSV phase OLM may invent is planned by its rule
    assert has_plan("CSVSomethingNew", "R-CSV-I")


def test_commands_quote_what_came_from_the_cluster() -> None:
    step = patch(ObjectRef("Subscription", NS, "a'b;rm -rf"), "spec.channel", "x'y", "t")
    assert (
        step.command == "oc patch subscription 'a'\"'\"'b;rm -rf' -n ops --type merge "
        '-p \'{"spec":{"channel":"x\'"\'"\'y"}}\''
    )
    assert step.changes[0].field == "spec.channel" and step.changes[0].value == "x'y"
    removal = patch(ObjectRef("Subscription", NS, "s"), "spec.startingCSV", None, "t")
    assert removal.changes[0].value == "" and '"startingCSV":null' in (removal.command or "")


# -- every code the rules emit has a plan, or an explicit "nothing to do" --------------------

_SEVERITIES = {"error", "warning", "info"}
_SCANNED = ("olmtui/model", "olmtui/sources")


def _emitted_codes() -> set[str]:
    """Literal codes at every place a finding is made: ``Finding(sev, "Code", ...)``, a
    builder's ``add("sev", "Code", ...)``, and OLM's verdict reasons ``Verdict(phase, "R")``."""
    codes = set()
    for part in _SCANNED:
        for path in (ROOT / part).rglob("*.py"):
            if "diagnosis" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call) or len(node.args) < 2:
                    continue
                first, second = node.args[0], node.args[1]
                if not (isinstance(second, ast.Constant) and isinstance(second.value, str)):
                    continue
                if not re.fullmatch(r"[A-Z][A-Za-z0-9]+", second.value):
                    continue
                name = (
                    node.func.id
                    if isinstance(node.func, ast.Name)
                    else getattr(node.func, "attr", "")
                )
                severity = isinstance(first, ast.Constant) and first.value in _SEVERITIES
                if (
                    severity
                    or name in ("Finding", "Verdict")
                    or (name == "add" and isinstance(first, ast.Name))
                ):
                    codes.add(second.value)
    return codes


def _expected_codes() -> set[str]:
    """Codes the triage and resolution cases expect (OLM's own reasons among them)."""
    codes = set()
    for path in list((DATA / "triage").glob("*/expect.yaml")) + list(
        (DATA / "resolution").glob("*/expect.yaml")
    ):
        codes |= set(re.findall(r"code: ([A-Z][A-Za-z]+)", path.read_text()))
    return codes


def test_every_code_the_rules_emit_has_a_plan_or_says_nothing_to_do() -> None:
    emitted = _emitted_codes()
    assert {
        "InstallPlanFailed",
        "UnreferencedCSV",
        "TooManyOperatorGroups",
        "MalformedObject",
    } <= emitted
    unplanned = sorted(c for c in emitted | _expected_codes() if c not in PLANS)
    assert unplanned == []


TRIAGE = sorted(p.name for p in (DATA / "triage").iterdir() if (p / "cluster.yaml").exists())


@pytest.mark.parametrize("case", TRIAGE)
def test_every_triage_finding_is_planned_and_its_changes_are_well_formed(case: str) -> None:
    path = DATA / "triage" / case / "cluster.yaml"
    _, report = run_check([str(path)])
    objects = [
        d for d in yaml.safe_load_all(path.read_text()) if isinstance(d, dict) and d.get("kind")
    ]
    objects = [o for d in objects for o in (d.get("items") or [d])]
    context = ObjectsContext(objects)
    for f in report["findings"]:
        assert has_plan(f["code"], f["rule"]), f["code"]
        record = Finding(
            f["severity"],
            f["code"],
            f["kind"] or "",
            f["namespace"] or "",
            f["name"] or "",
            f["message"],
            f["rule"],
            tuple(ObjectRef(r["kind"], r["namespace"] or "", r["name"]) for r in f["related"]),
        )
        remedy = remedy_for(record, context)
        if remedy is not None:
            assert (
                remedy.steps
                and remedy.verified == "not-simulated"
                and remedy.missing == "not simulated"
            )
            apply_and_check(remedy, objects)


# -- where a plan shows ------------------------------------------------------------------------


def test_text_and_markdown_number_the_steps_and_show_each_command_whole() -> None:
    import contextlib
    import io

    from olmtui.cli import main
    from olmtui.report.markdown_report import command_span

    for output, command in (
        ("text", "           $ oc delete operatorgroup keycloak-og -n team-b"),
        ("markdown", "     ` oc delete operatorgroup keycloak-og -n team-b `"),
    ):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["check", "--sample", "--output", output])
        lines = out.getvalue().splitlines()
        assert command in lines
        assert any(line.strip().startswith("1. Delete OperatorGroup keycloak-og") for line in lines)
    # a backtick in a command cannot close its span; control characters are shown escaped
    assert command_span("echo `id`\x1b[2J") == "`` echo `id`\\x1b[2J ``"
