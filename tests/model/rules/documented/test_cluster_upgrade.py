"""Cluster upgrade readiness (R-DOC-16): installed CSVs' ``olm.maxOpenShiftVersion`` against
the ClusterVersion, as OLM's ``incompatibleOperators`` judges it, and OLM's ClusterOperator
Upgradeable condition."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from model_builders import clusteroperator as co
from model_builders import clusterversion as cv
from model_builders import csv

from olmtui.model.incremental.health import health_findings
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.documented.cluster_upgrade import (
    cluster_operator_findings,
    cluster_version,
    max_openshift_version,
    max_version_findings,
    named_csvs,
)
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store, trim


def make_csv(
    maximum: Any = None, *, raw: str | None = None, name: str = "foo.v1"
) -> dict[str, Any]:
    annotations: dict[str, str] = {}
    if raw is not None:
        annotations["operatorframework.io/properties"] = raw
    elif maximum is not None:
        values = maximum if isinstance(maximum, list) else [maximum]
        props = [{"type": "olm.maxOpenShiftVersion", "value": v} for v in values]
        annotations["operatorframework.io/properties"] = json.dumps({"properties": props})
    return csv(
        "ops", name, bare=True, version=None, annotations=annotations, phase=None, reason=None
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("4.12", ((4, 12), None)),
        ('"4.12"', ((4, 12), None)),  # OLM trims extra quotes
        ("4.12.0", ((4, 12), None)),  # ParseTolerant: equal to its <major>.<minor>
        ("4", ((4, 0), None)),
    ],
)
def test_a_readable_maximum(value: str, expected: tuple[Any, Any]) -> None:
    assert max_openshift_version(make_csv(value)) == expected


@pytest.mark.parametrize("value", ["4.12.1", "", "four", "4.12.0-rc.1", ["4.12", "4.13"]])
def test_a_maximum_olm_cannot_read_is_reported_as_such(value: Any) -> None:
    maximum, invalid = max_openshift_version(make_csv(value))
    assert maximum is None and invalid


def test_no_property_and_no_annotation_cap_nothing() -> None:
    assert max_openshift_version(make_csv()) == (None, None)
    other = json.dumps({"properties": [{"type": "olm.package", "value": {}}]})
    assert max_openshift_version(make_csv(raw=other)) == (None, None)
    assert (
        max_version_findings([make_csv(), make_csv(raw=other)], [cv(("Completed", "4.12.3"))]) == []
    )


def test_the_cluster_version_is_the_newest_completed_then_the_desired_one() -> None:
    assert cluster_version([cv(("Partial", "4.13.1"), ("Completed", "4.12.9"))]) == (4, 12)
    assert cluster_version([cv(("Partial", "4.13.1"), desired="4.13.1")]) == (4, 13)
    assert cluster_version([]) is None
    other = cv(("Completed", "4.12.9")) | {"metadata": {"name": "other"}}
    assert cluster_version([other]) is None


def test_the_running_minor_blocks_the_next_one() -> None:
    [finding] = max_version_findings([make_csv("4.12")], [cv(("Completed", "4.12.45"))])
    assert (finding.severity, finding.code, finding.rule) == (
        "warning",
        "MaxOpenShiftVersion",
        "R-DOC-16",
    )
    assert "blocks the cluster upgrade to 4.13" in finding.message
    assert "already runs" not in finding.message


def test_a_maximum_at_or_past_the_next_minor_is_fine() -> None:
    assert (
        max_version_findings([make_csv("4.13"), make_csv("4.14")], [cv(("Completed", "4.12.1"))])
        == []
    )


def test_a_maximum_below_the_running_minor_says_the_cluster_is_already_beyond() -> None:
    [finding] = max_version_findings([make_csv("4.10")], [cv(("Completed", "4.12.1"))])
    assert "blocks the cluster upgrade to 4.13" in finding.message
    assert "already runs 4.12, beyond that maximum" in finding.message


def test_4_23_and_5_0_are_one_release() -> None:
    # OLM's normalizeOCPVersion: on 4.22 the next minor is 4.23, which a 5.0 cap allows.
    assert max_version_findings([make_csv("5.0")], [cv(("Completed", "4.22.0"))]) == []
    [finding] = max_version_findings([make_csv("4.23")], [cv(("Completed", "4.23.2"))])
    assert "upgrade to 5.1" in finding.message


def test_an_unreadable_value_blocks_as_olm_fails_closed() -> None:
    [finding] = max_version_findings([make_csv("4.12.1")], [cv(("Completed", "4.12.1"))])
    assert (finding.severity, finding.code) == ("warning", "MaxOpenShiftVersionInvalid")
    [unknown] = max_version_findings([make_csv(raw="{not json")], [])
    assert unknown.severity == "info"


def test_without_the_cluster_version_nothing_is_claimed_about_it() -> None:
    [finding] = max_version_findings([make_csv("4.12")], [])
    assert finding.severity == "info"
    assert "caps the cluster at OpenShift 4.12" in finding.message
    assert "blocks" not in finding.message and "runs" not in finding.message


def test_olms_upgradeable_false_names_the_csvs_it_blames() -> None:
    message = (
        "ClusterServiceVersions blocking minor version upgrades to 4.23 or major version "
        "upgrades to 5.0:\n- maximum supported OCP version for ops/foo.v1 is 4.12\n"
        "- ops/bar.v2.0.0 has invalid olm.maxOpenShiftVersion properties: bad"
    )
    [finding] = cluster_operator_findings([co("False", "IncompatibleOperatorsInstalled", message)])
    assert (finding.kind, finding.name, finding.severity) == (
        "ClusterOperator",
        "operator-lifecycle-manager",
        "warning",
    )
    assert finding.related == (
        ObjectRef("ClusterServiceVersion", "ops", "foo.v1"),
        ObjectRef("ClusterServiceVersion", "ops", "bar.v2.0.0"),
    )
    assert "Upgrade or uninstall the operators it names" in finding.message


def test_the_older_upgradeable_message_names_its_csvs_too() -> None:
    message = (
        "ClusterServiceVersions blocking cluster upgrade: ops/foo.v1 is incompatible with "
        "OpenShift minor versions greater than 4.8"
    )
    assert named_csvs(message) == (ObjectRef("ClusterServiceVersion", "ops", "foo.v1"),)


def test_upgradeable_true_or_another_clusteroperator_is_no_finding() -> None:
    assert cluster_operator_findings([co("True", "AsExpected", "")]) == []
    other = co("False", "X", "y") | {"metadata": {"name": "kube-apiserver"}}
    assert cluster_operator_findings([other]) == []
    [held] = cluster_operator_findings([co("False", "", "Waiting for updates to take effect")])
    assert held.related == () and "no reason" in held.message


def test_copies_never_count() -> None:
    store = Store()
    copy = make_csv("4.10")
    copy["metadata"]["annotations"]["olm.operatorNamespace"] = "elsewhere"
    store.apply_many([copy, cv(("Completed", "4.12.1"))])
    assert [f for f in health_findings(store) if f.code.startswith("MaxOpenShift")] == []


def test_the_store_keeps_only_what_the_rules_read() -> None:
    version = cv(("Completed", "4.12.1")) | {"spec": {"upstream": "https://example.com"}}
    version["status"]["history"][0]["image"] = "quay.io/x@sha256:0"
    version["status"]["availableUpdates"] = [{"version": "4.12.2"}] * 50
    trimmed = trim(version)
    assert "spec" not in trimmed
    assert trimmed["status"] == {"history": [{"state": "Completed", "version": "4.12.1"}]}
    operator = co("False", "R", "m") | {"spec": {}}
    operator["status"]["relatedObjects"] = [{"kind": "Namespace", "name": "x"}]
    assert set(trim(operator)["status"]) == {"conditions"}


def test_a_must_gather_loads_the_cluster_version_and_operators(tmp_path: Path) -> None:
    root = tmp_path / "mg" / "cluster-scoped-resources" / "config.openshift.io"
    (root / "clusterversions").mkdir(parents=True)
    (root / "clusteroperators").mkdir()
    (root / "clusterversions" / "version.yaml").write_text(json.dumps(cv(("Completed", "4.8.2"))))
    (root / "clusteroperators" / "operator-lifecycle-manager.yaml").write_text(
        json.dumps(co("True", "AsExpected", ""))
    )
    ns = tmp_path / "mg" / "namespaces" / "ops" / "operators.coreos.com" / "clusterserviceversions"
    ns.mkdir(parents=True)
    (ns / "foo.v1.yaml").write_text(json.dumps(make_csv("4.8")))
    store = Store()
    load_snapshot([tmp_path / "mg"], store)
    assert store.get("ClusterVersion", "", "version") is not None
    assert store.get("ClusterOperator", "", "operator-lifecycle-manager") is not None
    [finding] = [f for f in health_findings(store) if f.code == "MaxOpenShiftVersion"]
    assert "blocks the cluster upgrade to 4.9" in finding.message
