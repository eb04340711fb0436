"""``olmtui whatif`` end to end: text and JSON answers over a fixture of OLM's resolver
tests, and every fault of an action one line on stderr with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from simulation_support import ORPHAN, catalog_specs

from olmtui.cli import main

CLUSTER = str(ORPHAN / "cluster.yaml")
CATALOG = [f"--catalog={spec}" for spec in catalog_specs(ORPHAN)]
ORPHAN_CSV = "csv/team/etcdoperator.v0.9.4"


def test_text_says_what_olm_does_next(capsys: pytest.CaptureFixture[str]) -> None:
    # R-DOC-14: deleting the leftover CSV lets the Subscription resolve
    assert main(["whatif", CLUSTER, *CATALOG, "--delete", ORPHAN_CSV]) == 0
    out = capsys.readouterr().out
    assert "delete ClusterServiceVersion team/etcdoperator.v0.9.4" in out
    assert "OLM resolves team/etcd to etcdoperator.v0.9.4 and makes InstallPlan" in out
    assert "team: unsatisfiable -> resolved, installs etcdoperator.v0.9.4" in out
    assert "- warning UnreferencedCSV ClusterServiceVersion team/etcdoperator.v0.9.4" in out
    assert "Simulated:" in out


def test_json_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whatif", CLUSTER, *CATALOG, "--delete", ORPHAN_CSV, "--output", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["format"] == 1
    assert answer["actions"] == [
        {
            "action": "delete",
            "object": {
                "kind": "ClusterServiceVersion",
                "namespace": "team",
                "name": "etcdoperator.v0.9.4",
            },
            "field": None,
            "value": None,
        }
    ]
    assert [r["status"] for r in answer["before"]["resolution"]] == ["unsatisfiable"]
    assert [r["status"] for r in answer["after"]["resolution"]] == ["resolved"]
    assert {
        "code": "UnreferencedCSV",
        "kind": "ClusterServiceVersion",
        "namespace": "team",
        "name": "etcdoperator.v0.9.4",
    } in answer["cleared"]
    assert [f["code"] for f in answer["new"]] == ["InstallPlanPending"]
    assert answer["verified"] == "simulated" and answer["missing"] is None
    before = {f["code"] for f in answer["before"]["findings"]}
    assert "UnreferencedCSV" in before


def test_a_new_error_exits_1_and_without_content_it_is_not_simulated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sub = next(
        d
        for d in yaml.safe_load_all(Path(CLUSTER).read_text())
        if d and d["kind"] == "Subscription"
    )
    sub["metadata"]["name"] = "etcd-again"
    created = tmp_path / "sub.yaml"
    created.write_text(yaml.safe_dump(sub))
    # a second Subscription of the package: resolution still fails, on it too (R-DOC-14)
    code = main(["whatif", CLUSTER, *CATALOG, "--create", str(created)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "+ error ConstraintsNotSatisfiable Subscription team/etcd-again" in out
    assert main(["whatif", CLUSTER, "--patch", "sub/team/etcd", "spec.channel=beta"]) == 0
    assert "Not simulated: catalog content (--catalog)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--delete", "pod/team/x"], "whatif: --delete: unknown kind 'pod'"),
        (["--delete", "sub/team/nope"], "whatif: Subscription team/nope is not in the state"),
        (["--patch", "sub/team/etcd", "spec.channel"], "is not FIELD=VALUE"),
        (["--approve", "sub/team/etcd"], "--approve takes an InstallPlan, not a Subscription"),
        (["--delete", "ce/team/x"], "ClusterExtension is cluster-scoped"),
        ([], "give at least one --delete, --approve, --patch or --create"),
        (["--create", "/nonexistent/x.yaml"], "cannot read /nonexistent/x.yaml"),
    ],
)
def test_faults_exit_2_with_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["whatif", CLUSTER, *argv]) == 2
    err = capsys.readouterr().err
    assert says in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("kind: Subscription\nmetadata: {name: [\n", "is not valid YAML"),
        ("a: 1\n---\nb: 2\n", "must hold one object, not 2 documents"),
        ("kind: Pod\nmetadata: {name: x}\n", "cannot create an object of kind 'Pod'"),
        (
            "kind: Subscription\nmetadata: {name: etcd, namespace: team}\n",
            "Subscription team/etcd already exists",
        ),
    ],
)
def test_bad_files_exit_2(
    text: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    created = tmp_path / "obj.yaml"
    created.write_text(text)
    assert main(["whatif", CLUSTER, "--create", str(created)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_deleting_a_failed_plan_whose_csv_stays_only_brings_install_plan_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the sample's real failed plan (AtLatestKnown, its CSV present, Default strategy):
    # OLM only reports InstallPlanMissing (R-SUB-6), nothing resolves again
    code = main(["whatif", "--sample", "--delete", "ip/cfe-test-namespace/install-bfnbn"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "only reports InstallPlanMissing" in out
    assert "- error InstallPlanFailed Subscription cfe-test-namespace/" in out
    assert "+ error InstallPlanMissing Subscription cfe-test-namespace/" in out
    assert "Simulated:" in out
