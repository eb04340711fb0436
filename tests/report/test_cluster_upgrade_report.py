"""``clusterUpgrade`` and the cluster upgrade sections (R-CUP-6) of ``olmtui check``, on an
OpenShift 4.18 cluster whose OLM v1 extension is capped at 4.18; the ``olm`` ClusterOperator's
hold follows from it (R-DIAG-32)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import jsonschema
from data_paths import DATA

from olmtui.cli import main
from olmtui.report import load_schema

CASE = DATA / "cluster-upgrade"


def check(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", str(CASE / "cluster.yaml"), *argv])
    return out.getvalue()


def test_cluster_upgrade_json_names_the_v1_blocker_its_cap_and_the_way_out() -> None:
    report = json.loads(
        check("--catalog", f"operatorhubio={CASE / 'catalog.json'}", "--output", "json")
    )
    jsonschema.validate(report, load_schema())
    upgrade = report["clusterUpgrade"]
    assert (upgrade["currentVersion"], upgrade["nextMinor"]) == ("4.18.12", "4.19")
    [blocker] = upgrade["blockers"]
    assert blocker["source"] == "v1"
    assert blocker["object"] == {"kind": "ClusterExtension", "namespace": None, "name": "argocd"}
    assert blocker["maxOpenShiftVersion"] == "4.18"
    # R-CUP-7: no version constraint, so operator-controller walks there edge by edge
    assert (
        "Its spec already lets operator-controller upgrade it to argocd-operator.v0.8.0 "
        "(version 0.8.0), whose cap allows 4.19, one successor at a time: 0.7.0, then 0.8.0"
    ) in blocker["message"]
    held = next(f for f in report["findings"] if f["code"] == "OLMClusterOperatorNotUpgradeable")
    assert held["cause"] == {
        "code": "ClusterExtensionBlocksUpgrade",
        "kind": "ClusterExtension",
        "namespace": None,
        "name": "argocd",
    }


def test_without_the_catalog_the_cluster_operator_still_names_the_blocker() -> None:
    report = json.loads(check("--output", "json"))
    [blocker] = report["clusterUpgrade"]["blockers"]
    assert (blocker["source"], blocker["maxOpenShiftVersion"]) == ("v1", None)
    codes = {(f["code"], f["rule"]) for f in report["findings"]}
    assert ("ClusterExtensionBlocksUpgrade", "R-CUP-2") in codes


def test_text_and_markdown_sections() -> None:
    text = check("--catalog", str(CASE / "catalog.json"))
    assert "CLUSTER UPGRADE\n  OpenShift 4.18.12 -> 4.19: 1 blocker" in text
    assert "[v1] ClusterExtension argocd (cap 4.18)" in text
    markdown = check("--catalog", str(CASE / "catalog.json"), "--output", "markdown")
    assert "## Cluster upgrade" in markdown
    assert "- **v1** ClusterExtension argocd (cap 4.18):" in markdown


def test_a_cap_cluster_olm_operator_cannot_read_causes_its_hold(tmp_path: Path) -> None:
    """R-DIAG-33: ``FailureGettingExtensionMetadata`` names ``cluster extension argocd``; the
    content shows two ``olm.maxOpenShiftVersion`` properties on its bundle (R-CUP-4)."""
    failure = (
        "InstalledOLMOperatorsUpgradeable: error(s) with cluster extension argocd: error in "
        "bundle argocd-operator.v0.6.0: more than one olm.maxOpenShiftVersion found in bundle"
    )
    cluster = (CASE / "cluster.yaml").read_text()
    cluster = cluster.replace(
        "InstalledOLMOperators_IncompatibleOperatorsInstalled",
        "InstalledOLMOperators_FailureGettingExtensionMetadata",
    )
    start = cluster.index("    message: 'InstalledOLMOperatorsUpgradeable")
    end = cluster.index("\n", start)
    cluster = cluster[:start] + f"    message: '{failure}'" + cluster[end:]
    (tmp_path / "cluster.yaml").write_text(cluster)
    content = (CASE / "catalog.json").read_text()
    twice = '{"type":"olm.maxOpenShiftVersion","value":"4.18"}'
    content = content.replace(twice, f"{twice},{twice.replace('4.18', '4.19')}", 1)
    (tmp_path / "catalog.json").write_text(content)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(
            [
                "check",
                str(tmp_path / "cluster.yaml"),
                "--catalog",
                str(tmp_path / "catalog.json"),
                "--output",
                "json",
            ]
        )
    report = json.loads(out.getvalue())
    held = next(f for f in report["findings"] if f["code"] == "OLMClusterOperatorNotUpgradeable")
    assert held["cause"] == {
        "code": "ClusterExtensionMaxOpenShiftVersionInvalid",
        "kind": "ClusterExtension",
        "namespace": None,
        "name": "argocd",
    }
    [blocker] = report["clusterUpgrade"]["blockers"]
    assert (blocker["source"], blocker["maxOpenShiftVersion"]) == ("v1", None)
