"""Where OLM says "no operators found in package P" / "in channel C of package P" (R-UPG-6,
R-SUB-7) and the catalog content given lists what the Subscription's catalog holds, the
findings and the resolver's explanation name the packages or channels that exist, close
matches first, instead of the generic advice. Built from OLM's ``subscription_e2e_test.go``
(a Subscription to a package or channel its catalog lacks gets ResolutionFailed /
ConstraintsNotSatisfiable with the resolver's R-RES-10.3 text) and ``resolver_test.go``'s
``TestResolver/SubscriptionWithNoCandidatesInChannel``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from check_runs import run_check
from data_paths import DATA
from snapshot_files import yaml_documents

CATALOG = DATA / "answer" / "no-operators" / "catalog-community.yaml"


def _cluster(package: str, channel: str) -> list[dict[str, Any]]:
    if package == "etcd":
        clause = (
            f"no operators found in channel {channel} of package {package} in the catalog "
            "referenced by subscription etcd"
        )
    else:
        clause = (
            f"no operators found in package {package} in the catalog referenced by "
            "subscription etcd"
        )
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "olm"}},
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "CatalogSource",
            "metadata": {"name": "community", "namespace": "olm"},
            "spec": {"sourceType": "grpc", "image": "quay.io/example/community:latest"},
            "status": {
                "connectionState": {
                    "address": "community.olm.svc:50051",
                    "lastObservedState": "READY",
                    "lastConnect": "2026-11-20T09:58:12Z",
                }
            },
        },
        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": "team", "labels": {"olm.operatorgroup.uid/og-uid": ""}},
        },
        {
            "apiVersion": "operators.coreos.com/v1",
            "kind": "OperatorGroup",
            "metadata": {"name": "og", "namespace": "team", "uid": "og-uid"},
            "spec": {"targetNamespaces": ["team"]},
            "status": {"namespaces": ["team"], "lastUpdated": "2026-11-20T09:58:00Z"},
        },
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "Subscription",
            "metadata": {"name": "etcd", "namespace": "team"},
            "spec": {
                "name": package,
                "channel": channel,
                "source": "community",
                "sourceNamespace": "olm",
                "installPlanApproval": "Automatic",
            },
            "status": {
                "lastUpdated": "2026-11-20T10:01:00Z",
                "conditions": [
                    {
                        "type": "ResolutionFailed",
                        "status": "True",
                        "reason": "ConstraintsNotSatisfiable",
                        "message": f"constraints not satisfiable: {clause}, "
                        "subscription etcd exists",
                    }
                ],
            },
        },
    ]


#: (spec.name, spec.channel, what the findings must name, the close match that comes first)
CASES = [
    ("etcd-operator", "stable", "it has etcd, cert-manager, prometheus, vault", "etcd"),
    ("promethus", "beta", "it has prometheus, ", "prometheus"),
    ("etcd", "stabel", "its channels are stable, alpha (default stable)", "stable"),
]


def _snapshot(tmp_path: Path, package: str, channel: str) -> str:
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(_cluster(package, channel)))
    return str(path)


@pytest.mark.parametrize(("package", "channel", "named", "first"), CASES)
def test_what_exists_is_named_close_matches_first(
    tmp_path: Path, package: str, channel: str, named: str, first: str
) -> None:
    snapshot = _snapshot(tmp_path, package, channel)
    status, report = run_check([snapshot, "--catalog", f"olm/community={CATALOG}"])
    assert status == 1
    on_sub = {f["code"]: f for f in report["findings"] if f["kind"] == "Subscription"}
    condition = on_sub["ConstraintsNotSatisfiable"]["message"]
    assert named in condition, condition
    assert "check that the package, channel and startingCSV exist" not in condition
    assert named in on_sub["NotInCatalogContent"]["message"]
    (entry,) = [r for r in report["resolution"] if r["namespace"] == "team"]
    if package != "etcd":
        # --catalog content is never the whole catalog: a package it lacks leaves the
        # resolution unknown (R-DOC-8, R-RES-22), not failing
        assert entry["status"] == "not-evaluated"
        return
    assert entry["status"] == "unsatisfiable"
    fixes = " ".join(c["fix"] for c in entry["explanation"])
    assert f"its channels in olm/community are {first}" in fixes, fixes


def test_without_catalog_content_the_advice_stays_generic(tmp_path: Path) -> None:
    snapshot = _snapshot(tmp_path, "etcd-operator", "stable")
    _, report = run_check([snapshot])
    (finding,) = [f for f in report["findings"] if f["code"] == "ConstraintsNotSatisfiable"]
    assert "check that the package, channel and startingCSV exist" in finding["message"]
    assert "it has" not in finding["message"]
