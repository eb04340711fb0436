"""The Kubernetes kinds olmtui reads, as named constants.

A kind is the ``kind`` field of an object and the first part of its cache key: the cache
(``store.py``) files objects under it, the model asks the cache for it, and findings name it
in their object references. Spelled once here, a typo is a name error instead of a kind
that silently matches nothing. The values are the API server's spelling, so they compare
equal to an object's ``kind``. A leaf module: it imports nothing of olmtui.
"""

from __future__ import annotations

from typing import Final

# OLM v0 (operators.coreos.com)
CSV: Final = "ClusterServiceVersion"
SUBSCRIPTION: Final = "Subscription"
OPERATOR_GROUP: Final = "OperatorGroup"
INSTALL_PLAN: Final = "InstallPlan"
CATALOG_SOURCE: Final = "CatalogSource"
OPERATOR_CONDITION: Final = "OperatorCondition"
OLM_CONFIG: Final = "OLMConfig"
#: Served by OLM's packageserver (packages.operators.coreos.com), one per package and catalog.
PACKAGE_MANIFEST: Final = "PackageManifest"

# OLM v1 (olm.operatorframework.io, R-V1-1)
CLUSTER_EXTENSION: Final = "ClusterExtension"
CLUSTER_CATALOG: Final = "ClusterCatalog"
#: operator-controller's revisions of a ClusterExtension (R-V1-24); the older name of the
#: same kind, read too while clusters still serve it.
CLUSTER_OBJECT_SET: Final = "ClusterObjectSet"
CLUSTER_EXTENSION_REVISION: Final = "ClusterExtensionRevision"
#: Both names of the revision kind (operator-controller#2589 renamed the second to the first).
REVISION_KINDS: Final = frozenset({CLUSTER_OBJECT_SET, CLUSTER_EXTENSION_REVISION})

# Kubernetes and OpenShift kinds the rules read
NAMESPACE: Final = "Namespace"
CRD: Final = "CustomResourceDefinition"
DEPLOYMENT: Final = "Deployment"
SERVICE: Final = "Service"
CLUSTER_VERSION: Final = "ClusterVersion"
CLUSTER_OPERATOR: Final = "ClusterOperator"

# Evidence (R-EVD-1): what a finding rests on beyond OLM's own objects, trimmed hard
POD: Final = "Pod"
JOB: Final = "Job"
EVENT: Final = "Event"
