"""PackageManifests as the cluster's packageserver serves them (one package, one channel head),
and the Subscription the catalog tests follow."""

from __future__ import annotations

from typing import Any

Obj = dict[str, Any]

MARKETPLACE = "openshift-marketplace"


def package_manifest(head: str) -> Obj:
    """What packageserver serves for etcd in the ``community`` CatalogSource."""
    return {
        "apiVersion": "packages.operators.coreos.com/v1",
        "kind": "PackageManifest",
        "metadata": {
            "name": "etcd",
            "namespace": MARKETPLACE,
            "labels": {"catalog": "community", "catalog-namespace": MARKETPLACE},
        },
        "status": {
            "packageName": "etcd",
            "catalogSource": "community",
            "catalogSourceNamespace": MARKETPLACE,
            "defaultChannel": "stable",
            "channels": [
                {
                    "name": "stable",
                    "currentCSV": head,
                    "currentCSVDesc": {"version": head.removeprefix("etcdoperator.v")},
                    "entries": [{"name": head, "version": head.removeprefix("etcdoperator.v")}],
                }
            ],
        },
    }


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
