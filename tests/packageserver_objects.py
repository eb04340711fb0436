"""PackageManifests as the cluster's packageserver serves them (one package, one channel head),
and the Subscription the catalog tests follow."""

from __future__ import annotations

from typing import Any

from model_builders import package_manifest as shared_manifest

Obj = dict[str, Any]

MARKETPLACE = "openshift-marketplace"


def package_manifest(head: str) -> Obj:
    """What packageserver serves for etcd in the ``community`` CatalogSource."""
    version = head.removeprefix("etcdoperator.v")
    channel = {
        "name": "stable",
        "currentCSV": head,
        "currentCSVDesc": {"version": version},
        "entries": [{"name": head, "version": version}],
    }
    return shared_manifest("community", MARKETPLACE, "etcd", channels=[channel])


SUBSCRIPTION: Obj = {
    "apiVersion": "operators.coreos.com/v1alpha1",
    "kind": "Subscription",
    "metadata": {"name": "etcd", "namespace": "team-a"},
    "spec": {
        "name": "etcd",
        "channel": "stable",
        "source": "community",
        "sourceNamespace": MARKETPLACE,
    },
}
