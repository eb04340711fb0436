"""Well-typed but hostile content reaches the model without ending ``check`` with exit 3:
a CEL ``olm.constraint`` nested past cel-go's limits or past what olmtui
evaluates, a run of thousands of ``!``, and a ClusterVersion version of 4,400 digits. Each is
told as a finding (or nothing, where nothing is wrong); the inputs are generated here."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA
from snapshot_files import yaml_documents

from olmtui.cli import main
from olmtui.errors import EXIT_CRASH

CATALOG = DATA / "triage/catalog-two-contents-one-source/alpha"
NS = "team"


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def _cluster(
    tmp_path: Path, rule: str, version: str = "4.14.3", max_ocp: str | None = None
) -> Path:
    """One namespace with an installed CSV whose properties hold a CEL constraint ``rule``
    (and ``olm.maxOpenShiftVersion`` ``max_ocp``), a Subscription to the catalog's ``alpha``
    and a ClusterVersion at ``version``."""
    properties: dict[str, Any] = {
        "properties": [
            {"type": "olm.package", "value": {"packageName": "installed", "version": "1.0.0"}},
            {"type": "olm.constraint", "value": {"failureMessage": "m", "cel": {"rule": rule}}},
        ]
    }
    if max_ocp is not None:
        properties["properties"].append({"type": "olm.maxOpenShiftVersion", "value": max_ocp})
    docs: list[dict[str, Any]] = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "olm"}},
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "CatalogSource",
            "metadata": {"name": "community", "namespace": "olm"},
            "spec": {"sourceType": "grpc", "image": "quay.io/example/community:latest"},
            "status": {"connectionState": {"lastObservedState": "READY"}},
        },
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        {
            "apiVersion": "operators.coreos.com/v1",
            "kind": "OperatorGroup",
            "metadata": {"name": NS, "namespace": NS},
            "spec": {},
            "status": {"namespaces": [""]},
        },
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "ClusterServiceVersion",
            "metadata": {
                "name": "installed.v1.0.0",
                "namespace": NS,
                "annotations": {
                    "olm.operatorGroup": NS,
                    "olm.operatorNamespace": NS,
                    "olm.targetNamespaces": "",
                    "operatorframework.io/properties": json.dumps(properties),
                },
            },
            "spec": {
                "version": "1.0.0",
                "installModes": [{"type": "AllNamespaces", "supported": True}],
            },
            "status": {"phase": "Succeeded", "reason": "InstallSucceeded"},
        },
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "Subscription",
            "metadata": {"name": "alpha", "namespace": NS},
            "spec": {
                "name": "alpha",
                "channel": "stable",
                "source": "community",
                "sourceNamespace": "olm",
            },
        },
        {
            "apiVersion": "config.openshift.io/v1",
            "kind": "ClusterVersion",
            "metadata": {"name": "version"},
            "status": {"desired": {"version": version}},
        },
    ]
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(docs, width=1 << 20))
    return path


def _check(path: Path) -> tuple[int, dict[str, Any]]:
    status, out, err = _run(
        "check", str(path), "--catalog", f"olm/community={CATALOG}", "--output", "json"
    )
    assert status != EXIT_CRASH, err
    return status, json.loads(out)


def _resolution(report: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in report["resolution"] if r["namespace"] == NS)
    return found


@pytest.mark.parametrize("depth", [300, 1000])
def test_a_cel_rule_past_cel_go_recursion_limit_stops_resolution_with_its_message(
    tmp_path: Path, depth: int
) -> None:
    rule = "(" * depth + "true" + ")" * depth
    _, report = _check(_cluster(tmp_path, rule))
    resolution = _resolution(report)
    assert resolution["status"] == "failed"
    assert resolution["reason"] == (
        "convert olm.constraint to resolver predicate: "
        "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
    )
    assert any(f["code"] == "ResolutionWouldStop" for f in report["findings"])


def test_a_cel_rule_of_150_nested_calls_is_not_evaluated(tmp_path: Path) -> None:
    rule = "semver_compare(" * 150 + "'1.0.0', '1.0.0'" + ")" * 150 + " == 0"
    _, report = _check(_cluster(tmp_path, rule))
    resolution = _resolution(report)
    assert resolution["status"] == "not-evaluated"
    assert "CEL rule not supported offline" in resolution["reason"]


def test_a_cel_rule_of_3000_nots_is_evaluated_as_cel_go_does(tmp_path: Path) -> None:
    """An even run of ``!`` before ``false`` is ``false``: the installed CSV's dependency
    matches nothing, so OLM cannot keep it (what the resolver then says is its business);
    the point is that the rule was decided."""
    _, report = _check(_cluster(tmp_path, "!" * 3000 + "false"))
    assert _resolution(report)["status"] in ("unsatisfiable", "resolved")


def test_a_cluster_version_of_4400_digits_is_an_unreadable_version(tmp_path: Path) -> None:
    """Python's ``int()`` refuses over 4,300 digits; Go's semver says out of range: the
    version is unreadable, and the cap is told without a claim about the cluster."""
    _, report = _check(_cluster(tmp_path, "true", version="4" * 4400 + ".1.0", max_ocp="4.15"))
    caps = [f for f in report["findings"] if f["code"] == "MaxOpenShiftVersion"]
    assert len(caps) == 1
    assert caps[0]["severity"] == "info"
    assert "cannot be read as a version" in caps[0]["message"]
    assert len(caps[0]["message"]) < 1000


def test_a_max_openshift_version_of_4400_digits_is_invalid(tmp_path: Path) -> None:
    _, report = _check(_cluster(tmp_path, "true", max_ocp="4." + "1" * 4400))
    invalid = [f for f in report["findings"] if f["code"] == "MaxOpenShiftVersionInvalid"]
    assert len(invalid) == 1
    assert "is not a version" in invalid[0]["message"]
    assert len(invalid[0]["message"]) < 1000
