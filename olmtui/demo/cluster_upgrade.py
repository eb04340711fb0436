"""The demo's cluster upgrade (R-CUP-*): an OpenShift 4.18 ClusterVersion, and an OLM v1
operator that holds the next minor. ``legacy-metrics-operator`` is installed from a bundle whose
``olm.maxOpenShiftVersion`` is 4.18 (``fixtures/legacy-metrics-operator.catalog.yaml``, served by
the community ClusterCatalog) and pinned there (``version: 1.2.0``); its next bundle, 1.3.0,
allows 4.20: the way out is changing the pin to 1.3.0 (R-CUP-7), which ``check`` proves. The ``olm``
ClusterOperator says ``Upgradeable=False`` in cluster-olm-operator's words (its
``InstalledOLMOperatorsUpgradeable`` after library-go's union of ``*Upgradeable`` conditions).
"""

from __future__ import annotations

from typing import Any

from olmtui.demo.v1_conditions import condition
from olmtui.kinds import CLUSTER_EXTENSION, CLUSTER_OPERATOR, CLUSTER_VERSION
from olmtui.model.rules.v1.catalog_selector import NAME_LABEL

Obj = dict[str, Any]

#: The version the demo cluster runs, and the one it cannot move to.
OPENSHIFT = "4.18.21"
NEXT_MINOR = "4.19"
PACKAGE = "legacy-metrics-operator"
INSTALLED = f"{PACKAGE}.v1.2.0"
#: The ClusterCatalog that serves the package (``v1.COMMUNITY``).
CATALOG = "openshift-community-operators"
UPGRADEABLE_MESSAGE = (
    "InstalledOLMOperatorsUpgradeable: Found ClusterExtensions that require upgrades prior to "
    f'upgrading cluster to version {NEXT_MINOR}: bundle "{INSTALLED}" for ClusterExtension '
    f'"{PACKAGE}".'
)


def _cluster_version(now: str) -> Obj:
    return {
        "apiVersion": "config.openshift.io/v1",
        "kind": CLUSTER_VERSION,
        "metadata": {"name": "version", "creationTimestamp": now},
        "spec": {"channel": "stable-4.18"},
        "status": {
            "desired": {"version": OPENSHIFT},
            "history": [
                {"state": "Completed", "version": OPENSHIFT, "completionTime": now},
            ],
        },
    }


def _olm_cluster_operator(now: str) -> Obj:
    def said(kind: str, status: str, reason: str, message: str) -> Obj:
        return {
            "type": kind,
            "status": status,
            "reason": reason,
            "message": message,
            "lastTransitionTime": now,
        }

    return {
        "apiVersion": "config.openshift.io/v1",
        "kind": CLUSTER_OPERATOR,
        "metadata": {"name": "olm", "creationTimestamp": now},
        "status": {
            "conditions": [
                said("Degraded", "False", "AsExpected", "All is well"),
                said("Progressing", "False", "AsExpected", "All is well"),
                said("Available", "True", "AsExpected", "All is well"),
                said(
                    "Upgradeable",
                    "False",
                    "InstalledOLMOperators_IncompatibleOperatorsInstalled",
                    UPGRADEABLE_MESSAGE,
                ),
            ],
        },
    }


def _extension(now: str) -> Obj:
    image = f"quay.io/olmtui-demo/{PACKAGE}-bundle:v1.2.0"
    return {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": CLUSTER_EXTENSION,
        "metadata": {
            "name": PACKAGE,
            "creationTimestamp": now,
            "generation": 1,
            "finalizers": ["olm.operatorframework.io/cleanup-unpack-cache"],
        },
        "spec": {
            "namespace": PACKAGE,
            "source": {
                "sourceType": "Catalog",
                "catalog": {
                    "packageName": PACKAGE,
                    "channels": ["stable"],
                    "version": "1.2.0",  # pinned: held at the capped bundle
                    "selector": {"matchLabels": {NAME_LABEL: CATALOG}},
                    "upgradeConstraintPolicy": "CatalogProvided",
                },
            },
        },
        "status": {
            "install": {"bundle": {"name": INSTALLED, "version": "1.2.0"}},
            "conditions": [
                condition(
                    "Installed", "True", "Succeeded", f"Installed bundle {image} successfully", now
                ),
                condition("Progressing", "True", "Succeeded", "Desired state reached", now),
                condition("Deprecated", "False", "NotDeprecated", "not deprecated", now),
                condition(
                    "PackageDeprecated", "False", "NotDeprecated", "package not deprecated", now
                ),
                condition(
                    "ChannelDeprecated", "False", "NotDeprecated", "channel not deprecated", now
                ),
                condition(
                    "BundleDeprecated", "False", "NotDeprecated", "bundle not deprecated", now
                ),
            ],
        },
    }


def cluster_upgrade_objects(now: str) -> list[Obj]:
    """The ClusterVersion, the ``olm`` ClusterOperator and the capped extension."""
    return [_cluster_version(now), _olm_cluster_operator(now), _extension(now)]
