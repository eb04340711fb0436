"""An InstallPlan retrying on ``forbidden`` errors of its OperatorGroup's scoped ServiceAccount
(R-OG-7, R-IP-3): an error naming the account and the permission it lacks, exit 1, not an
info "in progress, nothing to do". Built from OLM's e2e ``user_defined_sa_test.go`` (a scoped
OperatorGroup whose ServiceAccount lacks the permissions a bundle needs: the plan does not
complete) and the catalog operator's ``transitionInstallPlanState`` (a Forbidden error keeps the
plan Installing with ``retrying execution due to error: ...``), with the API server's own
Forbidden sentences."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from check_runs import run_check
from snapshot_files import yaml_documents

USER = 'User "system:serviceaccount:team:scoped"'


#: The Subscription's healthy catalog (the input raises nothing beside the point).
CATALOG_SOURCE = {
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
}


def _cluster(error: str) -> list[dict[str, Any]]:
    return [
        CATALOG_SOURCE,
        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": "team", "labels": {"olm.operatorgroup.uid/og-uid": ""}},
        },
        {
            "apiVersion": "operators.coreos.com/v1",
            "kind": "OperatorGroup",
            "metadata": {"name": "og", "namespace": "team", "uid": "og-uid"},
            "spec": {"targetNamespaces": ["team"], "serviceAccountName": "scoped"},
            "status": {
                "namespaces": ["team"],
                "lastUpdated": "2026-11-20T09:58:00Z",
                "serviceAccountRef": {
                    "kind": "ServiceAccount",
                    "namespace": "team",
                    "name": "scoped",
                },
            },
        },
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "Subscription",
            "metadata": {"name": "etcd", "namespace": "team"},
            "spec": {
                "name": "etcd",
                "channel": "alpha",
                "source": "community",
                "sourceNamespace": "olm",
            },
            "status": {
                "state": "UpgradePending",
                "currentCSV": "etcdoperator.v0.9.4",
                "installPlanRef": {"namespace": "team", "name": "install-abcde"},
                "installplan": {"name": "install-abcde"},
                "lastUpdated": "2026-11-20T10:01:00Z",
            },
        },
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "InstallPlan",
            "metadata": {
                "name": "install-abcde",
                "namespace": "team",
                "creationTimestamp": "2026-11-20T09:00:00Z",
                "ownerReferences": [
                    {
                        "apiVersion": "operators.coreos.com/v1alpha1",
                        "kind": "Subscription",
                        "name": "etcd",
                        "uid": "u",
                    }
                ],
            },
            "spec": {
                "approval": "Automatic",
                "approved": True,
                "clusterServiceVersionNames": ["etcdoperator.v0.9.4"],
            },
            "status": {
                "phase": "Installing",
                "message": f"retrying execution due to error: {error}",
                "attenuatedServiceAccountRef": {
                    "kind": "ServiceAccount",
                    "namespace": "team",
                    "name": "scoped",
                },
            },
        },
    ]


#: (the API server's Forbidden error, the permission the finding names, a grant command part)
CASES = [
    (
        "error creating csv etcdoperator.v0.9.4: clusterserviceversions.operators.coreos.com is "
        f'forbidden: {USER} cannot create resource "clusterserviceversions" in API group '
        '"operators.coreos.com" in the namespace "team"',
        "create clusterserviceversions (API group operators.coreos.com) in namespace team",
        "kubectl create role scoped-create-clusterserviceversions -n team",
    ),
    (
        "error creating crd etcdclusters.etcd.database.coreos.com: customresourcedefinitions."
        f"apiextensions.k8s.io is forbidden: {USER} cannot create resource "
        '"customresourcedefinitions" in API group "apiextensions.k8s.io" at the cluster scope',
        "create customresourcedefinitions (API group apiextensions.k8s.io) at the cluster scope",
        "kubectl create clusterrole scoped-create-customresourcedefinitions",
    ),
    (
        f'serviceaccounts "etcd-operator" is forbidden: {USER} cannot get resource '
        '"serviceaccounts" in API group "" in the namespace "team"',
        "get serviceaccounts (the core API group) in namespace team",
        "--resource=serviceaccounts ",
    ),
]


@pytest.mark.parametrize(("error", "permission", "grant"), CASES)
def test_a_plan_retrying_on_forbidden_names_the_account_and_the_permission(
    tmp_path: Path, error: str, permission: str, grant: str
) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(_cluster(error)))
    status, report = run_check([str(path)])
    assert status == 1
    errors = [f["code"] for f in report["findings"] if f["severity"] == "error"]
    assert errors == ["InstallPlanForbidden"]
    codes = {f["code"]: f for f in report["findings"]}
    assert "InstallPlanPending" not in codes
    finding = codes["InstallPlanForbidden"]
    assert (finding["severity"], finding["kind"], finding["name"]) == (
        "error",
        "Subscription",
        "etcd",
    )
    assert "ServiceAccount team/scoped" in finding["message"]
    assert permission in finding["message"]
    assert grant in finding["message"]
    assert finding["rule"] == "R-OG-7"


def test_a_plan_retrying_on_another_error_stays_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(
        yaml_documents(
            _cluster(
                "etcdclusters.etcd.database.coreos.com: the server is currently unable to "
                "handle the request"
            )
        )
    )
    _, report = run_check([str(path)])
    codes = [f["code"] for f in report["findings"]]
    assert "InstallPlanForbidden" not in codes and "InstallPlanPending" in codes
