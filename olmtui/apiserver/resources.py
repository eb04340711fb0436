"""The resource table: which kinds the loopback API server serves, and under which names.

Names, short names, categories, scope and printer columns follow the CRDs OLM installs
(operator-framework/api ``crds/``), the core Namespace and CRD types, and packageserver's
aggregated PackageManifest API, so that ``kubectl get csv`` or ``kubectl get subs`` resolve
and print as they do on a real cluster. Every resource is served at exactly one version.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from olmtui.frozen import frozen

READ_VERBS: tuple[str, ...] = ("get", "list", "watch")


@frozen
class PrinterColumn:
    """One server-side Table column: a CRD ``additionalPrinterColumns`` entry."""

    name: str
    json_path: str
    type: str = "string"
    description: str = ""


@frozen
class Resource:
    """One served resource, as discovery describes it."""

    group: str
    version: str
    kind: str
    plural: str
    singular: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    verbs: tuple[str, ...] = READ_VERBS
    columns: tuple[PrinterColumn, ...] = ()

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def list_kind(self) -> str:
        return f"{self.kind}List"

    @property
    def qualified_plural(self) -> str:
        """How the apiserver names the resource in messages: ``plural.group``."""
        return f"{self.plural}.{self.group}" if self.group else self.plural

    def can(self, verb: str) -> bool:
        return verb in self.verbs


_AGE = PrinterColumn("Age", ".metadata.creationTimestamp", "date")
OLM = "operators.coreos.com"

RESOURCES: tuple[Resource, ...] = (
    Resource(
        "",
        "v1",
        "Namespace",
        "namespaces",
        "namespace",
        False,
        ("ns",),
        columns=(PrinterColumn("Status", ".status.phase"), _AGE),
    ),
    Resource(
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinition",
        "customresourcedefinitions",
        "customresourcedefinition",
        False,
        ("crd", "crds"),
        ("api-extensions",),
        columns=(PrinterColumn("Created At", ".metadata.creationTimestamp", "date"),),
    ),
    Resource(
        OLM,
        "v1alpha1",
        "ClusterServiceVersion",
        "clusterserviceversions",
        "clusterserviceversion",
        True,
        ("csv", "csvs"),
        ("olm",),
        columns=(
            PrinterColumn("Display", ".spec.displayName", description="The name of the CSV"),
            PrinterColumn("Version", ".spec.version", description="The version of the CSV"),
            PrinterColumn(
                "Replaces", ".spec.replaces", description="The name of a CSV that this one replaces"
            ),
            PrinterColumn("Phase", ".status.phase"),
        ),
    ),
    Resource(
        OLM,
        "v1alpha1",
        "Subscription",
        "subscriptions",
        "subscription",
        True,
        ("sub", "subs"),
        ("olm",),
        columns=(
            PrinterColumn("Package", ".spec.name", description="The package subscribed to"),
            PrinterColumn(
                "Source", ".spec.source", description="The catalog source for the specified package"
            ),
            PrinterColumn(
                "Channel", ".spec.channel", description="The channel of updates to subscribe to"
            ),
        ),
    ),
    Resource(
        OLM,
        "v1alpha1",
        "InstallPlan",
        "installplans",
        "installplan",
        True,
        ("ip",),
        ("olm",),
        columns=(
            PrinterColumn(
                "CSV",
                ".spec.clusterServiceVersionNames[0]",
                description="The first CSV in the list of clusterServiceVersionNames",
            ),
            PrinterColumn("Approval", ".spec.approval", description="The approval mode"),
            PrinterColumn("Approved", ".spec.approved", "boolean"),
        ),
    ),
    Resource(
        OLM,
        "v1alpha1",
        "CatalogSource",
        "catalogsources",
        "catalogsource",
        True,
        ("catsrc",),
        ("olm",),
        columns=(
            PrinterColumn(
                "Display", ".spec.displayName", description="The pretty name of the catalog"
            ),
            PrinterColumn("Type", ".spec.sourceType", description="The type of the catalog"),
            PrinterColumn(
                "Publisher", ".spec.publisher", description="The publisher of the catalog"
            ),
            _AGE,
        ),
    ),
    Resource(
        OLM,
        "v1",
        "OperatorGroup",
        "operatorgroups",
        "operatorgroup",
        True,
        ("og",),
        ("olm",),
        columns=(_AGE,),
    ),
    Resource(
        OLM, "v1", "OLMConfig", "olmconfigs", "olmconfig", False, (), ("olm",), columns=(_AGE,)
    ),
    Resource(OLM, "v1", "Operator", "operators", "operator", False, (), ("olm",), columns=(_AGE,)),
    Resource(
        OLM,
        "v2",
        "OperatorCondition",
        "operatorconditions",
        "operatorcondition",
        True,
        ("condition",),
        ("olm",),
        columns=(_AGE,),
    ),
    # OpenShift's config API and the core Service: olmtui reads the ClusterVersion and
    # ClusterOperators for cluster upgrade readiness and Services for conversion webhooks.
    Resource(
        "config.openshift.io",
        "v1",
        "ClusterVersion",
        "clusterversions",
        "clusterversion",
        False,
        columns=(PrinterColumn("Version", ".status.desired.version"), _AGE),
    ),
    Resource(
        "config.openshift.io",
        "v1",
        "ClusterOperator",
        "clusteroperators",
        "clusteroperator",
        False,
        ("co",),
        columns=(_AGE,),
    ),
    Resource("", "v1", "Service", "services", "service", True, ("svc",), columns=(_AGE,)),
    # The evidence olmtui reads live by selector (R-EVD-1): catalog pods, bundle unpack Jobs,
    # the Deployments OLM makes for CSVs and the Events about all of them.
    Resource(
        "",
        "v1",
        "Pod",
        "pods",
        "pod",
        True,
        ("po",),
        ("all",),
        columns=(PrinterColumn("Status", ".status.phase"), _AGE),
    ),
    Resource(
        "",
        "v1",
        "Event",
        "events",
        "event",
        True,
        ("ev",),
        columns=(
            PrinterColumn("Type", ".type"),
            PrinterColumn("Reason", ".reason"),
            PrinterColumn("Object", ".involvedObject.name"),
            PrinterColumn("Message", ".message"),
        ),
    ),
    Resource("batch", "v1", "Job", "jobs", "job", True, (), ("all",), columns=(_AGE,)),
    Resource(
        "apps",
        "v1",
        "Deployment",
        "deployments",
        "deployment",
        True,
        ("deploy",),
        ("all",),
        columns=(PrinterColumn("Ready", ".status.readyReplicas", "integer"), _AGE),
    ),
    # packageserver's ClusterRole grants only get and list on packagemanifests, so the
    # loopback server refuses watches of them (405) and does not advertise the verb.
    Resource(
        "packages.operators.coreos.com",
        "v1",
        "PackageManifest",
        "packagemanifests",
        "packagemanifest",
        True,
        (),
        ("olm",),
        ("get", "list"),
        columns=(PrinterColumn("Catalog", ".status.catalogSourceDisplayName"), _AGE),
    ),
)


#: OLM v1 (operator-controller and catalogd): cluster-scoped, no short names; the columns
#: are the CRDs' ``+kubebuilder:printcolumn`` markers (api/v1 in operator-controller).
V1 = "olm.operatorframework.io"
V1_RESOURCES: tuple[Resource, ...] = (
    Resource(
        V1,
        "v1",
        "ClusterExtension",
        "clusterextensions",
        "clusterextension",
        False,
        columns=(
            PrinterColumn("Installed Bundle", ".status.install.bundle.name"),
            PrinterColumn("Version", ".status.install.bundle.version"),
            PrinterColumn("Installed", ".status.conditions[?(@.type=='Installed')].status"),
            PrinterColumn("Progressing", ".status.conditions[?(@.type=='Progressing')].status"),
            _AGE,
        ),
    ),
    Resource(
        V1,
        "v1",
        "ClusterCatalog",
        "clustercatalogs",
        "clustercatalog",
        False,
        columns=(
            PrinterColumn("LastUnpacked", ".status.lastUnpacked", "date"),
            PrinterColumn("Serving", '.status.conditions[?(@.type=="Serving")].status'),
            _AGE,
        ),
    ),
    *(
        Resource(
            V1,
            "v1",
            kind,
            f"{kind.lower()}s",
            kind.lower(),
            False,
            columns=(
                PrinterColumn("Available", ".status.conditions[?(@.type=='Available')].status"),
                PrinterColumn("Progressing", ".status.conditions[?(@.type=='Progressing')].status"),
                _AGE,
            ),
        )
        # operator-controller's revisions (api/v1/clusterobjectset_types.go) and their
        # older name: the same printer columns.
        for kind in ("ClusterObjectSet", "ClusterExtensionRevision")
    ),
)
RESOURCES = (*RESOURCES, *V1_RESOURCES)

_BY_KIND = {r.kind: r for r in RESOURCES}
_BY_PATH = {(r.group, r.version, r.plural): r for r in RESOURCES}
_BY_NAME: dict[str, Resource] = {}
for _r in RESOURCES:
    for _name in (_r.kind, _r.kind.lower(), _r.plural, _r.singular, *_r.short_names):
        _BY_NAME.setdefault(_name, _r)


def by_path(group: str, version: str, plural: str) -> Resource | None:
    """The resource served at ``/apis/<group>/<version>/<plural>`` (``group`` "" is core)."""
    return _BY_PATH.get((group, version, plural))


def by_kind(kind: str) -> Resource:
    """The resource of an object's ``kind``; ``KeyError`` for kinds the server does not keep."""
    return _BY_KIND[kind]


def lookup(name: str) -> Resource:
    """A resource by any of the names kubectl accepts: Kind, plural, singular or short name."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"the server doesn't have a resource type {name!r}") from None


def groups(hidden: Collection[str] = ()) -> dict[str, list[str]]:
    """Served groups (core excluded, and ``hidden`` ones) mapped to their versions, preferred
    version first."""
    out: dict[str, list[str]] = {}
    for r in RESOURCES:
        if r.group in hidden:
            continue
        if r.group and r.version not in out.setdefault(r.group, []):
            out[r.group].append(r.version)
    for versions in out.values():
        versions.sort(key=_version_priority)
    return out


def _version_priority(version: str) -> tuple[int, int, int]:
    """Kubernetes version priority: GA before beta before alpha, higher numbers first."""
    match = _VERSION.match(version)
    if match is None:
        return (3, 0, 0)
    major, stage, minor = match.groups()
    return (_STAGES[stage], -int(major), -int(minor or 0))


_VERSION = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")
_STAGES = {None: 0, "beta": 1, "alpha": 2}
