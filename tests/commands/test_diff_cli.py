"""``olmtui diff A B`` on pairs of small snapshots: each kind of OLM change said in OLM's
terms (R-REC-6), noise printing nothing (R-REC-7), findings and incidents new and resolved,
the three outputs, exit statuses as diff(1)'s."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from data_paths import DATA
from model_builders import (
    catalog_source,
    copy_of,
    csv,
    install_plan,
    namespace,
    operator_group,
    subscription,
)
from snapshot_files import yaml_documents
from v1_objects import catalog, extension

from olmtui.report.diff_report import load_diff_schema

Obj = dict[str, Any]


def base() -> list[Obj]:
    """One operator installed in ``ops`` from catalog ``olm/cat``."""
    return [
        namespace("ops"),
        namespace("olm"),
        operator_group("ops", "og", targets=["ops"], status=["ops"]),
        csv("ops", "pkg.v1", version="1.0.0", group="og", targets="ops"),
        subscription(
            "ops",
            "sub",
            installed="pkg.v1",
            current="pkg.v1",
            state="AtLatestKnown",
            source="cat",
            source_ns="olm",
        ),
        catalog_source("olm", "cat"),
    ]


def write(path: Path, objects: list[Obj]) -> Path:
    path.write_text(yaml_documents(objects))
    return path


def diff(tmp_path: Path, before: list[Obj], after: list[Obj], *extra: str) -> dict[str, Any]:
    """``diff A B --output json``: exit 1 (something changed), the JSON valid."""
    a, b = write(tmp_path / "a.yaml", before), write(tmp_path / "b.yaml", after)
    result = run_cli("diff", a, b, "--output", "json", *extra)
    assert result.returncode == 1, result.stderr
    answer: dict[str, Any] = json.loads(result.stdout)
    validate(answer)
    return answer


def validate(answer: Any) -> None:
    import jsonschema

    jsonschema.validate(answer, load_diff_schema())


def changed(answer: dict[str, Any], kind: str, name: str) -> dict[str, Any]:
    """``field -> (from, to)`` of one changed object."""
    for entry in answer["objects"]["changed"]:
        if entry["ref"]["kind"] == kind and entry["ref"]["name"] == name:
            return {w["field"]: (w["from"], w["to"]) for w in entry["what"]}
    raise AssertionError(f"{kind} {name} not changed: {answer['objects']['changed']}")


def names(refs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["kind"], r["name"]) for r in refs]


def edited(objects: list[Obj], kind: str, name: str) -> Obj:
    return next(o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name)


def test_the_same_input_twice_is_no_difference_exit_0(tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", base())
    result = run_cli("diff", a, a)
    assert result.returncode == 0, result.stderr
    assert "no OLM state changed" in result.stdout
    answer = json.loads(run_cli("diff", a, a, "--output", "json").stdout)
    validate(answer)
    assert answer["objects"] == {"added": [], "removed": [], "changed": []}
    assert answer["operators"] == [] and answer["findings"]["new"] == []


def test_a_must_gather_against_itself_is_no_difference() -> None:
    gathered = DATA / "must-gather/must-gather-clean/must-gather-aws"
    result = run_cli("diff", gathered, gathered, "--output", "json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    validate(answer)
    assert answer["findings"]["unchanged"] > 0


def test_a_heartbeat_difference_prints_nothing(tmp_path: Path) -> None:
    before = base()
    after = copy.deepcopy(before)
    for obj in after:
        obj["metadata"]["resourceVersion"] = "99"
        obj["metadata"]["generation"] = 7
    edited(after, "Subscription", "sub")["status"]["lastUpdated"] = "2026-11-28T10:00:00Z"
    source = edited(after, "CatalogSource", "cat")["status"]["connectionState"]
    source["lastConnect"] = "2026-11-28T10:00:00Z"
    edited(after, "ClusterServiceVersion", "pkg.v1")["status"]["lastUpdateTime"] = "x"
    a, b = write(tmp_path / "a.yaml", before), write(tmp_path / "b.yaml", after)
    result = run_cli("diff", a, b)
    assert result.returncode == 0, result.stdout
    assert "no OLM state changed" in result.stdout


def test_a_csv_installed(tmp_path: Path) -> None:
    after = [*base(), csv("ops", "other.v2", version="2.0.0", group="og", targets="ops")]
    answer = diff(tmp_path, base(), after)
    (added,) = answer["objects"]["added"]
    assert (added["kind"], added["name"]) == ("ClusterServiceVersion", "other.v2")
    assert added["facts"]["spec.version"] == "2.0.0"
    # membership: the group's members moved
    assert changed(answer, "OperatorGroup", "og")["members"] == (
        ["pkg.v1"],
        ["other.v2", "pkg.v1"],
    )


def test_a_csv_removed(tmp_path: Path) -> None:
    after = [o for o in base() if o["kind"] != "ClusterServiceVersion"]
    answer = diff(tmp_path, base(), after)
    assert names(answer["objects"]["removed"]) == [("ClusterServiceVersion", "pkg.v1")]
    (operator,) = answer["operators"]
    assert (operator["from"], operator["to"]) == ("1.0.0", None)


def test_a_csv_upgraded(tmp_path: Path) -> None:
    after = [o for o in base() if o["kind"] != "ClusterServiceVersion"]
    upgraded = csv("ops", "pkg.v2", version="2.0.0", replaces="pkg.v1", group="og", targets="ops")
    after.append(upgraded)
    sub = edited(after, "Subscription", "sub")
    sub["status"].update(installedCSV="pkg.v2", currentCSV="pkg.v2")
    answer = diff(tmp_path, base(), after)
    assert answer["operators"] == [
        {
            "package": "pkg",
            "namespace": "ops",
            "from": "1.0.0",
            "to": "2.0.0",
            "fromBundle": "pkg.v1",
            "toBundle": "pkg.v2",
            "clusterExtension": None,
        }
    ]
    (added,) = answer["objects"]["added"]
    assert added["facts"]["spec.replaces"] == "pkg.v1"
    assert changed(answer, "Subscription", "sub")["status.installedCSV"] == ("pkg.v1", "pkg.v2")
    text = run_cli("diff", tmp_path / "a.yaml", tmp_path / "b.yaml").stdout
    assert text.index("Operators") < text.index("ClusterServiceVersion")
    assert "pkg in ops: 1.0.0 -> 2.0.0 (pkg.v1 -> pkg.v2)" in text


def test_a_csv_phase_change(tmp_path: Path) -> None:
    before = base()
    after = copy.deepcopy(before)
    edited(before, "ClusterServiceVersion", "pkg.v1")["status"].update(
        phase="Installing", reason="InstallWaiting"
    )
    what = changed(diff(tmp_path, before, after), "ClusterServiceVersion", "pkg.v1")
    assert what["status.phase"] == ("Installing", "Succeeded")
    assert what["status.reason"] == ("InstallWaiting", "InstallSucceeded")


def test_a_subscription_channel_approval_and_state(tmp_path: Path) -> None:
    after = base()
    sub = edited(after, "Subscription", "sub")
    sub["spec"].update(channel="fast", installPlanApproval="Manual")
    sub["status"]["state"] = "UpgradePending"
    what = changed(diff(tmp_path, base(), after), "Subscription", "sub")
    assert what["spec.channel"] == ("stable", "fast")
    assert what["spec.installPlanApproval"] == (None, "Manual")
    assert what["status.state"] == ("AtLatestKnown", "UpgradePending")


def test_an_install_plan_new_then_approved(tmp_path: Path) -> None:
    plan = install_plan("ops", "install-1", csvs=[("pkg.v2", "pkg.v1")])
    answer = diff(tmp_path, base(), [*base(), plan])
    (added,) = answer["objects"]["added"]
    assert added["name"] == "install-1"
    assert added["facts"]["status.phase"] == "RequiresApproval"
    approved = install_plan("ops", "install-1", "Installing", True, csvs=[("pkg.v2", "pkg.v1")])
    what = changed(diff(tmp_path, [*base(), plan], [*base(), approved]), "InstallPlan", "install-1")
    assert what["status.phase"] == ("RequiresApproval", "Installing")
    assert what["spec.approved"] == (False, True)


def test_operator_group_targets(tmp_path: Path) -> None:
    after = [*base(), namespace("team")]
    group = edited(after, "OperatorGroup", "og")
    group["spec"]["targetNamespaces"] = ["ops", "team"]
    group["status"]["namespaces"] = ["ops", "team"]
    answer = diff(tmp_path, base(), after)
    what = changed(answer, "OperatorGroup", "og")
    assert what["status.namespaces"] == (["ops"], ["ops", "team"])
    assert names(answer["objects"]["added"]) == [("Namespace", "team")]


def global_state(copies_in: list[str]) -> list[Obj]:
    """A global group in ``ops`` whose CSV has copies in ``copies_in``."""
    source = csv("ops", "pkg.v1", version="1.0.0", group="og", targets="")
    return [
        *(namespace(n) for n in ["ops", "a", "b", "c"]),
        operator_group("ops", "og", status=[""]),
        source,
        *(copy_of(source, n) for n in copies_in),
    ]


def test_copies_are_counted_per_csv_under_its_group(tmp_path: Path) -> None:
    answer = diff(tmp_path, global_state(["a", "b", "c"]), global_state(["a", "b"]))
    assert answer["objects"]["removed"] == []  # never one row a copy
    what = changed(answer, "OperatorGroup", "og")
    before, after = what["copies of pkg.v1"]
    assert (before["present"], after["present"]) == (3, 2)
    assert (before["missing"], after["missing"]) == (0, 1)
    assert "MissingCopiedCSV" in {f["code"] for f in answer["findings"]["new"]}


def test_copies_of_a_csv_installed_with_its_group_are_said_with_the_csv(tmp_path: Path) -> None:
    bare = [*(o for o in global_state([]) if o["kind"] == "Namespace"), catalog_source()]
    answer = diff(tmp_path, bare, global_state(["a", "b", "c"]))
    added = {a["kind"]: a for a in answer["objects"]["added"]}
    csv_facts = added["ClusterServiceVersion"]["facts"]
    assert csv_facts["copies of pkg.v1"] == {"present": 3, "missing": 0, "stale": 0}
    assert answer["objects"]["changed"] == []


def test_a_catalog_source_image_state_and_priority(tmp_path: Path) -> None:
    after = [o for o in base() if o["kind"] != "CatalogSource"]
    after.append(
        catalog_source(
            "olm", "cat", state="TRANSIENT_FAILURE", priority=10, spec={"image": "quay.io/x/i:v2"}
        )
    )
    what = changed(diff(tmp_path, base(), after), "CatalogSource", "cat")
    assert what["spec.image"] == ("quay.io/x/index:v1", "quay.io/x/i:v2")
    assert what["status.connectionState.lastObservedState"] == ("READY", "TRANSIENT_FAILURE")
    assert what["spec.priority"] == (None, 10)


def test_a_cluster_extension_installed_version(tmp_path: Path) -> None:
    before = [catalog(), extension()]
    after = [catalog(), extension(installed=("argocd-operator.v0.7.0", "0.7.0"))]
    answer = diff(tmp_path, before, after)
    (operator,) = answer["operators"]
    assert operator["clusterExtension"] == "argocd"
    assert (operator["from"], operator["to"]) == ("0.6.0", "0.7.0")
    what = changed(answer, "ClusterExtension", "argocd")
    assert what["status.install.bundle.version"] == ("0.6.0", "0.7.0")


def test_a_cluster_catalog_resolved_digest(tmp_path: Path) -> None:
    after = catalog()
    after["status"]["resolvedSource"]["image"]["ref"] = "quay.io/operatorhubio/catalog@sha256:2"
    after["status"]["lastUnpacked"] = "2026-11-28T10:00:00Z"  # noise
    what = changed(diff(tmp_path, [catalog()], [after]), "ClusterCatalog", "operatorhubio")
    assert list(what) == ["status.resolvedSource.image.ref"]


def test_a_finding_that_appears_and_then_disappears(tmp_path: Path) -> None:
    failed = base()
    edited(failed, "ClusterServiceVersion", "pkg.v1")["status"].update(
        phase="Failed", reason="InstallCheckFailed", message="deployment not ready"
    )
    appeared = diff(tmp_path, base(), failed)
    new = {(f["code"], f["name"]) for f in appeared["findings"]["new"]}
    assert ("CSVFailed", "pkg.v1") in new
    assert appeared["incidents"]["new"] and not appeared["incidents"]["resolved"]
    gone = diff(tmp_path, failed, base())
    assert ("CSVFailed", "pkg.v1") in {(f["code"], f["name"]) for f in gone["findings"]["resolved"]}
    assert gone["incidents"]["resolved"] and not gone["findings"]["new"]


def test_markdown_names_before_and_after(tmp_path: Path) -> None:
    after = base()
    edited(after, "Subscription", "sub")["spec"]["channel"] = "fast"
    a, b = write(tmp_path / "a.yaml", base()), write(tmp_path / "b.yaml", after)
    result = run_cli("diff", a, b, "--output", "markdown")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "# OLM state: before / after"
    assert any(line.startswith("## Before: ") and "a.yaml" in line for line in lines)
    assert any(line.startswith("## After: ") and "b.yaml" in line for line in lines)
    assert "### Subscription" in lines
    assert "  - spec.channel: stable \u2192 fast" in lines


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("one.yaml",), "two INPUTs"),
        (("a.yaml", "b.yaml", "c.yaml"), "two INPUTs"),
        (("--live", "a.yaml", "b.yaml"), "one INPUT"),
        (("a.yaml", "b.yaml", "--context", "x"), "only apply with --live"),
        (("a.yaml", "missing.yaml"), "missing.yaml"),
    ],
)
def test_unusable_input_is_one_line_exit_2(
    tmp_path: Path, argv: tuple[str, ...], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "a.yaml", base())
    monkeypatch.chdir(tmp_path)
    result = run_cli("diff", *argv)
    assert result.returncode == 2
    assert says in result.stderr and len(result.stderr.splitlines()) == 1


def test_help_says_which_side_is_which_and_the_exit_statuses() -> None:
    result = run_cli("diff", "--help")
    words = " ".join(result.stdout.split())
    assert "A (before) and B (after)" in words
    assert "0 no OLM state changed, 1 something changed, 2 an input cannot be used" in words
