"""A CSV ``Failed``/``InstallComponentFailed`` on a Deployment the API server refused, whose
bad value comes from the Subscription's ``spec.config`` (R-CSV-IR): the finding names the
Subscription's field, not "it stays Failed until the cause is fixed". The table follows
OLM's overrides (``pkg/controller/operators/olm/overrides``: config env, envFrom, resources
and volumeMounts go into every container; nodeSelector, tolerations, volumes and affinity
into the pod spec) and its e2e ``subscription_e2e_test.go`` ("Subscription config"), with the
API server's validation messages as users report them (e.g. OLM issue reports of
``install strategy failed: Deployment.apps "x" is invalid:
spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or
equal to cpu limit``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from check_runs import run_check
from snapshot_files import yaml_documents

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


def _cluster(config: dict[str, Any], error: str, reason: str = "InstallComponentFailed") -> list:
    message = f'install strategy failed: Deployment.apps "etcd-operator" is invalid: {error}'
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
            "spec": {"targetNamespaces": ["team"]},
            "status": {"namespaces": ["team"], "lastUpdated": "2026-11-20T09:58:00Z"},
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
                "config": config,
            },
            "status": {
                "state": "AtLatestKnown",
                "installedCSV": "etcdoperator.v0.9.4",
                "currentCSV": "etcdoperator.v0.9.4",
                "lastUpdated": "2026-11-20T10:01:00Z",
            },
        },
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "ClusterServiceVersion",
            "metadata": {
                "name": "etcdoperator.v0.9.4",
                "namespace": "team",
                "annotations": {
                    "olm.operatorGroup": "og",
                    "olm.operatorNamespace": "team",
                    "olm.targetNamespaces": "team",
                },
            },
            "spec": {
                "version": "0.9.4",
                "installModes": [
                    {"type": "OwnNamespace", "supported": True},
                    {"type": "SingleNamespace", "supported": True},
                    {"type": "MultiNamespace", "supported": False},
                    {"type": "AllNamespaces", "supported": False},
                ],
            },
            "status": {
                "phase": "Failed",
                "reason": reason,
                "message": message,
                "lastTransitionTime": "2026-11-20T10:02:00Z",
            },
        },
    ]


RESOURCES = {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}
#: (spec.config, the API server's error, the config field the finding must name or None)
CASES = [
    (
        {"resources": RESOURCES},
        'spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be '
        "less than or equal to cpu limit of 1",
        "resources",
    ),
    (
        {"env": [{"name": "MY VAR", "value": "x"}]},
        'spec.template.spec.containers[0].env[0].name: Invalid value: "MY VAR": a valid '
        "environment variable name must consist of alphabetic characters, digits, '_', '-', "
        "or '.', and must not start with a digit",
        "env",
    ),
    (
        {"nodeSelector": {"bad key!": "x"}},
        'spec.template.spec.nodeSelector: Invalid value: "bad key!": name part must consist '
        "of alphanumeric characters, '-', '_' or '.'",
        "nodeSelector",
    ),
    (
        {"tolerations": [{"key": "k", "operator": "Equals", "value": "v"}]},
        'spec.template.spec.tolerations[0].operator: Unsupported value: "Equals": supported '
        'values: "Equal", "Exists"',
        "tolerations",
    ),
    (
        {"volumes": [{"name": "Bad_Name", "emptyDir": {}}], "volumeMounts": []},
        'spec.template.spec.volumes[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 '
        "label must consist of lower case alphanumeric characters or '-'",
        "volumes",
    ),
    (
        {
            "env": [{"name": "OK", "value": "x"}],
            "volumeMounts": [{"name": "missing", "mountPath": "/x"}],
        },
        'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "missing"',
        "volumeMounts",
    ),
    # the bundle's own value: the Subscription sets no resources, so it is not the cause
    (
        {"env": [{"name": "OK", "value": "x"}]},
        'spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be '
        "less than or equal to cpu limit of 1",
        None,
    ),
]


@pytest.mark.parametrize(("config", "error", "field"), CASES)
def test_the_failed_csv_names_the_subscription_field_its_bad_value_comes_from(
    tmp_path: Path, config: dict[str, Any], error: str, field: str | None
) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(_cluster(config, error)))
    status, report = run_check([str(path)])
    assert status == 1
    assert [f["code"] for f in report["findings"] if f["severity"] == "error"] == ["CSVFailed"]
    (finding,) = [f for f in report["findings"] if f["code"] == "CSVFailed"]
    message = finding["message"]
    if field is None:
        assert "spec.config" not in message and "stays Failed until the cause is fixed" in message
        assert finding["rule"] == "R-CSV-F"
        return
    assert f"Subscription etcd's spec.config.{field}" in message
    assert f"Fix or remove spec.config.{field} on Subscription team/etcd" in message
    assert "stays Failed until the cause is fixed" not in message
    assert finding["rule"] == "R-CSV-IR"


def test_another_failure_reason_keeps_the_csvs_own_words(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    docs = _cluster({"resources": RESOURCES}, "ignored", reason="InstallCheckFailed")
    path.write_text(yaml_documents(docs))
    _, report = run_check([str(path)])
    (finding,) = [f for f in report["findings"] if f["code"] == "CSVFailed"]
    assert "spec.config" not in finding["message"]
