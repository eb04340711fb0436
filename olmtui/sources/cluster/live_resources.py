"""What olmtui lists and watches on a cluster, and how each kind is addressed over HTTP.

One :class:`StreamSpec` per list+watch stream. ClusterServiceVersions are two streams over
the same kind: the real CSVs (``!olm.copiedFrom``) in full, and the copies OLM writes into
every target namespace (``olm.copiedFrom``) as metadata only, since a cluster can hold a
hundred thousand of them. PackageManifests are served by OLM's packageserver, which cannot be
watched, so they are polled (see ``live_packagemanifests``).
"""

from __future__ import annotations

from dataclasses import dataclass

from olmtui.sources.cluster.live_http import PAGE_SIZE
from olmtui.store import COPIED_FROM_LABEL, Obj

OLM_GROUP = "operators.coreos.com"
PACKAGES_GROUP = "packages.operators.coreos.com"

#: The list limit for kinds whose objects run to tens of KB (full CSVs, InstallPlans with
#: their step manifests, CRDs with their schemas), so that parsing one page, which holds the
#: event loop, stays short.
LARGE_OBJECT_PAGE = 100

#: Accept headers of the metadata-only client (PartialObjectMetadata, meta.k8s.io/v1).
METADATA_LIST_ACCEPT = (
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
)
METADATA_WATCH_ACCEPT = (
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
)


@dataclass(frozen=True, slots=True)
class Resource:
    """A served resource: ``group`` is ``""`` for the core API; ``versions`` in preference order."""

    kind: str
    group: str
    versions: tuple[str, ...]
    plural: str
    namespaced: bool

    def path(self, version: str, namespace: str | None = None) -> str:
        base = "/api/v1" if not self.group else f"/apis/{self.group}/{version}"
        if self.namespaced and namespace:
            return f"{base}/namespaces/{namespace}/{self.plural}"
        return f"{base}/{self.plural}"


@dataclass(frozen=True, slots=True)
class StreamSpec:
    """One list+watch stream: which resource, which label selector, full or metadata only.

    ``optional`` streams (CRDs) are nice to have: a missing resource or a 403 is shown, never
    an error of the session. ``page_size`` is the list ``limit``: json.loads holds the event
    loop for a whole page, so the kinds with large objects are listed in smaller pages.
    """

    name: str
    resource: Resource
    label_selector: str = ""
    metadata_only: bool = False
    optional: bool = False
    page_size: int = PAGE_SIZE

    def owns(self, obj: Obj) -> bool:
        """Whether a cached object belongs to this stream (the complement of its selector,
        so two label-selected relists of one kind never delete each other's objects)."""
        if not self.label_selector:
            return True
        has_label = COPIED_FROM_LABEL in ((obj.get("metadata") or {}).get("labels") or {})
        return not has_label if self.label_selector.startswith("!") else has_label


NAMESPACE = Resource("Namespace", "", ("v1",), "namespaces", False)
OPERATOR_GROUP = Resource("OperatorGroup", OLM_GROUP, ("v1", "v1alpha2"), "operatorgroups", True)
CSV = Resource("ClusterServiceVersion", OLM_GROUP, ("v1alpha1",), "clusterserviceversions", True)
SUBSCRIPTION = Resource("Subscription", OLM_GROUP, ("v1alpha1",), "subscriptions", True)
INSTALL_PLAN = Resource("InstallPlan", OLM_GROUP, ("v1alpha1",), "installplans", True)
CATALOG_SOURCE = Resource("CatalogSource", OLM_GROUP, ("v1alpha1",), "catalogsources", True)
OLM_CONFIG = Resource("OLMConfig", OLM_GROUP, ("v1",), "olmconfigs", False)
OPERATOR_CONDITION = Resource(
    "OperatorCondition", OLM_GROUP, ("v2", "v1"), "operatorconditions", True
)
CRD = Resource(
    "CustomResourceDefinition",
    "apiextensions.k8s.io",
    ("v1",),
    "customresourcedefinitions",
    False,
)
CONFIG_GROUP = "config.openshift.io"
#: OpenShift only: on plain Kubernetes they are not served, and their streams are optional.
CLUSTER_VERSION = Resource("ClusterVersion", CONFIG_GROUP, ("v1",), "clusterversions", False)
CLUSTER_OPERATOR = Resource("ClusterOperator", CONFIG_GROUP, ("v1",), "clusteroperators", False)
PACKAGE_MANIFEST = Resource("PackageManifest", PACKAGES_GROUP, ("v1",), "packagemanifests", True)
#: OLM v1 (operator-controller, catalogd), cluster-scoped (R-V1-1). A cluster without OLM v1
#: does not serve the group: normal, so their streams are optional and say nothing then.
V1_GROUP = "olm.operatorframework.io"
CLUSTER_EXTENSION = Resource("ClusterExtension", V1_GROUP, ("v1",), "clusterextensions", False)
CLUSTER_CATALOG = Resource("ClusterCatalog", V1_GROUP, ("v1",), "clustercatalogs", False)
#: R-V1-24: the revisions of ClusterExtensions, served only with the BoxcutterRuntime gate, and
#: their older name; either may be absent where ClusterExtensions are served.
CLUSTER_OBJECT_SET = Resource("ClusterObjectSet", V1_GROUP, ("v1",), "clusterobjectsets", False)
CLUSTER_EXTENSION_REVISION = Resource(
    "ClusterExtensionRevision", V1_GROUP, ("v1",), "clusterextensionrevisions", False
)

COPIES = "ClusterServiceVersion (copies)"

STREAMS: tuple[StreamSpec, ...] = (
    StreamSpec("Namespace", NAMESPACE),
    StreamSpec("OperatorGroup", OPERATOR_GROUP),
    StreamSpec(
        "ClusterServiceVersion",
        CSV,
        label_selector=f"!{COPIED_FROM_LABEL}",
        page_size=LARGE_OBJECT_PAGE,
    ),
    StreamSpec(COPIES, CSV, label_selector=COPIED_FROM_LABEL, metadata_only=True),
    StreamSpec("Subscription", SUBSCRIPTION),
    StreamSpec("InstallPlan", INSTALL_PLAN, page_size=LARGE_OBJECT_PAGE),
    StreamSpec("CatalogSource", CATALOG_SOURCE),
    StreamSpec("OLMConfig", OLM_CONFIG),
    StreamSpec("OperatorCondition", OPERATOR_CONDITION),
    StreamSpec("CustomResourceDefinition", CRD, optional=True, page_size=LARGE_OBJECT_PAGE),
    # A few objects each. Services are not watched (a cluster holds thousands): the
    # conversion webhook rule (R-DOC-17) then does not judge.
    StreamSpec("ClusterVersion", CLUSTER_VERSION, optional=True),
    StreamSpec("ClusterOperator", CLUSTER_OPERATOR, optional=True),
    # R-V1-1: a 403 on these is "no access" for them only; a 404 is "no OLM v1", silent.
    StreamSpec("ClusterExtension", CLUSTER_EXTENSION, optional=True),
    StreamSpec("ClusterCatalog", CLUSTER_CATALOG, optional=True),
    # R-V1-24: a 404 is "no revisions API" (the gate is off), silent; a 403 "no access".
    StreamSpec("ClusterObjectSet", CLUSTER_OBJECT_SET, optional=True),
    StreamSpec("ClusterExtensionRevision", CLUSTER_EXTENSION_REVISION, optional=True),
)
#: Streams whose 403 hides nothing: no rule reads the absence of their objects, so a user
#: who may not read them gets no "no access" warning (the rules just do not judge).
#: ClusterExtensionRevision is the older name of ClusterObjectSet (R-V1-24): the API server
#: answers 403, not 404, for a resource it does not serve to a user without access to it, so
#: a user with access to the new name only would be told of the old name on every cluster.
QUIET_ACCESS: frozenset[str] = frozenset(
    {"ClusterVersion", "ClusterOperator", "ClusterExtensionRevision"}
)


def csv_from_partial(partial: Obj, api_version: str) -> Obj:
    """A copied CSV read as PartialObjectMetadata, shaped as the CSV it stands for.

    Only the metadata travels, so the copy's ``status`` (its phase) is unknown; the model
    reads copies by their labels and annotations (R-COPY-*), which are all there.
    """
    return {
        "apiVersion": api_version,
        "kind": "ClusterServiceVersion",
        "metadata": partial.get("metadata") or {},
    }
