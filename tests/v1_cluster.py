"""What the loopback cluster serves in the OLM v1 live tests: ClusterCatalogs and
ClusterExtensions as operator-controller and catalogd write them, and catalogd's content (real
FBC files, one JSON object per line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from data_paths import DATA

from olmtui.sources.catalog.files import read_documents

Obj = dict[str, Any]


CATALOGS = DATA / "catalogs"


#: Real FBC: a JSON stream with olm.bundle.object (CRDs, CSVs), YAML catalogs of
#: community-operators-prod, and OLM's e2e olm.deprecations fixture (see SOURCES.md).
FBC_FILES = [
    CATALOGS
    / "cluster-kube-descheduler-operator/v4.16/catalog/cluster-kube-descheduler-operator"
    / "catalog.json",
    CATALOGS / "community-operators-prod/catalogs/v4.20/infinispan/catalog.yaml",
    CATALOGS
    / "community-operators-prod/catalogs/v4.20/rabbitmq-messaging-topology-operator"
    / "catalog.yaml",
    CATALOGS
    / "operator-lifecycle-manager/test/e2e/testdata/subscription"
    / "example-operator.v0.2.0-deprecations.yaml",
]


BASE = "https://catalogd-service.olmv1-system.svc/catalogs/{}"
DIGEST = "quay.io/operatorhubio/catalog@sha256:" + "a" * 64


def fbc_lines(files: list[Path] = FBC_FILES) -> bytes:
    """The documents of ``files`` as catalogd serves them: one JSON object per line."""
    docs = [doc for path in files for _, doc in read_documents(path, [])]
    return b"".join(json.dumps(doc, default=str).encode() + b"\n" for doc in docs)


def cluster_catalog(name: str, *, serving: bool = True, digest: str = DIGEST) -> Obj:
    return {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterCatalog",
        "metadata": {
            "name": name,
            "labels": {"olm.operatorframework.io/metadata.name": name},
            "creationTimestamp": "2026-01-01T00:00:00Z",
        },
        "spec": {"source": {"type": "Image", "image": {"ref": "quay.io/x/catalog:latest"}}},
        "status": {
            "conditions": [
                {
                    "type": "Serving",
                    "status": "True" if serving else "False",
                    "reason": "Available" if serving else "Unavailable",
                    "message": "Serving desired content from resolved source",
                },
                {"type": "Progressing", "status": "True", "reason": "Succeeded", "message": ""},
            ],
            "resolvedSource": {"type": "Image", "image": {"ref": digest}},
            "urls": {"base": BASE.format(name)},
            "lastUnpacked": "2026-01-02T00:00:00Z",
        },
    }


def cluster_extension(name: str, package: str = "infinispan") -> Obj:
    return {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterExtension",
        "metadata": {"name": name, "creationTimestamp": "2026-01-01T00:00:00Z"},
        "spec": {
            "namespace": name,
            "source": {"sourceType": "Catalog", "catalog": {"packageName": package}},
        },
        "status": {
            "install": {"bundle": {"name": f"{package}.v2.4.0", "version": "2.4.0"}},
            "conditions": [
                {"type": "Installed", "status": "True", "reason": "Succeeded", "message": ""},
                {"type": "Progressing", "status": "True", "reason": "Succeeded", "message": ""},
            ],
        },
    }
