"""``olmtui check`` proves each remedy on the state before it offers it: the
JSON says ``simulated`` with what the trial showed, or ``not-simulated`` with what was missing,
or, for a remedy the trial refused, what would happen instead; the text and Markdown say the
same and do not offer a refused remedy's commands. The states are OLM's own resolver tests
(``tests/data/resolution``) changed as OLM leaves a cluster after a failed InstallPlan, the
wrong remedies those OLM's documentation and bug reports warn of (R-DOC-14, R-SUB-6)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from model_builders import failed_plan
from report_records import validate_report
from simulation_support import (
    FAIL_FORWARD,
    ORPHAN,
    catalog_specs,
    find,
    fixture_objects,
    references_plan,
)

from olmtui.cli import main
from olmtui.model.records.diagnosis import Change, Remedy, Step
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.report import json_report

Obj = dict[str, Any]


def _snapshot(objects: list[Obj], tmp_path: Path) -> Path:
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml.safe_dump_all(objects, sort_keys=False))
    return path


def _check(path: Path, catalogs: list[str], output: str) -> str:
    args = ["check", str(path)]
    for spec in catalogs:
        args += ["--catalog", spec]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main([*args, "--output", output])
    assert status == 1  # an error stands in every state here
    return out.getvalue()


def _json(path: Path, catalogs: list[str]) -> dict[str, Any]:
    report = json.loads(_check(path, catalogs, "json"))
    validate_report(report)
    return report


def _remedy(report: dict[str, Any], code: str, name: str) -> dict[str, Any]:
    found = [f for f in report["findings"] if f["code"] == code and f["name"] == name]
    assert len(found) == 1, found
    remedy: dict[str, Any] = found[0]["remedy"]
    return remedy


def _etcd_upgrade_failed(tmp_path: Path, *, orphan_stays: bool) -> Path:
    """etcd installed at v0.9.2, its upgrade to v0.9.4 Failed while the Subscription is
    UpgradePending; ``orphan_stays``: the v0.9.2 CSV is still there."""
    objects = fixture_objects(ORPHAN)
    csv = find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")
    csv["metadata"]["name"] = "etcdoperator.v0.9.2"
    csv["spec"]["version"] = "0.9.2"
    csv["status"] = {"phase": "Succeeded", "reason": "InstallSucceeded"}
    if not orphan_stays:
        objects.remove(csv)
    sub = find(objects, "Subscription", "etcd")
    sub["status"] = {"currentCSV": "etcdoperator.v0.9.4"}
    if orphan_stays:
        sub["status"]["installedCSV"] = "etcdoperator.v0.9.2"
    objects.append(failed_plan("team", "install-etcd", ["etcdoperator.v0.9.4"]))
    references_plan(sub, "install-etcd", state="UpgradePending")
    return _snapshot(objects, tmp_path)


def _failed_upgrade(tmp_path: Path, *, fail_forward: bool) -> Path:
    """a.v2 Failed after replacing a.v1, its InstallPlan Failed, a.v3 in the catalog."""
    objects = fixture_objects(FAIL_FORWARD)
    if not fail_forward:
        del find(objects, "OperatorGroup", "og")["spec"]["upgradeStrategy"]
    objects.append(failed_plan("catsrc-namespace", "install-a2", ["a.v2"]))
    references_plan(find(objects, "Subscription", "a-alpha"), "install-a2", state="AtLatestKnown")
    return _snapshot(objects, tmp_path)


def test_a_remedy_that_clears_its_incident_is_simulated(tmp_path: Path) -> None:
    # R-SUB-6: the plan deleted while UpgradePending, OLM resolves again and installs v0.9.4
    path = _etcd_upgrade_failed(tmp_path, orphan_stays=False)
    catalogs = catalog_specs(ORPHAN)
    remedy = _remedy(_json(path, catalogs), "InstallPlanFailed", "etcd")
    assert remedy["verified"] == "simulated", remedy
    assert remedy["missing"] is None
    assert "OLM resolves team/etcd to etcdoperator.v0.9.4" in remedy["outcome"]
    assert "InstallPlanFailed clears" in remedy["outcome"]
    text = _check(path, catalogs, "text")
    assert "Remedy (simulated): " in text
    assert "$ oc delete installplan install-etcd -n team" in text
    assert "Remedy (simulated): " in _check(path, catalogs, "markdown")


def test_without_catalog_content_it_says_what_is_missing(tmp_path: Path) -> None:
    path = _etcd_upgrade_failed(tmp_path, orphan_stays=False)
    remedy = _remedy(_json(path, []), "InstallPlanFailed", "etcd")
    assert remedy["verified"] == "not-simulated"
    assert "catalog content (--catalog)" in remedy["missing"]
    text = _check(path, [], "text")
    assert "Remedy (not simulated: catalog content (--catalog)" in " ".join(text.split())


def test_recreating_deletes_the_csv_the_failed_one_replaced_and_is_simulated(
    tmp_path: Path,
) -> None:
    # R-DOC-14: a.v2 failed while replacing a.v1 (which carries no package label): the plan
    # finds a.v1 down a.v2's spec.replaces and deletes it too, or the new Subscription would
    # never adopt it and resolution would fail on it; then OLM installs a.v1 again
    path = _failed_upgrade(tmp_path, fail_forward=False)
    catalogs = catalog_specs(FAIL_FORWARD)
    remedy = _remedy(_json(path, catalogs), "InstallPlanFailed", "a-alpha")
    deleted = [s["object"]["name"] for s in remedy["steps"] if s["action"] == "delete"]
    assert deleted == ["a-alpha", "a.v1", "a.v2"]
    assert remedy["verified"] == "simulated", remedy
    assert "OLM resolves catsrc-namespace/a-alpha to a.v1" in remedy["outcome"]
    text = _check(path, catalogs, "text")
    assert "$ oc delete csv a.v1 -n catsrc-namespace" in text


def test_fail_forward_leaves_the_failed_csv_to_the_install_it_starts(tmp_path: Path) -> None:
    # R-UPG-8: deleting the failed plan makes OLM resolve again and install a.v3; the Failed
    # a.v2 that follows from the plan is left to that install, which olmtui does not follow:
    # neither proven nor refused
    path = _failed_upgrade(tmp_path, fail_forward=True)
    remedy = _remedy(_json(path, catalog_specs(FAIL_FORWARD)), "InstallPlanFailed", "a-alpha")
    assert remedy["verified"] == "not-simulated", remedy
    assert "OLM resolves catsrc-namespace/a-alpha to a.v3" in remedy["outcome"]
    assert remedy["missing"] == (
        "what installing a.v3 does to CSVFailed on ClusterServiceVersion catsrc-namespace/a.v2: "
        "olmtui models the InstallPlan OLM makes, not its install"
    )


def _planned(remedy: Remedy, code: str) -> Any:
    """A planner that offers ``remedy`` for ``code`` (the wrong remedies once
    planned): the check must refuse it."""
    planner = json_report.remedy_for

    def planned(finding: Finding, context: Any) -> Remedy | None:
        return remedy if finding.code == code else planner(finding, context)

    return planned


def test_delete_and_recreate_the_subscription_while_its_csv_stays_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R-DOC-14: "delete the Subscription and create it again" while etcdoperator.v0.9.2 stays
    path = _etcd_upgrade_failed(tmp_path, orphan_stays=True)
    sub = find(yaml.safe_load_all(path.read_text()), "Subscription", "etcd")
    body = {k: v for k, v in sub.items() if k != "status"}
    ref = ObjectRef("Subscription", "team", "etcd")
    wrong = Remedy(
        (
            Step(
                "delete",
                "Delete the Subscription and create it again",
                ref,
                command="oc delete subscription etcd -n team",
                changes=(Change("delete", ref), Change("create", ref, body=body)),
            ),
        )
    )
    monkeypatch.setattr(json_report, "remedy_for", _planned(wrong, "InstallPlanFailed"))
    catalogs = catalog_specs(ORPHAN)
    remedy = _remedy(_json(path, catalogs), "InstallPlanFailed", "etcd")
    assert remedy["verified"] == "not-simulated" and remedy["missing"] is None, remedy
    assert (
        "clusterserviceversion etcdoperator.v0.9.2 exists and is not referenced by a subscription"
        in remedy["outcome"]
    )
    text = _check(path, catalogs, "text")
    assert "The obvious remedy would not work: " in text
    assert "$ oc delete subscription etcd -n team" not in text


def test_deleting_a_failed_plan_under_default_strategy_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R-SUB-6, R-RES-21: the CSV exists, so OLM only reports InstallPlanMissing, and without
    # fail-forward the Failed a.v2 blocks the upgrade
    path = _failed_upgrade(tmp_path, fail_forward=False)
    plan = ObjectRef("InstallPlan", "catsrc-namespace", "install-a2")
    wrong = Remedy(
        (
            Step(
                "delete",
                "Delete the failed InstallPlan",
                plan,
                command="oc delete installplan install-a2 -n catsrc-namespace",
                changes=(Change("delete", plan),),
            ),
        )
    )
    monkeypatch.setattr(json_report, "remedy_for", _planned(wrong, "InstallPlanFailed"))
    catalogs = catalog_specs(FAIL_FORWARD)
    remedy = _remedy(_json(path, catalogs), "InstallPlanFailed", "a-alpha")
    assert remedy["verified"] == "not-simulated" and remedy["missing"] is None, remedy
    assert "InstallPlanMissing" in remedy["outcome"]
    markdown = _check(path, catalogs, "markdown")
    assert "The obvious remedy would not work: " in markdown
    assert "oc delete installplan install-a2" not in markdown
