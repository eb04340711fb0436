"""The types of the fields olmtui reads, checked once where objects enter the cache (R-SRC-4).

The model trusts its input: it reads ``spec.version`` as a string and ``status.conditions``
as a list of mappings. Hand-edited snapshots, buggy operators and old API versions break that
trust, and one wrong-typed field used to end the whole run with a traceback. Here each kind
has a table of the fields the model, the report and the screens read, with the type each must
have; :func:`clean` gives back the object with every wrong-typed field removed (treated as
absent, as the rest of the object is still worth reading) and the list of what was wrong.

A field that is ``null`` is absent, as the API server's own decoding makes it: it is dropped
without a problem. Fields the tables do not name are kept as they are. The input is never
changed: what is cleaned is copied along its path only, so a well-typed object comes back as
the very same object.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from olmtui.frozen import frozen

#: A Kubernetes int64: the JSON report cannot write an integer past it.
_INT_LIMIT = 2**63


@frozen
class Problem:
    """One wrong-typed field: where (``spec.install.spec.deployments[0].name``), what the
    readers expect (``a string``) and what was there (``a number (5)``)."""

    path: str
    expected: str
    found: str


#: The origin of an object fed without one (``Malformed.origin``): a live cluster's.
LIVE = "live"


@frozen
class Malformed:
    """The problems of one cached object, and where it came from: ``file line N`` for a
    snapshot, ``live`` for an object served by the API server."""

    origin: str
    problems: tuple[Problem, ...]


class _Absent:
    """The result of cleaning a field that must go."""


ABSENT: Any = _Absent()


def describe(value: Any) -> str:
    """What a wrong value is, as a person says it, with a short, safe view of it."""
    if isinstance(value, bool):
        return f"a boolean ({'true' if value else 'false'})"
    if isinstance(value, int):
        if abs(value) >= 10**15:  # shown by size: a huge one may not even print
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"a number ({value})"
    if isinstance(value, float):
        return f"a number ({value:g})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string ({shown!r})"
    if isinstance(value, Mapping):
        return "a map"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


class Shape:
    """What one field must be. ``clean`` returns the value (the same object when nothing is
    wrong), a cleaned copy, or :data:`ABSENT`, appending what it found to ``out``."""

    expected = "anything"

    def clean(self, value: Any, path: str, out: list[Problem]) -> Any:
        raise NotImplementedError


class Leaf(Shape):
    """A scalar of one of ``types`` (a bool is never taken for a number)."""

    __slots__ = ("expected", "types")

    def __init__(self, expected: str, *types: type) -> None:
        self.expected = expected
        self.types = types

    def clean(self, value: Any, path: str, out: list[Problem]) -> Any:
        kind = type(value)
        if kind in self.types:
            if kind is int and not -_INT_LIMIT <= value < _INT_LIMIT:
                out.append(Problem(path, "an integer of at most 64 bits", describe(value)))
                return ABSENT
            return value
        if value is None:
            return ABSENT
        if not isinstance(value, bool) and any(isinstance(value, t) for t in self.types):
            return value  # a subclass (a YAML loader's own str, say)
        out.append(Problem(path, self.expected, describe(value)))
        return ABSENT


def _plain_types(shape: Shape) -> tuple[type, ...]:
    """The types a value of ``shape`` may have without a closer look: a leaf's, but int
    (which must fit 64 bits)."""
    return tuple(t for t in shape.types if t is not int) if isinstance(shape, Leaf) else ()


class Map(Shape):
    """A mapping; the named fields are checked, the others kept as they are."""

    __slots__ = ("fields", "plain")
    expected = "a map"

    def __init__(self, **fields: Shape) -> None:
        self.fields = fields
        #: Per field, the types that pass without a call (every object passes here).
        self.plain = {name: _plain_types(shape) for name, shape in fields.items()}

    def clean(self, value: Any, path: str, out: list[Problem]) -> Any:
        if not isinstance(value, dict):
            if value is not None:
                out.append(Problem(path, self.expected, describe(value)))
            return ABSENT
        cleaned = value
        plain = self.plain
        for name, shape in self.fields.items():
            if name not in value:
                continue
            field = value[name]
            if type(field) in plain[name]:
                continue
            kept = shape.clean(field, f"{path}.{name}" if path else name, out)
            if kept is not field:
                cleaned = _replaced(cleaned, value, name, kept)
        return cleaned


def _replaced(cleaned: dict[Any, Any], original: dict[Any, Any], key: Any, kept: Any) -> Any:
    """``cleaned`` with ``key`` set to ``kept`` (removed when ``ABSENT``), copied from
    ``original`` on the first change: the input object itself is never changed."""
    if cleaned is original:
        cleaned = dict(original)
    if kept is ABSENT:
        del cleaned[key]
    else:
        cleaned[key] = kept
    return cleaned


class Either(Shape):
    """A scalar or a mapping, as the readers take both (an OperatorGroup's
    ``upgradeStrategy``: ``Default`` or ``{name: Default}``)."""

    __slots__ = ("expected", "mapping", "scalar")

    def __init__(self, scalar: Leaf, mapping: Map) -> None:
        self.expected = f"{scalar.expected} or a map"
        self.scalar = scalar
        self.mapping = mapping

    def clean(self, value: Any, path: str, out: list[Problem]) -> Any:
        if isinstance(value, dict):
            return self.mapping.clean(value, path, out)
        found = len(out)
        kept = self.scalar.clean(value, path, out)
        if len(out) > found:
            out[found] = Problem(path, self.expected, out[found].found)
        return kept


class MapOf(Shape):
    """A mapping whose every value has one shape (labels: strings), but for the ``named``
    keys, which have their own."""

    __slots__ = ("named", "named_plain", "plain", "values")
    expected = "a map"

    def __init__(self, values: Shape, **named: Shape) -> None:
        self.values = values
        self.named = named
        #: a set, for the types of all the values to be checked in one C-level call
        self.plain = frozenset(_plain_types(values))
        self.named_plain = {name: _plain_types(shape) for name, shape in named.items()}

    def clean(self, value: Any, path: str, out: list[Problem]) -> Any:
        if not isinstance(value, dict):
            if value is not None:
                out.append(Problem(path, self.expected, describe(value)))
            return ABSENT
        if self.plain.issuperset(map(type, value.values())):
            for name, types in self.named_plain.items():
                if name in value and type(value[name]) not in types:
                    break
            else:
                return value  # the common case, without a call per value
        named = self.named
        cleaned = value
        for name, field in value.items():
            shape = named.get(name, self.values) if named else self.values
            kept = shape.clean(field, f"{path}[{name!r}]", out)
            if kept is not field:
                cleaned = _replaced(cleaned, value, name, kept)
        return cleaned


class ListOf(Shape):
    """A list whose every item has one shape; a wrong item is dropped from it."""

    __slots__ = ("item",)
    expected = "a list"

    def __init__(self, item: Shape) -> None:
        self.item = item

    def clean(self, value: Any, path: str, out: list[Problem]) -> Any:
        if not isinstance(value, list):
            if value is not None:
                out.append(Problem(path, self.expected, describe(value)))
            return ABSENT
        kept_items: list[Any] | None = None
        for at, item in enumerate(value):
            kept = self.item.clean(item, f"{path}[{at}]", out)
            if kept is item and kept_items is None:
                continue
            if kept_items is None:
                kept_items = list(value[:at])
            if kept is not ABSENT:
                kept_items.append(kept)
        return value if kept_items is None else kept_items


STR = Leaf("a string", str)
BOOL = Leaf("a boolean", bool)
INT = Leaf("an integer", int)
#: A time as the API writes it; YAML loaders turn an unquoted one into a datetime.
TIME = Leaf("a time (string)", str, dt.datetime)
#: A scalar rendered as text (a version a YAML loader read as a number, say).
SCALAR = Leaf("a string or a number", str, int, float)
STRINGS = ListOf(STR)
STRING_MAP = MapOf(STR)
#: Annotations: the ones the model parses must be strings; the others may be any scalar a
#: hand-written YAML file gives (an unquoted ``createdAt`` is a datetime), never a map or list.
ANNOTATIONS = MapOf(
    Leaf("a string", str, int, float, bool, dt.datetime, dt.date),
    **{
        name: STR
        for name in (
            "olm.operatorNamespace",
            "olm.operatorGroup",
            "olm.targetNamespaces",
            "olm.providedAPIs",
            "olm.skipRange",
            "operatorframework.io/properties",
        )
    },
)
CONDITIONS = ListOf(
    Map(
        type=STR,
        status=STR,
        reason=STR,
        message=STR,
        lastTransitionTime=TIME,
        lastUpdateTime=TIME,
        lastHeartbeatTime=TIME,
        observedGeneration=INT,
    )
)
SELECTOR = Map(
    matchLabels=STRING_MAP,
    matchExpressions=ListOf(Map(key=STR, operator=STR, values=STRINGS)),
)
OWNER_REFERENCES = ListOf(
    Map(apiVersion=STR, kind=STR, name=STR, uid=STR, controller=BOOL, blockOwnerDeletion=BOOL)
)
#: What is checked before the cache trims an object: the trimming reads these.
ENVELOPE = Map(
    apiVersion=STR,
    metadata=Map(
        name=STR,
        namespace=STR,
        uid=STR,
        resourceVersion=STR,
        generation=INT,
        creationTimestamp=TIME,
        deletionTimestamp=TIME,
        finalizers=STRINGS,
        labels=STRING_MAP,
        annotations=ANNOTATIONS,
        ownerReferences=OWNER_REFERENCES,
    ),
    spec=Map(),
    status=Map(),
)

_CRD_DESCRIPTION = Map(name=STR, version=STR, kind=STR, displayName=STR, description=STR)
_API_SERVICE = Map(name=STR, group=STR, version=STR, kind=STR, displayName=STR, deploymentName=STR)
_CSV = Map(
    spec=Map(
        version=STR,
        replaces=STR,
        skips=STRINGS,
        displayName=STR,
        description=STR,
        provider=Map(name=STR),
        minKubeVersion=STR,
        installModes=ListOf(Map(type=STR, supported=BOOL)),
        customresourcedefinitions=Map(
            owned=ListOf(_CRD_DESCRIPTION), required=ListOf(_CRD_DESCRIPTION)
        ),
        apiservicedefinitions=Map(owned=ListOf(_API_SERVICE), required=ListOf(_API_SERVICE)),
        install=Map(
            strategy=STR,
            spec=Map(
                deployments=ListOf(Map(name=STR, spec=Map(replicas=INT))),
                permissions=ListOf(Map(serviceAccountName=STR)),
                clusterPermissions=ListOf(Map(serviceAccountName=STR)),
            ),
        ),
        webhookdefinitions=ListOf(
            Map(type=STR, generateName=STR, deploymentName=STR, conversionCRDs=STRINGS)
        ),
        nativeAPIs=ListOf(Map(group=STR, version=STR, kind=STR)),
        relatedImages=ListOf(Map(name=STR, image=STR)),
        cleanup=Map(enabled=BOOL),
    ),
    status=Map(
        phase=STR,
        reason=STR,
        message=STR,
        lastTransitionTime=TIME,
        lastUpdateTime=TIME,
        conditions=ListOf(
            Map(phase=STR, reason=STR, message=STR, lastTransitionTime=TIME, lastUpdateTime=TIME)
        ),
        requirementStatus=ListOf(
            Map(
                group=STR,
                version=STR,
                kind=STR,
                name=STR,
                status=STR,
                message=STR,
                dependents=ListOf(Map(group=STR, version=STR, kind=STR, status=STR, message=STR)),
            )
        ),
        cleanup=Map(),
    ),
)
_SUBSCRIPTION = Map(
    spec=Map(
        name=STR,
        channel=STR,
        source=STR,
        sourceNamespace=STR,
        startingCSV=STR,
        installPlanApproval=STR,
        config=Map(),
    ),
    status=Map(
        state=STR,
        reason=STR,
        message=STR,
        currentCSV=STR,
        installedCSV=STR,
        installPlanGeneration=INT,
        lastUpdated=TIME,
        installPlanRef=Map(name=STR, namespace=STR, kind=STR, apiVersion=STR, uid=STR),
        installplan=Map(name=STR, kind=STR, apiVersion=STR),
        conditions=CONDITIONS,
        catalogHealth=ListOf(
            Map(
                catalogSourceRef=Map(name=STR, namespace=STR, kind=STR),
                healthy=BOOL,
                lastUpdated=TIME,
            )
        ),
    ),
)
_STEP = Map(
    resolving=STR,
    status=STR,
    optional=BOOL,
    resource=Map(
        group=STR,
        version=STR,
        kind=STR,
        name=STR,
        manifest=STR,
        sourceName=STR,
        sourceNamespace=STR,
    ),
)
_BUNDLE_LOOKUP = Map(
    path=STR,
    identifier=STR,
    replaces=STR,
    catalogSourceRef=Map(name=STR, namespace=STR),
    conditions=CONDITIONS,
    properties=STR,
)
_INSTALL_PLAN = Map(
    spec=Map(
        approval=STR,
        approved=BOOL,
        clusterServiceVersionNames=STRINGS,
        generation=INT,
        source=STR,
        sourceNamespace=STR,
    ),
    status=Map(
        phase=STR,
        message=STR,
        conditions=CONDITIONS,
        catalogSources=STRINGS,
        plan=ListOf(_STEP),
        bundleLookups=ListOf(_BUNDLE_LOOKUP),
        attenuatedServiceAccountRef=Map(name=STR, namespace=STR),
        startTime=TIME,
    ),
)
_OPERATOR_GROUP = Map(
    spec=Map(
        targetNamespaces=STRINGS,
        selector=SELECTOR,
        serviceAccountName=STR,
        staticProvidedAPIs=BOOL,
        upgradeStrategy=Either(STR, Map(name=STR)),
    ),
    status=Map(
        namespaces=STRINGS,
        lastUpdated=TIME,
        conditions=CONDITIONS,
        serviceAccountRef=Map(name=STR, namespace=STR),
    ),
)
_CATALOG_SOURCE = Map(
    spec=Map(
        sourceType=STR,
        image=STR,
        address=STR,
        configMap=STR,
        displayName=STR,
        publisher=STR,
        priority=INT,
        secrets=STRINGS,
        updateStrategy=Map(registryPoll=Map(interval=STR)),
        grpcPodConfig=Map(securityContextConfig=STR),
    ),
    status=Map(
        reason=STR,
        message=STR,
        latestImageRegistryPoll=TIME,
        connectionState=Map(address=STR, lastObservedState=STR, lastConnect=TIME),
        registryService=Map(
            serviceName=STR, serviceNamespace=STR, port=SCALAR, protocol=STR, createdAt=TIME
        ),
        conditions=CONDITIONS,
    ),
)
_OLM_CONFIG = Map(spec=Map(features=Map(disableCopiedCSVs=BOOL, packageServerSyncInterval=STR)))
_CHANNEL = Map(
    name=STR,
    currentCSV=STR,
    currentCSVDesc=Map(
        version=STR,
        displayName=STR,
        installModes=ListOf(Map(type=STR, supported=BOOL)),
        annotations=ANNOTATIONS,
        customresourcedefinitions=Map(
            owned=ListOf(_CRD_DESCRIPTION), required=ListOf(_CRD_DESCRIPTION)
        ),
        apiservicedefinitions=Map(owned=ListOf(_API_SERVICE), required=ListOf(_API_SERVICE)),
        relatedImages=STRINGS,
        provider=Map(name=STR),
    ),
    entries=ListOf(Map(name=STR, version=STR, deprecation=Map(message=STR))),
    deprecation=Map(message=STR),
)
_PACKAGE_MANIFEST = Map(
    status=Map(
        catalogSource=STR,
        catalogSourceNamespace=STR,
        catalogSourceDisplayName=STR,
        catalogSourcePublisher=STR,
        packageName=STR,
        defaultChannel=STR,
        channels=ListOf(_CHANNEL),
        provider=Map(name=STR),
        deprecation=Map(message=STR),
    )
)
_CRD = Map(
    spec=Map(
        group=STR,
        scope=STR,
        names=Map(kind=STR, plural=STR, singular=STR, listKind=STR),
        versions=ListOf(Map(name=STR, served=BOOL, storage=BOOL, deprecated=BOOL)),
        conversion=Map(
            strategy=STR,
            webhook=Map(
                conversionReviewVersions=STRINGS,
                clientConfig=Map(url=STR, service=Map(name=STR, namespace=STR, path=STR, port=INT)),
            ),
        ),
    ),
    status=Map(
        storedVersions=STRINGS, acceptedNames=Map(kind=STR, plural=STR), conditions=CONDITIONS
    ),
)
_OPERATOR_CONDITION = Map(
    spec=Map(
        deployments=STRINGS,
        serviceAccounts=STRINGS,
        conditions=CONDITIONS,
        overrides=CONDITIONS,
    ),
    status=Map(conditions=CONDITIONS),
)
_CLUSTER_VERSION = Map(
    status=Map(
        desired=Map(version=STR, image=STR),
        history=ListOf(Map(state=STR, version=STR, completionTime=TIME)),
        conditions=CONDITIONS,
    )
)
_CLUSTER_OPERATOR = Map(
    status=Map(
        conditions=CONDITIONS,
        relatedObjects=ListOf(Map(group=STR, resource=STR, name=STR, namespace=STR)),
    )
)
_SERVICE = Map(spec=Map(ports=ListOf(Map(name=STR, port=INT, targetPort=SCALAR, protocol=STR))))
_DEPLOYMENT = Map(
    spec=Map(replicas=INT),
    status=Map(replicas=INT, readyReplicas=INT, availableReplicas=INT, conditions=CONDITIONS),
)
_CLUSTER_EXTENSION = Map(
    spec=Map(
        namespace=STR,
        serviceAccount=Map(name=STR),
        source=Map(
            sourceType=STR,
            catalog=Map(
                packageName=STR,
                version=STR,
                channels=STRINGS,
                selector=SELECTOR,
                upgradeConstraintPolicy=STR,
            ),
        ),
        install=Map(preflight=Map(crdUpgradeSafety=Map(enforcement=STR))),
        progressDeadlineMinutes=INT,
    ),
    status=Map(
        conditions=CONDITIONS,
        install=Map(bundle=Map(name=STR, version=STR)),
        # R-V1-24: the revisions not archived, with their conditions.
        activeRevisions=ListOf(Map(name=STR, conditions=CONDITIONS)),
    ),
)
#: R-V1-24: a ClusterObjectSet (or ClusterExtensionRevision), as far as olmtui reads it.
_REVISION = Map(
    spec=Map(
        lifecycleState=STR,
        revision=INT,
        progressDeadlineMinutes=INT,
        collisionProtection=STR,
        phases=ListOf(Map(name=STR, collisionProtection=STR)),
    ),
    status=Map(conditions=CONDITIONS),
)
_CLUSTER_CATALOG = Map(
    spec=Map(
        priority=INT,
        availabilityMode=STR,
        source=Map(type=STR, image=Map(ref=STR, pollIntervalMinutes=INT, pollInterval=STR)),
    ),
    status=Map(
        conditions=CONDITIONS,
        lastUnpacked=TIME,
        resolvedSource=Map(type=STR, image=Map(ref=STR)),
        urls=Map(base=STR),
    ),
)
_NAMESPACE = Map(spec=Map(finalizers=STRINGS), status=Map(phase=STR, conditions=CONDITIONS))

#: Per kind, the fields beyond :data:`ENVELOPE` that olmtui reads, with their types.
SHAPES: dict[str, Shape] = {
    "ClusterServiceVersion": _CSV,
    "Subscription": _SUBSCRIPTION,
    "InstallPlan": _INSTALL_PLAN,
    "OperatorGroup": _OPERATOR_GROUP,
    "CatalogSource": _CATALOG_SOURCE,
    "OLMConfig": _OLM_CONFIG,
    "PackageManifest": _PACKAGE_MANIFEST,
    "CustomResourceDefinition": _CRD,
    "OperatorCondition": _OPERATOR_CONDITION,
    "ClusterVersion": _CLUSTER_VERSION,
    "ClusterOperator": _CLUSTER_OPERATOR,
    "Service": _SERVICE,
    "Deployment": _DEPLOYMENT,
    "ClusterExtension": _CLUSTER_EXTENSION,
    "ClusterCatalog": _CLUSTER_CATALOG,
    "ClusterObjectSet": _REVISION,
    "ClusterExtensionRevision": _REVISION,
    "Namespace": _NAMESPACE,
}


def clean_envelope(obj: dict[str, Any], out: list[Problem]) -> dict[str, Any]:
    """The object with its metadata and sections of the right types, for the cache's
    trimming to read. ``metadata.name`` must be a string: without it the object has no
    key, so the caller drops it (``obj`` comes back without a name)."""
    cleaned: dict[str, Any] = ENVELOPE.clean(obj, "", out)
    return cleaned


def clean(kind: str, obj: dict[str, Any], out: list[Problem]) -> dict[str, Any]:
    """The (trimmed) object with every wrong-typed field of its kind's table removed."""
    shape = SHAPES.get(kind)
    if shape is None:
        return obj
    cleaned: dict[str, Any] = shape.clean(obj, "", out)
    return cleaned
