"""The demo's OLM v1 revisions (R-V1-24..R-V1-26): two ClusterExtensions whose upgrades run as
ClusterObjectSets, as operator-controller with the ``BoxcutterRuntime`` gate writes them.

* ``cert-manager`` is mid-upgrade from 1.16.1 to 1.16.5: revision 2 (1.16.1) and revision 3
  (1.16.5) are both ``Active``, the extension ``Progressing=True/RollingOut``; revision 1
  (1.15.2) is archived. An upgrade on its way: no finding.
* ``node-healthcheck-operator`` tried 0.11.0 -> 0.12.0 with ``progressDeadlineMinutes: 10``:
  revision 2's Deployment never became available (``Available=False/ProbeFailure``) and the
  deadline passed (``Progressing=False/ProgressDeadlineExceeded``): stuck, an error whose
  evidence is the probe failure; 0.11.0 keeps running.

Conditions and messages are clusterobjectset_controller.go's; the phases are those
operator-controller gives a registry+v1 bundle (docs/draft/concepts/clusterobjectsets.md).
"""

from __future__ import annotations

from typing import Any

from olmtui.demo.v1_conditions import condition
from olmtui.kinds import CLUSTER_EXTENSION, CLUSTER_OBJECT_SET

Obj = dict[str, Any]

API_VERSION = "olm.operatorframework.io/v1"
CERT_MANAGER = "cert-manager"
NODE_HEALTHCHECK = "node-healthcheck-operator"
DEADLINE_MINUTES = 10
#: The probe failure of node-healthcheck-operator's revision 2, in the controller's format.
NHC_PROBE_FAILURE = (
    "Object Deployment.apps/v1 node-healthcheck-operator/"
    'node-healthcheck-controller-manager: condition "Available" == "True": False '
    "(MinimumReplicasUnavailable: Deployment does not have minimum availability.)"
)


def _phases(package: str, version: str, deployment: str) -> list[Obj]:
    """The phases of one bundle version: its CRD, its RBAC, its Deployment."""
    return [
        {
            "name": "crds",
            "objects": [
                {
                    "object": {
                        "apiVersion": "apiextensions.k8s.io/v1",
                        "kind": "CustomResourceDefinition",
                        "metadata": {"name": f"{package}s.demo.olmtui.io"},
                    }
                }
            ],
        },
        {
            "name": "identity",
            "objects": [
                {
                    "object": {
                        "apiVersion": "v1",
                        "kind": "ServiceAccount",
                        "metadata": {"name": deployment, "namespace": package},
                    }
                }
            ],
        },
        {
            "name": "deploy",
            "objects": [
                {
                    "object": {
                        "apiVersion": "apps/v1",
                        "kind": "Deployment",
                        "metadata": {
                            "name": deployment,
                            "namespace": package,
                            "labels": {"olm.operatorframework.io/bundle-version": version},
                        },
                    }
                }
            ],
        },
    ]


def _revision(
    extension: str, number: int, version: str, state: str, conditions: list[Obj], now: str
) -> Obj:
    deployment = {
        CERT_MANAGER: "cert-manager-webhook",
        NODE_HEALTHCHECK: "node-healthcheck-controller-manager",
    }[extension]
    spec: Obj = {
        "lifecycleState": state,
        "revision": number,
        "collisionProtection": "Prevent",
        "phases": _phases(extension, version, deployment),
    }
    if extension == NODE_HEALTHCHECK:
        spec["progressDeadlineMinutes"] = DEADLINE_MINUTES
    return {
        "apiVersion": API_VERSION,
        "kind": CLUSTER_OBJECT_SET,
        "metadata": {
            "name": f"{extension}-{number}",
            "creationTimestamp": now,
            "generation": 1,
            "labels": {
                "olm.operatorframework.io/owner-kind": CLUSTER_EXTENSION,
                "olm.operatorframework.io/owner-name": extension,
                "olm.operatorframework.io/package-name": extension,
                "olm.operatorframework.io/bundle-version": version,
            },
            "ownerReferences": [
                {
                    "apiVersion": API_VERSION,
                    "kind": CLUSTER_EXTENSION,
                    "name": extension,
                    "uid": f"demo-{extension}",
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ],
        },
        "spec": spec,
        "status": {"conditions": conditions},
    }


def _succeeded(number: int, now: str) -> list[Obj]:
    return [
        condition(
            "Available",
            "True",
            "ProbesSucceeded",
            "Objects are available and pass all probes.",
            now,
        ),
        condition("Progressing", "True", "Succeeded", f"Revision {number} has rolled out.", now),
        condition("Succeeded", "True", "Succeeded", "Revision succeeded rolling out.", now),
    ]


def _archived(now: str) -> list[Obj]:
    return [
        condition("Available", "Unknown", "Archived", "revision is archived", now),
        condition("Progressing", "False", "Archived", "revision is archived", now),
        condition("Succeeded", "True", "Succeeded", "Revision succeeded rolling out.", now),
    ]


def _rolling_out(number: int, now: str) -> list[Obj]:
    message = f"Revision {number} is rolling out."
    return [
        condition("Available", "False", "RollingOut", message, now),
        condition("Progressing", "True", "RollingOut", message, now),
    ]


def _past_deadline(number: int, now: str) -> list[Obj]:
    last = f"Revision {number} is rolling out."
    return [
        condition("Available", "False", "ProbeFailure", NHC_PROBE_FAILURE, now),
        condition(
            "Progressing",
            "False",
            "ProgressDeadlineExceeded",
            f"Revision has not rolled out for {DEADLINE_MINUTES} minute(s). Last status: {last}",
            now,
        ),
    ]


def _extension(
    name: str, version: str, installed: str, progressing: Obj, active: list[Obj], now: str
) -> Obj:
    spec: Obj = {
        "namespace": name,
        "source": {
            "sourceType": "Catalog",
            "catalog": {
                "packageName": name,
                "version": version,
                "selector": {
                    "matchLabels": {
                        "olm.operatorframework.io/metadata.name": "openshift-community-operators"
                    }
                },
                "upgradeConstraintPolicy": "CatalogProvided",
            },
        },
    }
    if name == NODE_HEALTHCHECK:
        spec["progressDeadlineMinutes"] = DEADLINE_MINUTES
    bundle = f"{name}.v{installed}"
    return {
        "apiVersion": API_VERSION,
        "kind": CLUSTER_EXTENSION,
        "metadata": {
            "name": name,
            "uid": f"demo-{name}",
            "creationTimestamp": now,
            "generation": 2,
        },
        "spec": spec,
        "status": {
            "install": {"bundle": {"name": bundle, "version": installed}},
            "conditions": [
                condition(
                    "Installed", "True", "Succeeded", f"Installed bundle {bundle} successfully", now
                ),
                progressing,
            ],
            "activeRevisions": [
                {
                    "name": r["metadata"]["name"],
                    "conditions": [
                        c for c in r["status"]["conditions"] if c["type"] != "Succeeded"
                    ],
                }
                for r in active
            ],
        },
    }


def revision_objects(now: str) -> list[Obj]:
    """The two extensions of the module docstring and their ClusterObjectSets."""
    cert_old = _revision(CERT_MANAGER, 1, "1.15.2", "Archived", _archived(now), now)
    cert_installed = _revision(CERT_MANAGER, 2, "1.16.1", "Active", _succeeded(2, now), now)
    cert_new = _revision(CERT_MANAGER, 3, "1.16.5", "Active", _rolling_out(3, now), now)
    cert_manager = _extension(
        CERT_MANAGER,
        "1.16.5",
        "1.16.1",
        condition("Progressing", "True", "RollingOut", "Revision 3 is rolling out.", now),
        [cert_installed, cert_new],
        now,
    )
    nhc_installed = _revision(NODE_HEALTHCHECK, 1, "0.11.0", "Active", _succeeded(1, now), now)
    nhc_stuck = _revision(NODE_HEALTHCHECK, 2, "0.12.0", "Active", _past_deadline(2, now), now)
    node_healthcheck = _extension(
        NODE_HEALTHCHECK,
        "0.12.0",
        "0.11.0",
        nhc_stuck["status"]["conditions"][1],
        [nhc_installed, nhc_stuck],
        now,
    )
    return [
        cert_manager,
        cert_old,
        cert_installed,
        cert_new,
        node_healthcheck,
        nhc_installed,
        nhc_stuck,
    ]
