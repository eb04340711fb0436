"""The local state cache: OLM objects by kind, namespace and name, plus a change feed.

Every source (snapshot files, the live watcher) feeds objects in through :meth:`Store.apply`
or :meth:`Store.replace`; the reconciliation model and the screens read from here and
subscribe to the change feed. Objects are trimmed on the way in so that a hundred
thousand copied CSVs fit in memory: ``managedFields`` and the last-applied annotation are
dropped, CSV icons are dropped, and copied CSVs keep only their metadata plus
phase/reason/message (R-COPY-1 decides what is a copy). Before that, the types of the fields
olmtui reads are checked (``olmtui.shape``, R-SRC-4): a wrong-typed field is left out of the
cached object and recorded in :attr:`Store.malformed`, so the model can trust what it reads.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, Literal

from olmtui.frozen import frozen
from olmtui.gc_pause import cyclic_gc_paused
from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CLUSTER_EXTENSION_REVISION,
    CLUSTER_OBJECT_SET,
    CLUSTER_OPERATOR,
    CLUSTER_VERSION,
    CRD,
    CSV,
    DEPLOYMENT,
    EVENT,
    INSTALL_PLAN,
    JOB,
    NAMESPACE,
    OLM_CONFIG,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    PACKAGE_MANIFEST,
    POD,
    SERVICE,
    SUBSCRIPTION,
)
from olmtui.objects import COPIED_FROM_LABEL as COPIED_FROM_LABEL  # re-exported
from olmtui.objects import OPERATOR_NAMESPACE_ANNOTATION as OPERATOR_NAMESPACE_ANNOTATION
from olmtui.objects import Obj as Obj  # re-exported: the cache hands out these objects
from olmtui.objects import is_copied_csv as is_copied_csv  # re-exported: R-COPY-1
from olmtui.objects import meta
from olmtui.shape import LIVE as LIVE  # re-exported: the origin of objects fed live
from olmtui.shape import Malformed as Malformed  # re-exported: the model reads these records
from olmtui.shape import Problem, clean, clean_envelope
from olmtui.store_evidence import EVENT_SUBJECT_KINDS as EVENT_SUBJECT_KINDS  # re-exported
from olmtui.store_evidence import (
    EVENTS_PER_OBJECT,
    crd_sections,
    event_time,
    keeps_event,
    trim_evidence,
)
from olmtui.store_evidence import event_subject as event_subject  # re-exported: R-EVD-1
from olmtui.store_logs import LogFileRead as LogFileRead  # re-exported: read through the cache
from olmtui.store_logs import LogLine as LogLine
from olmtui.store_logs import LogStore
from olmtui.store_revisions import REVISION_KINDS, trim_revision

ChangeType = Literal["ADDED", "MODIFIED", "DELETED"]

#: The kinds olmtui keeps; everything else is counted and ignored.
KINDS: tuple[str, ...] = (
    NAMESPACE,
    OPERATOR_GROUP,
    CSV,
    SUBSCRIPTION,
    INSTALL_PLAN,
    CATALOG_SOURCE,
    OLM_CONFIG,
    PACKAGE_MANIFEST,
    CRD,
    OPERATOR_CONDITION,
    CLUSTER_VERSION,
    CLUSTER_OPERATOR,
    SERVICE,
    DEPLOYMENT,
    # OLM v1 (olm.operatorframework.io/v1, R-V1-1): both cluster-scoped.
    CLUSTER_EXTENSION,
    CLUSTER_CATALOG,
    # Their revisions (R-V1-24), trimmed to names and references (``store_revisions``).
    CLUSTER_OBJECT_SET,
    CLUSTER_EXTENSION_REVISION,
    # Evidence (R-EVD-1): trimmed hard, Events capped per involved object.
    POD,
    JOB,
    EVENT,
)
CLUSTER_SCOPED: frozenset[str] = frozenset(
    {
        NAMESPACE,
        OLM_CONFIG,
        CRD,
        CLUSTER_VERSION,
        CLUSTER_OPERATOR,
        CLUSTER_EXTENSION,
        CLUSTER_CATALOG,
        CLUSTER_OBJECT_SET,
        CLUSTER_EXTENSION_REVISION,
    }
)
#: Kinds kept for a few platform rules (cluster upgrade readiness, conversion webhooks), not
#: OLM's own: trimmed hard on the way in (``_trim_platform``).
PLATFORM_KINDS: frozenset[str] = frozenset({CLUSTER_VERSION, CLUSTER_OPERATOR, SERVICE})
#: A Service keeps its ports only when they are this few.
_FEW_PORTS = 8
#: A ClusterOperator keeps this many of its ``status.versions``.
_FEW_VERSIONS = 8
#: Kinds kept when a snapshot holds them but never watched on a live cluster: a cluster has
#: many Services, and the findings need only the few its conversion webhooks name
#: (R-DOC-17). Deployments, Pods, Jobs and Events are watched live, but only those a label
#: or field selector picks (R-EVD-1, ``sources/cluster/live_resources.py``).
SNAPSHOT_ONLY_KINDS: frozenset[str] = frozenset({SERVICE})
#: The kinds a live cluster (and the demo's server) is read for; of Deployments, Pods, Jobs
#: and Events only the selected ones.
WATCHED_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k not in SNAPSHOT_ONLY_KINDS)
#: Namespaced kinds :meth:`Store.list` reads one namespace of through an index of their
#: names by namespace, not a pass over the kind: a must-gather holds 100,000 Events and
#: 10,000 Pods, and a namespace's timeline (R-EVD-11) or its install pods (R-EVD-9) need
#: that namespace's few. CSVs, Subscriptions and OperatorGroups are not here: the model
#: indexes them by namespace (``Model.installed_csvs_by_namespace``,
#: ``subscriptions_by_namespace``, ``operator_groups_in``), and the copies, most of the
#: CSVs, are no part of a namespace's story.
NAMESPACE_INDEXED: frozenset[str] = frozenset(
    {INSTALL_PLAN, CATALOG_SOURCE, OPERATOR_CONDITION, SERVICE, DEPLOYMENT, POD, JOB, EVENT}
)

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


@frozen
class Key:
    """Identity of a cached object. ``namespace`` is ``""`` for cluster-scoped kinds.

    PackageManifest names are not unique within a namespace when two catalogs ship the same
    package, so their ``name`` is ``<catalog>/<package>`` when the ``catalog`` label is set.
    """

    kind: str
    namespace: str
    name: str


@frozen
class Change:
    """One entry of the change feed: what happened to which object, with both states."""

    type: ChangeType
    key: Key
    old: Obj | None
    new: Obj | None


Listener = Callable[[list[Change]], None]
#: Where an object came from, for its ``MalformedObject`` finding (R-SRC-4): given the
#: object, a snapshot's ``file line N``; objects fed without one are a live cluster's.
Origin = Callable[[Obj], str]

#: The ``Key.kind`` of the changes that say a kind became unreadable (ADDED) or readable
#: again (DELETED); ``Key.name`` is the kind. Not an object kind: readers that index objects
#: by kind never see it as one.
ACCESS = "olmtui.access"
#: The ``Key.kind`` of the change that says catalog content a live source fetches itself
#: (ClusterCatalogs from catalogd, R-V1-21) arrived or changed; ``Key.name`` says whose.
#: Not an object kind either: it lets what reads catalog content (the upgrade graphs, the
#: v1 findings, the screens) re-derive through the one feed they already follow.
CATALOG_CONTENT = "olmtui.catalog-content"


@frozen
class ContentNews:
    """What changed in the content fetched for one catalog, for the change log."""

    catalog: str
    message: str
    severity: str = "info"


@frozen
class Unreadable:
    """A kind the source may not read (RBAC said 403): its cached objects, if any, are the
    last ones seen, and its absence proves nothing. ``resource`` is the plural the API
    uses; ``since`` is when access was lost (epoch seconds); ``recheck`` is how often the
    source asks again (seconds), ``None`` when it does not (a one-shot read);
    ``namespaces`` are where it may not be read when that is only some namespaces (a
    ``--namespace`` session), ``None`` when it is everywhere."""

    resource: str
    reason: str
    since: float
    recheck: float | None = None
    namespaces: tuple[str, ...] | None = None

    @property
    def scope(self) -> str:
        """What cannot be read, as a user says it: ``subscriptions in team-a, team-b``."""
        if self.namespaces is None:
            return self.resource
        return f"{self.resource} in {', '.join(self.namespaces)}"


def slot_of(obj: Obj) -> tuple[str, str]:
    """The (namespace, name) part of a (well-formed) object's cache key."""
    kind = obj["kind"]
    meta = obj["metadata"]
    name = meta["name"]
    namespace = "" if kind in CLUSTER_SCOPED else (meta.get("namespace") or "")
    if kind == PACKAGE_MANIFEST:
        catalog = (meta.get("labels") or {}).get("catalog")
        if catalog:
            name = f"{catalog}/{name}"
    return namespace, name


def key_of(obj: Obj) -> Key:
    """The cache key of a (well-formed) object."""
    return Key(obj["kind"], *slot_of(obj))


#: Where a bucket keeps one object: ``(namespace, name)``, or the name alone for a
#: cluster-scoped kind (its namespace is always ``""``).
Slot = tuple[str, str] | str


def _slot(kind: str, namespace: str, name: str) -> Slot:
    """The bucket key of an object: a tuple per cached Namespace (or any cluster-scoped
    object) was 72 of the ~550 bytes each of a million costs."""
    return name if kind in CLUSTER_SCOPED else (namespace, name)


@frozen(eq=False)
class NameOnly:
    """A form of cluster-scoped object whose every field but its name is fixed: a bare
    Namespace, or one a snapshot loader made up. The cache keeps the form in the object's
    place and builds the object anew, equal to the one fed, each time it is read: 400,000
    such Namespaces were two to four dicts each, ~300 MB."""

    kind: str
    build: Callable[[str], Obj]


def bare_namespace(name: str) -> Obj:
    """A Namespace that says nothing but its name (a hand-written list, a hostile one)."""
    return {"apiVersion": "v1", "kind": NAMESPACE, "metadata": {"name": name}}


BARE_NAMESPACE = NameOnly(NAMESPACE, bare_namespace)
#: The apiVersion of an OperatorGroup kept as :data:`GroupTargets`.
_GROUP_API_VERSION = "operators.coreos.com/v1"
#: A bare OperatorGroup as a bucket keeps it: the names its ``spec.targetNamespaces`` lists,
#: in order. A group that says nothing but its name, namespace and target list (a hand-written
#: one, a hostile file of 400,000) was three dicts and a list, ~600 bytes; this is ~60.
GroupTargets = tuple[str, ...]
#: What a bucket keeps for one object: the object, or the form it is built from.
Held = Obj | NameOnly | GroupTargets


def bare_group(namespace: str, name: str, targets: GroupTargets) -> Obj:
    """The OperatorGroup a :data:`GroupTargets` stands for, built anew on each read."""
    return {
        "apiVersion": _GROUP_API_VERSION,
        "kind": OPERATOR_GROUP,
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"targetNamespaces": list(targets)},
    }


def _group_targets(obj: Obj) -> GroupTargets | None:
    """A trimmed OperatorGroup as :data:`GroupTargets`, when :func:`bare_group` builds it
    back equal and with its keys in the same order (what a reader iterates, ``y`` shows);
    ``None`` for any other."""
    if obj.get("apiVersion") != _GROUP_API_VERSION or list(obj) != _GROUP_FIELDS:
        return None
    group_meta, group_spec = obj["metadata"], obj["spec"]
    if type(group_meta) is not dict or list(group_meta) != _GROUP_METADATA:
        return None
    if type(group_spec) is not dict or list(group_spec) != _GROUP_SPEC:
        return None
    listed = group_spec["targetNamespaces"]
    if type(listed) is not list or not all(type(n) is str for n in listed):
        return None
    if type(group_meta["name"]) is not str or type(group_meta["namespace"]) is not str:
        return None
    return tuple(listed)


_GROUP_FIELDS = ["apiVersion", "kind", "metadata", "spec"]
_GROUP_METADATA = ["name", "namespace"]
_GROUP_SPEC = ["targetNamespaces"]


def _unslot(slot: Slot) -> tuple[str, str]:
    """The ``(namespace, name)`` of a bucket key."""
    return ("", slot) if isinstance(slot, str) else slot


def _interned_map(mapping: Any) -> Any:
    """Labels or annotations with their keys and string values interned: the copies of one
    CSV carry the same ones (alm-examples and all) in every namespace, and then share them."""
    if not isinstance(mapping, dict):
        return mapping
    intern = sys.intern
    return {intern(k): intern(v) if type(v) is str else v for k, v in mapping.items()}


def _interned_keys(mapping: Obj) -> Obj:
    """A copy of an object's top level or metadata with its keys interned: the parser makes
    a new ``"apiVersion"``, ``"metadata"``, ``"name"``... for every object, a third of what a
    million small objects (Namespaces) hold in the cache."""
    intern = sys.intern
    return {intern(k) if type(k) is str else k: v for k, v in mapping.items()}


_COPY_METADATA_FIELDS = (
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "creationTimestamp",
    "deletionTimestamp",
    "labels",
    "annotations",
)
#: Metadata strings many objects repeat (a copy's name is its parent's in every namespace).
#: uid and resourceVersion are unique to one object: interning them would only grow the
#: interpreter's intern table.
_SHARED_METADATA_STRINGS = ("name", "namespace", "creationTimestamp")


class SharedMaps:
    """One dict for the many equal label and annotation maps of copied CSVs: OLM writes a
    CSV's labels and annotations (alm-examples and all) into every copy. The last map kept
    for a copy's name is the candidate, compared in full, so a map that differs is never
    shared; a hit costs one comparison instead of building and interning a new map. The
    snapshot parse hands every copy of a CSV the one map it read (``fast_yaml``): the map it
    came from, kept too, makes that hit an identity test."""

    def __init__(self) -> None:
        self._last: dict[tuple[str, str], Obj] = {}
        self._source: dict[tuple[str, str], Obj] = {}

    def share(self, name: str, field: str, mapping: Any) -> Any:
        if not isinstance(mapping, dict):
            return mapping
        slot = (name, field)
        last = self._last.get(slot)
        if last is not None and (self._source[slot] is mapping or last == mapping):
            return last
        kept = _interned_map(mapping)
        self._last[slot] = kept
        self._source[slot] = mapping
        return kept


def _copy_metadata(meta: Obj, shared: SharedMaps) -> Obj:
    """The metadata a copied CSV keeps, with its repeated strings interned and its labels and
    annotations shared with the other copies of its CSV."""
    kept = {k: meta[k] for k in _COPY_METADATA_FIELDS if k in meta}
    for field in _SHARED_METADATA_STRINGS:
        value = kept.get(field)
        if type(value) is str:
            kept[field] = sys.intern(value)
    name = str(kept.get("name") or "")
    annotations = kept.get("annotations")
    if annotations and LAST_APPLIED in annotations:
        kept["annotations"] = _without_last_applied(annotations)
    for field in ("labels", "annotations"):
        if field in kept:
            kept[field] = shared.share(name, field, kept[field])
    return kept


def _without_last_applied(annotations: dict[str, str]) -> dict[str, str]:
    """kubectl's copy of the whole object it applied: large, and never read."""
    return {k: v for k, v in annotations.items() if k != LAST_APPLIED}


def _trim_platform(obj: Obj, kind: str) -> Obj:
    """A ClusterVersion, ClusterOperator or Service as the platform rules read it: identity,
    and the few status or spec fields those rules use (the history's versions and states,
    the conditions, a Service's ports when few)."""
    obj_meta = meta(obj)
    fields = ("name", "namespace", "uid", "resourceVersion", "creationTimestamp")
    kept_meta = {k: obj_meta[k] for k in (*fields, "ownerReferences") if k in obj_meta}
    kept: Obj = {"apiVersion": obj.get("apiVersion", ""), "kind": kind, "metadata": kept_meta}
    if kind == SERVICE:
        ports = (obj.get("spec") or {}).get("ports")
        if isinstance(ports, list) and len(ports) <= _FEW_PORTS:
            kept["spec"] = {"ports": ports}
        return kept
    status = obj.get("status") or {}
    kept_status = {k: status[k] for k in ("conditions", "desired") if k in status}
    history = status.get("history")
    if isinstance(history, list):
        kept_status["history"] = [
            {k: h[k] for k in ("state", "version", "completionTime") if k in h}
            for h in history
            if isinstance(h, dict)
        ]
    related = status.get("relatedObjects")
    if kind == CLUSTER_OPERATOR and isinstance(related, list):
        # the namespaces it manages (R-EVD-8), not the many other objects it lists
        namespaces = [
            {k: o[k] for k in ("group", "resource", "name") if k in o}
            for o in related
            if isinstance(o, dict) and o.get("resource") == "namespaces"
        ]
        if namespaces:
            kept_status["relatedObjects"] = namespaces[:_FEW_VERSIONS]
    versions = status.get("versions")
    if kind == CLUSTER_OPERATOR and isinstance(versions, list):
        # what the operator runs, e.g. OLM's (the report's ``source.olmVersion``)
        kept_status["versions"] = [
            {k: v[k] for k in ("name", "version") if k in v}
            for v in versions[:_FEW_VERSIONS]
            if isinstance(v, dict)
        ]
    if kept_status:
        kept["status"] = kept_status
    return kept


_DEPLOYMENT_METADATA = ("name", "namespace", "labels", "ownerReferences", "resourceVersion")
_DEPLOYMENT_STATUS = ("replicas", "readyReplicas", "availableReplicas", "conditions")


def _trim_deployment(obj: Obj) -> Obj:
    """A Deployment as the CSV findings read it (R-CSV-I): who owns it, how many replicas it
    wants and has, its conditions, and the labels its selector matches its pods by (R-EVD-9);
    its pod template (most of it) is dropped."""
    obj_meta = meta(obj)
    obj_spec = obj.get("spec") or {}
    obj_status = obj.get("status") or {}
    kept_spec: Obj = {"replicas": obj_spec["replicas"]} if "replicas" in obj_spec else {}
    selector = obj_spec.get("selector")
    match = selector.get("matchLabels") if isinstance(selector, dict) else None
    if isinstance(match, dict):
        kept_spec["selector"] = {"matchLabels": match}
    kept: Obj = {
        "apiVersion": obj.get("apiVersion", "apps/v1"),
        "kind": DEPLOYMENT,
        "metadata": {k: obj_meta[k] for k in _DEPLOYMENT_METADATA if k in obj_meta},
        "spec": kept_spec,
        "status": {k: obj_status[k] for k in _DEPLOYMENT_STATUS if k in obj_status},
    }
    return kept


def _interned_names(names: Any) -> Any:
    """A list of namespace names with each interned (the cache's namespaces already are)."""
    if not isinstance(names, list):
        return names
    return [sys.intern(n) if type(n) is str else n for n in names]


def _intern_group_names(group: Obj) -> None:
    """An OperatorGroup's name and the namespaces its spec lists, interned in the trimmed
    copy: 400,000 groups each named ``og`` over their own namespace held two strings each
    that other objects hold already (~110 bytes a group)."""
    group_meta = group["metadata"]
    if type(group_meta.get("name")) is str:
        group_meta["name"] = sys.intern(group_meta["name"])
    group_spec = group.get("spec")
    if isinstance(group_spec, dict) and isinstance(group_spec.get("targetNamespaces"), list):
        group_spec = {
            **group_spec,
            "targetNamespaces": _interned_names(group_spec["targetNamespaces"]),
        }
        group["spec"] = group_spec


def _names(names: str | tuple[str, ...]) -> tuple[str, ...]:
    """A namespace's OperatorGroup names as the cache keeps them (``Store._groups_in``)."""
    return (names,) if isinstance(names, str) else names


def trim(obj: Obj, shared: SharedMaps | None = None) -> Obj:
    """Return the object as the cache keeps it (see the module docstring). ``shared`` lets
    the copies of one CSV share their labels and annotations."""
    kind = obj.get("kind")
    if kind == CSV and is_copied_csv(obj):
        # Read inline, not through objects.meta/status: copies come by the hundred thousand.
        obj_status = obj.get("status") or {}
        return {
            "apiVersion": sys.intern(obj.get("apiVersion", "operators.coreos.com/v1alpha1")),
            "kind": CSV,
            "metadata": _copy_metadata(obj.get("metadata") or {}, shared or SharedMaps()),
            "status": _interned_map(
                {k: obj_status[k] for k in ("phase", "reason", "message") if k in obj_status}
            ),
        }
    if kind in PLATFORM_KINDS:
        return _trim_platform(obj, kind)
    if kind == DEPLOYMENT:
        return _trim_deployment(obj)
    evidence = trim_evidence(obj)
    if evidence is not None:
        return evidence
    if kind in REVISION_KINDS:
        return trim_revision(obj)
    kept_meta = _interned_keys(meta(obj))
    kept_meta.pop("managedFields", None)
    if type(kept_meta.get("namespace")) is str:
        kept_meta["namespace"] = sys.intern(kept_meta["namespace"])
    annotations = kept_meta.get("annotations")
    if annotations and LAST_APPLIED in annotations:
        kept_meta["annotations"] = _without_last_applied(annotations)
    # Other objects are few next to the copies: only their labels (which selectors and the
    # model read, and which repeat) are interned, not the rest of the tree.
    if "labels" in kept_meta:
        kept_meta["labels"] = _interned_map(kept_meta["labels"])
    trimmed = _interned_keys(obj)
    trimmed["metadata"] = kept_meta
    for field in ("apiVersion", "kind"):
        if type(trimmed.get(field)) is str:
            trimmed[field] = sys.intern(trimmed[field])
    if kind == OPERATOR_GROUP:
        _intern_group_names(trimmed)
    if kind == CSV:
        spec = trimmed.get("spec")
        if isinstance(spec, dict) and "icon" in spec:
            trimmed["spec"] = {k: v for k, v in spec.items() if k != "icon"}
    if kind == CRD:
        # R-EVD-4, R-EVD-5: no schemas; a CRD of an operator is mostly its schema
        trimmed["spec"], trimmed["status"] = crd_sections(obj)
    return trimmed


def _unchanged(old: Obj, new: Obj) -> bool:
    """Whether a trimmed object equals the cached one. The API server gives every write a new
    resourceVersion, so two different ones settle it without walking a whole CSV; objects
    without one (hand-written files) or with the same one (a relist) are compared in full."""
    old_version = old["metadata"].get("resourceVersion")
    new_version = new["metadata"].get("resourceVersion")
    if old_version and new_version and old_version != new_version:
        return False
    return old == new


def _access_obj(kind: str, unreadable: Unreadable) -> Obj:
    return {
        "kind": ACCESS,
        "metadata": {"name": kind},
        "status": {"resource": unreadable.scope, "reason": unreadable.reason},
    }


class HeldFeed:
    """The changes a store publishes while its feed is held (``Store.hold_feed``): handed at
    once to the one subscriber passing, kept in order for the others. :meth:`release`
    hands them on, as they were published; :meth:`close` lets them go, for a caller that
    put every object back as it was (a simulation's trial: those subscribers, a model and
    what follows it, never needed to follow the change and its undoing)."""

    def __init__(self, store: Store, passing: Listener) -> None:
        self._store = store
        self._passing = passing
        self._kept: list[list[Change]] = []

    def keep(self, changes: list[Change]) -> None:
        self._passing(changes)
        self._kept.append(changes)

    def release(self) -> None:
        """Hand the changes kept on to the other subscribers and stop holding."""
        kept, self._kept = self._kept, []
        self._store._stop_holding(self)
        for changes in kept:
            for listener in list(self._store._listeners):
                if listener != self._passing:
                    listener(changes)

    def close(self) -> None:
        """Stop holding, letting what is kept go (nothing, once released)."""
        self._kept = []
        self._store._stop_holding(self)


class Store:
    """Objects by kind, namespace and name, and the feed of changes made to them.

    ``apply`` and ``replace`` return the changes they made and also hand them to every
    subscriber, in order, so a consumer that subscribes before the first load sees every
    object exactly once.
    """

    def __init__(self) -> None:
        self._objects: dict[str, dict[Slot, Held]] = {k: {} for k in KINDS}
        #: The name-only forms an object of these kinds is kept as when it equals one.
        self._forms: dict[str, tuple[NameOnly, ...]] = {NAMESPACE: (BARE_NAMESPACE,)}
        self._listeners: list[Listener] = []
        #: While a feed is held (:meth:`hold_feed`), what it keeps back, else ``None``.
        self._feed_held: HeldFeed | None = None
        self._shared = SharedMaps()
        #: The cached objects that had wrong-typed fields (R-SRC-4), by key: those fields are
        #: absent from the cached object, and these records say what they were.
        self.malformed: dict[Key, Malformed] = {}
        #: Kinds the source could not read, set and cleared by the source (snapshots never).
        self.unreadable: dict[str, Unreadable] = {}
        #: The namespaces namespaced kinds were read in (a ``--namespace`` session), ``None``
        #: when they were read cluster-wide. Set by the source before it feeds anything and
        #: fixed for the session: objects elsewhere are unknown, not absent.
        self.read_namespaces: frozenset[str] | None = None
        #: The cached Events' slots per involved object, for the cap (R-EVD-1).
        self._events_of: dict[tuple[str, str, str], list[Slot]] = {}
        #: Events let go of for the cap, published with the change that made room.
        self._evicted: list[Change] = []
        #: OLM's log lines a must-gather holds, indexed by the objects they name (R-EVD-10).
        self.logs = LogStore()
        #: The names cached per namespace, for the kinds of :data:`NAMESPACE_INDEXED`, in
        #: the order their bucket holds them.
        self._names_in: dict[str, dict[str, dict[str, None]]] = {k: {} for k in NAMESPACE_INDEXED}
        #: The OperatorGroups' names per namespace, one name or a tuple of more, in the
        #: order their bucket holds them: the rules ask each namespace's groups (R-RES-3,
        #: R-SUB-9), and a pass over every group each time was quadratic in namespaces.
        #: One entry a namespace: a dict of names each, as above, cost 400,000 groups 90 MB.
        self._groups_in: dict[str, str | tuple[str, ...]] = {}

    def copy(self) -> Store:
        """A cache holding the same objects, with no subscriber: a change to it (a whatif,
        a remedy tried, ``pipeline/simulation.py``) leaves this one as it is. The objects
        are shared, never copied: the cache replaces an object, it never edits one."""
        other = Store()
        other._objects = {kind: dict(bucket) for kind, bucket in self._objects.items()}
        other._forms = dict(self._forms)
        other.malformed = dict(self.malformed)
        other.unreadable = dict(self.unreadable)
        other.read_namespaces = self.read_namespaces
        other._events_of = {subject: list(s) for subject, s in self._events_of.items()}
        other.logs = self.logs  # read-only once loaded: a trial adds no log line
        other._names_in = {
            kind: {namespace: dict(names) for namespace, names in by_namespace.items()}
            for kind, by_namespace in self._names_in.items()
        }
        other._groups_in = dict(self._groups_in)
        return other

    # -- compact forms -------------------------------------------------------------------
    def add_form(self, form: NameOnly) -> None:
        """Keep objects equal to ``form`` built for their name as ``form`` alone (a loader
        says which objects it makes up); reading them is unchanged."""
        if form.kind not in CLUSTER_SCOPED:
            raise ValueError(f"a name-only form is for a cluster-scoped kind, not {form.kind}")
        forms = self._forms.get(form.kind, ())
        if form not in forms:
            self._forms[form.kind] = (*forms, form)

    def _compact(self, kind: str, name: str, obj: Obj) -> Held:
        """What the bucket keeps for ``obj``: its name-only form when it has one, a bare
        OperatorGroup's targets."""
        if kind == OPERATOR_GROUP:
            targets = _group_targets(obj)
            return obj if targets is None else targets
        for form in self._forms.get(kind, ()):
            if obj == form.build(name):
                return form
        return obj

    @staticmethod
    def _held(slot: Slot, held: Held) -> Obj:
        """The object a bucket keeps under ``slot``, built when kept as its form."""
        if type(held) is NameOnly:
            return held.build(slot)  # type: ignore[arg-type]  # forms: cluster-scoped, a name
        if type(held) is tuple:
            namespace, name = _unslot(slot)
            return bare_group(namespace, name, held)
        return held  # type: ignore[return-value]

    def _found(self, slot: Slot, held: Held | None) -> Obj | None:
        return None if held is None else self._held(slot, held)

    # -- feeding -------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _emit(self, changes: list[Change]) -> None:
        if not changes:
            return
        if self._feed_held is not None:
            self._feed_held.keep(changes)
            return
        for listener in list(self._listeners):
            listener(changes)

    def hold_feed(self, passing: Listener) -> HeldFeed:
        """Keep back the changes published from now on from every subscriber but
        ``passing``, until the feed is released or closed (:class:`HeldFeed`)."""
        if self._feed_held is not None:
            raise RuntimeError("the store's feed is held already")
        self._feed_held = HeldFeed(self, passing)
        return self._feed_held

    def _stop_holding(self, feed: HeldFeed) -> None:
        if self._feed_held is feed:
            self._feed_held = None

    def _keeps(self, obj: Any) -> bool:
        """Whether ``obj`` is an object of a kind the cache keeps (a live list may hold
        anything)."""
        if not isinstance(obj, dict):
            return False
        kind = obj.get("kind")
        if kind == EVENT:
            return keeps_event(obj)  # R-EVD-1: only Events about OLM's objects and theirs
        return type(kind) is str and kind in self._objects

    def _room_for_event(self, slot: Slot, event: Obj) -> bool:
        """Make room for a new Event under its involved object's cap (R-EVD-1) by letting go
        of the oldest kept; ``False`` when the new one is itself the oldest."""
        subject = event_subject(event)
        if subject is None:
            return True
        slots = self._events_of.setdefault(subject, [])
        bucket = self._objects[EVENT]
        if len(slots) >= EVENTS_PER_OBJECT:
            oldest = min(slots, key=lambda s: event_time(self._held(s, bucket[s])))
            if event_time(event) <= event_time(self._held(oldest, bucket[oldest])):
                return False
            namespace, name = _unslot(oldest)
            evicted = self._remove(Key(EVENT, namespace, name))
            if evicted is not None:
                self._evicted.append(evicted)
        slots.append(slot)
        return True

    def _forget_event(self, slot: Slot, event: Obj) -> None:
        subject = event_subject(event)
        slots = self._events_of.get(subject) if subject is not None else None
        if slots is not None and slot in slots:
            slots.remove(slot)
            if not slots:
                del self._events_of[subject]  # type: ignore[arg-type]

    def _refile_event(self, slot: Slot, old: Obj, new: Obj) -> None:
        """An Event whose involved object changed (no API server allows it; a snapshot may
        say so twice) moves to its new object's list, at its place in the cache's order."""
        subject = event_subject(new)
        if subject == event_subject(old):
            return
        self._forget_event(slot, old)
        if subject is not None:
            slots = self._events_of.setdefault(subject, [])
            slots.append(slot)
            position = {s: i for i, s in enumerate(self._objects[EVENT])}
            slots.sort(key=position.__getitem__)

    def _with_evicted(self, changes: list[Change]) -> list[Change]:
        """``changes`` with the Events let go of for the cap while making them."""
        if not self._evicted:
            return changes
        evicted, self._evicted = self._evicted, []
        return [*changes, *evicted]

    def _put(self, obj: Obj, origin: Origin | None = None) -> Change | None:
        return self._put_keyed(obj, origin)[1]

    def _put_keyed(self, obj: Obj, origin: Origin | None) -> tuple[Key | None, Change | None]:
        """Cache one object of a kept kind: its key (``None`` when it has no name) and the
        change made, if any."""
        problems: list[Problem] = []
        raw, obj = obj, clean_envelope(obj, problems)  # R-SRC-4: what trim and the model read
        if type(obj.get("metadata", {}).get("name")) is not str:
            return None, None  # no name, no key: nothing to cache
        trimmed = clean(obj["kind"], trim(obj, self._shared), problems)
        key = key_of(trimmed)
        bucket = self._objects[key.kind]
        slot = _slot(key.kind, key.namespace, key.name)
        old = self._found(slot, bucket.get(slot))
        moved = self._note_malformed(key, raw, problems, origin)
        if old is not None and _unchanged(old, trimmed):
            return key, Change("MODIFIED", key, old, old) if moved else None
        if key.kind == EVENT and old is None and not self._room_for_event(slot, trimmed):
            return key, None
        if key.kind == EVENT and old is not None:
            self._refile_event(slot, old, trimmed)
        bucket[slot] = self._compact(key.kind, key.name, trimmed)
        if old is None and key.kind in NAMESPACE_INDEXED:
            self._names_in[key.kind].setdefault(key.namespace, {})[key.name] = None
        if old is None and key.kind == OPERATOR_GROUP:
            self._group(key)
        return key, Change("ADDED" if old is None else "MODIFIED", key, old, trimmed)

    def _note_malformed(
        self, key: Key, obj: Obj, problems: list[Problem], origin: Origin | None
    ) -> bool:
        """Keep (or clear) the record of the object's wrong-typed fields; whether it moved."""
        old = self.malformed.get(key)
        if not problems:
            return old is not None and self.malformed.pop(key) is not None
        record = Malformed(LIVE if origin is None else origin(obj), tuple(problems))
        if record == old:
            return False
        self.malformed[key] = record
        return True

    def _unindex(self, key: Key) -> None:
        by_namespace = self._names_in[key.kind]
        names = by_namespace.get(key.namespace)
        if names is not None:
            names.pop(key.name, None)
            if not names:
                del by_namespace[key.namespace]

    def _group(self, key: Key) -> None:
        names = self._groups_in.get(key.namespace)
        self._groups_in[key.namespace] = key.name if names is None else (*_names(names), key.name)

    def _ungroup(self, key: Key) -> None:
        rest = tuple(n for n in _names(self._groups_in.get(key.namespace, ())) if n != key.name)
        if not rest:
            self._groups_in.pop(key.namespace, None)
        else:
            self._groups_in[key.namespace] = rest[0] if len(rest) == 1 else rest

    def _remove(self, key: Key) -> Change | None:
        slot = _slot(key.kind, key.namespace, key.name)
        old = self._found(slot, self._objects[key.kind].pop(slot, None))
        self.malformed.pop(key, None)
        if old is not None and key.kind in NAMESPACE_INDEXED:
            self._unindex(key)
        if old is not None and key.kind == OPERATOR_GROUP:
            self._ungroup(key)
        if key.kind == EVENT and old is not None:
            self._forget_event(slot, old)
        return None if old is None else Change("DELETED", key, old, None)

    def apply(self, event_type: str, obj: Obj) -> Change | None:
        """Apply one watch-style event (ADDED, MODIFIED or DELETED) and publish the change.

        An ADDED or MODIFIED that leaves the cached object as it was publishes nothing.
        Objects of kinds olmtui does not keep are ignored.
        """
        if not self._keeps(obj):
            return None
        if event_type != "DELETED":
            change = self._put(obj)
        elif type((cleaned := clean_envelope(obj, [])).get("metadata", {}).get("name")) is str:
            change = self._remove(key_of(cleaned))
        else:
            return None
        self._emit(self._with_evicted([change] if change is not None else []))
        return change

    def put_back(self, key: Key, obj: Obj | None, keep: Malformed | None) -> Change | None:
        """Set one object (``None``: remove it) with the wrong-typed fields ``keep`` records
        besides its own, and publish the change: a simulation's trial edits the cleaned
        object (R-SRC-4), whose record would otherwise go with the first write."""
        change = self._remove(key) if obj is None else self._put_keyed(obj, None)[1]
        if obj is not None and keep is not None:
            own = self.malformed.get(key)
            paths = {p.path for p in keep.problems}
            extra = tuple(p for p in own.problems if p.path not in paths) if own else ()
            record = Malformed(keep.origin, keep.problems + extra)
            if record != own:
                self.malformed[key] = record
                if change is None:
                    current = self.get(key.kind, key.namespace, key.name)
                    change = Change("MODIFIED", key, current, current)
        if change is not None:
            self._emit([change])
        return change

    def apply_many(self, objs: Iterable[Obj], origin: Origin | None = None) -> list[Change]:
        """Add or update many objects and publish them as one batch. What the batch keeps
        (objects, and what subscribers derive from them) is frozen out of the cyclic
        collector's view before it resumes (see ``gc_pause``). ``origin`` says where an
        object came from (a snapshot's file and line) when it has wrong-typed fields."""
        with cyclic_gc_paused(keep=True):
            changes = [c for o in objs if self._keeps(o) if (c := self._put(o, origin))]
            changes = self._with_evicted(changes)
            self._emit(changes)
        return changes

    def remove_many(self, keys: Iterable[Key]) -> list[Change]:
        """Remove many objects and publish their removals as one batch (a replay's time
        cursor moving back: what did not exist yet goes, and the model recomputes once)."""
        changes = [c for key in keys if key.kind in self._objects if (c := self._remove(key))]
        self._emit(changes)
        return changes

    def replace(
        self,
        kind: str,
        objs: Iterable[Obj],
        namespaces: Iterable[str] | None = None,
        *,
        keep: Callable[[Obj], bool] | None = None,
    ) -> list[Change]:
        """Make the cached objects of ``kind`` equal ``objs`` (a relist), as changes.

        ``namespaces`` limits the replacement to those namespaces (a namespace-scoped
        relist); ``keep`` limits it to the cached objects it accepts (a label-selected
        relist, e.g. copies only). Objects missing from ``objs`` become deletions.
        """
        scope = None if namespaces is None else set(namespaces)
        seen: set[Slot] = set()
        changes: list[Change] = []
        for obj in objs:
            if not self._keeps(obj):
                continue
            key, change = self._put_keyed(obj, None)
            if key is None:
                continue
            seen.add(_slot(key.kind, key.namespace, key.name))
            if change is not None:
                changes.append(change)
        bucket = self._objects[kind]
        for slot in [s for s in bucket if s not in seen]:
            namespace, name = _unslot(slot)
            if scope is not None and namespace not in scope:
                continue
            if keep is not None and not keep(self._held(slot, bucket[slot])):
                continue
            change = self._remove(Key(kind, namespace, name))
            if change is not None:
                changes.append(change)
        changes = self._with_evicted(changes)
        self._emit(changes)
        return changes

    def set_unreadable(self, kind: str, unreadable: Unreadable | None) -> Change | None:
        """Mark ``kind`` unreadable (or readable again with ``None``) and publish it as a
        change of kind :data:`ACCESS`, so that the model and the screens re-derive. A kind
        already unreadable keeps its ``since``."""
        old = self.unreadable.get(kind)
        if unreadable is None:
            if old is None:
                return None
            del self.unreadable[kind]
            change = Change("DELETED", Key(ACCESS, "", kind), _access_obj(kind, old), None)
        else:
            if old is not None:  # still unreadable: since when does not move
                unreadable = replace(unreadable, since=old.since)
                if unreadable == old:
                    return None
            self.unreadable[kind] = unreadable
            change = Change(
                "ADDED" if old is None else "MODIFIED",
                Key(ACCESS, "", kind),
                None if old is None else _access_obj(kind, old),
                _access_obj(kind, unreadable),
            )
        self._emit([change])
        return change

    def content_changed(self, origin: str, news: Sequence[ContentNews] = ()) -> Change:
        """Publish that the catalog content fetched by ``origin`` changed (a change of kind
        :data:`CATALOG_CONTENT`, with ``news`` as plain data in its ``status``); the cached
        objects stay as they are."""
        obj: Obj = {"kind": CATALOG_CONTENT, "metadata": {"name": origin}}
        if news:
            obj["status"] = {
                "news": [
                    {"catalog": n.catalog, "message": n.message, "severity": n.severity}
                    for n in news
                ]
            }
        change = Change("MODIFIED", Key(CATALOG_CONTENT, "", origin), obj, obj)
        self._emit([change])
        return change

    # -- reading -------------------------------------------------------------------------
    def get(self, kind: str, namespace: str, name: str) -> Obj | None:
        if kind in CLUSTER_SCOPED:
            return self._found(name, self._objects[kind].get(name)) if namespace == "" else None
        if kind == OPERATOR_GROUP:
            return self._found((namespace, name), self._objects[kind].get((namespace, name)))
        return self._objects[kind].get((namespace, name))  # type: ignore[return-value]

    def has(self, kind: str, namespace: str, name: str) -> bool:
        """Whether an object is cached there: :meth:`get` without building it."""
        if kind in CLUSTER_SCOPED:
            return namespace == "" and name in self._objects[kind]
        return (namespace, name) in self._objects[kind]

    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]:
        """Objects of one kind, optionally of one namespace (unordered)."""
        bucket = self._objects[kind]
        if namespace is None or (namespace == "" and kind in CLUSTER_SCOPED):
            if kind in self._forms or kind == OPERATOR_GROUP:
                return (self._held(slot, held) for slot, held in bucket.items())
            return iter(bucket.values())  # type: ignore[arg-type]  # no forms: objects only
        if kind == OPERATOR_GROUP:  # built only for the namespace asked
            slots = [(namespace, n) for n in _names(self._groups_in.get(namespace, ()))]
            return (self._held(s, bucket[s]) for s in slots)
        indexed = self._names_in.get(kind)
        if indexed is not None:  # what the namespace holds, not a pass over the kind
            names = list(indexed.get(namespace, ()))
            found = (bucket.get((namespace, n)) for n in names)
            return (o for o in found if o is not None)  # type: ignore[misc]  # no forms
        return (o for slot, o in self.slots(kind) if slot[0] == namespace)

    def slots(self, kind: str) -> Iterable[tuple[tuple[str, str], Obj]]:
        """``((namespace, name), object)`` of one kind: :meth:`items` without building keys,
        for a pass over a hundred thousand copies."""
        bucket = self._objects[kind]
        if kind in CLUSTER_SCOPED:
            return ((_unslot(slot), self._held(slot, held)) for slot, held in bucket.items())
        if kind == OPERATOR_GROUP:
            return ((slot, self._held(slot, held)) for slot, held in bucket.items())  # type: ignore[misc]
        return bucket.items()  # type: ignore[return-value]  # namespaced: every slot a tuple

    def items(self, kind: str) -> Iterator[tuple[Key, Obj]]:
        bucket = self._objects[kind]
        if kind in CLUSTER_SCOPED:
            for name, held in bucket.items():
                yield Key(kind, "", name), self._held(name, held)  # type: ignore[arg-type]
            return
        if kind == OPERATOR_GROUP:
            for slot, held in bucket.items():
                yield Key(kind, *slot), self._held(slot, held)
            return
        for (ns, name), obj in bucket.items():  # type: ignore[str-unpack]  # namespaced: tuples
            yield Key(kind, ns, name), obj  # type: ignore[misc]  # namespaced: no forms

    def events_about(self, kind: str, namespace: str, name: str) -> tuple[Obj, ...]:
        """The cached Events whose involved object is this one, newest first (R-EVD-1): a
        finding's evidence, without a pass over every Event."""
        bucket = self._objects[EVENT]
        slots = self._events_of.get((kind, namespace, name), ())
        events = [self._held(slot, bucket[slot]) for slot in slots if slot in bucket]
        return tuple(sorted(events, key=event_time, reverse=True))

    def events_in_order(self, kind: str, namespace: str, name: str) -> tuple[Obj, ...]:
        """The cached Events whose involved object is this one, in the order ``list(EVENT)``
        gives them (a rule orders them its own way): found from the cap's index (R-EVD-1),
        not by grouping every Event."""
        bucket = self._objects[EVENT]
        slots = self._events_of.get((kind, namespace, name), ())
        return tuple(self._held(slot, bucket[slot]) for slot in slots if slot in bucket)

    def count(self, kind: str) -> int:
        return len(self._objects[kind])

    def __len__(self) -> int:
        return sum(len(b) for b in self._objects.values())
