"""Small builders of OLM objects for the model tests, shaped like what a cluster returns."""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from data_paths import DATA

from olmtui.model.incremental.engine import Model
from olmtui.store import Store

Obj = dict[str, Any]
MODEL_DATA = DATA / "model"
ABSENT = object()


def load_yaml(path: Path) -> Obj:
    return yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)


def load_all(path: Path) -> list[Obj]:
    return [d for d in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader) if d]


def namespace(
    name: str,
    labels: dict[str, str] | None = None,
    *,
    bare: bool = False,
    deleted: str | None = None,
    conditions: tuple[tuple[str, str, str, str], ...] = (),
) -> Obj:
    """An Active Namespace; a ``bare`` one is only its name, as a client creates it. One
    ``deleted`` at that time is Terminating, with ``conditions`` ``(type, status, reason,
    message)`` rows."""
    if bare:
        return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
    meta: Obj = {"name": name, "uid": f"uid-{name}", "labels": dict(labels or {})}
    status: Obj = {"phase": "Active"}
    if deleted is not None:
        meta["deletionTimestamp"] = deleted
        status["phase"] = "Terminating"
    if conditions:
        status["conditions"] = [
            {"type": t, "status": v, "reason": r, "message": m} for t, v, r, m in conditions
        ]
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta, "status": status}


def operator_group(
    ns: str,
    name: str,
    *,
    targets: list[str] | None = None,
    selector: Any = ABSENT,
    status: Any = ABSENT,
    apis: str | None = None,
    static: bool = False,
    upgrade: str | None = None,
    bare: bool = False,
    service_account: str | None = None,
) -> Obj:
    """An OperatorGroup; a ``bare`` one has no uid (as a client creates it: the store keeps
    such groups compact); ``service_account`` is its ``spec.serviceAccountName``."""
    spec: Obj = {}
    if targets is not None:
        spec["targetNamespaces"] = targets
    if service_account is not None:
        spec["serviceAccountName"] = service_account
    if selector is not ABSENT:
        spec["selector"] = selector
    if static:
        spec["staticProvidedAPIs"] = True
    if upgrade:
        spec["upgradeStrategy"] = {"name": upgrade}
    meta: Obj = {"name": name, "namespace": ns}
    if not bare:
        meta["uid"] = f"og-{ns}-{name}"
    if apis is not None:
        meta["annotations"] = {"olm.providedAPIs": apis}
    obj: Obj = {
        "apiVersion": "operators.coreos.com/v1",
        "kind": "OperatorGroup",
        "metadata": meta,
        "spec": spec,
    }
    if status is not ABSENT:
        obj["status"] = {"namespaces": status}
    return obj


def csv(
    ns: str | None,
    name: str,
    *,
    modes: Any = None,
    owned: tuple | None = None,
    apiservices: tuple = (),
    required: tuple = (),
    phase: str | None = "Succeeded",
    reason: str | None = "InstallSucceeded",
    group: str | None = None,
    targets: str | None = None,
    replaces: str | None = None,
    version: str | None = "1.0.0",
    bare: bool = False,
    annotations: dict[str, str] | None = None,
    spec: Obj | None = None,
    status: Obj | None = None,
    labels: dict[str, str] | None = None,
    finalizers: list[str] | None = None,
) -> Obj:
    """A non-copied CSV. ``modes`` lists supported types (or is a raw installModes list;
    default AllNamespaces); ``owned``/``required`` are ``(kind, version, crd name)``;
    ``group`` is the OG name the annotations point at (in ``ns``) with ``targets`` as
    olm.targetNamespaces. A ``bare`` CSV has only what is asked for: no install modes unless
    ``modes`` is given, no API sections but ``owned`` when given, no labels. ``annotations``,
    ``spec`` and ``status`` add fields; ``ns=None`` leaves the namespace out (as a bundle's CSV
    has it); ``labels`` and ``finalizers`` are its metadata's."""
    metadata: Obj = {"name": name}
    if ns is not None:
        metadata["namespace"] = ns
    notes: Obj = {}
    if group is not None:
        notes = {"olm.operatorGroup": group, "olm.operatorNamespace": ns}
        if targets is not None:
            notes["olm.targetNamespaces"] = targets
    notes.update(annotations or {})
    body: Obj = {}
    if version is not None:
        body["version"] = version
    if modes is not None or not bare:
        body["installModes"] = install_modes(("AllNamespaces",) if modes is None else modes)
    if not bare:
        metadata.update(annotations=notes, labels={})
        body["customresourcedefinitions"] = {
            "owned": [{"kind": k, "version": v, "name": n} for k, v, n in owned or ()],
            "required": [{"kind": k, "version": v, "name": n} for k, v, n in required],
        }
        body["apiservicedefinitions"] = {
            "owned": [{"kind": k, "version": v, "group": g} for k, v, g in apiservices]
        }
    else:
        if notes or annotations is not None:
            metadata["annotations"] = notes
        if owned is not None:
            body["customresourcedefinitions"] = {
                "owned": [{"kind": k, "version": v, "name": n} for k, v, n in owned]
            }
    if replaces:
        body["replaces"] = replaces
    body.update(spec or {})
    state: Obj = {}
    if phase is not None:
        state["phase"] = phase
    if reason is not None:
        state["reason"] = reason
    state.update(status or {})
    if labels is not None:
        metadata["labels"] = dict(labels)
    if finalizers is not None:
        metadata["finalizers"] = list(finalizers)
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "ClusterServiceVersion",
        "metadata": metadata,
        "spec": body,
        "status": state,
    }


def install_modes(modes: Any) -> list[Obj]:
    """``installModes`` supporting the types in ``modes`` (a raw list is kept as it is)."""
    if modes and isinstance(modes[0], dict):
        return list(modes)
    return [
        {"type": t, "supported": t in modes}
        for t in ("OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces")
    ]


def copy_of(source: Obj, ns: str) -> Obj:
    """R-COPY-4: the copy OLM makes of ``source`` in ``ns``."""
    meta = source["metadata"]
    annotations = {
        k: v for k, v in meta.get("annotations", {}).items() if k != "olm.targetNamespaces"
    }
    labels = {
        k: v for k, v in meta.get("labels", {}).items() if not k.startswith("operators.coreos.com/")
    }
    labels["olm.copiedFrom"] = meta["namespace"]
    status = dict(source.get("status") or {})
    status["reason"] = "Copied"
    status["message"] = (
        f"The operator is running in {meta['namespace']} but is managing this namespace"
    )
    return {
        "apiVersion": source["apiVersion"],
        "kind": "ClusterServiceVersion",
        "metadata": {
            "name": meta["name"],
            "namespace": ns,
            "annotations": annotations,
            "labels": labels,
        },
        "spec": _copy.deepcopy(source.get("spec")),
        "status": status,
    }


def subscription(
    ns: str,
    name: str,
    *,
    package: str = "pkg",
    channel: Any = "stable",
    source: Any = "cat",
    source_ns: Any = "openshift-marketplace",
    approval: str | None = None,
    starting: str | None = None,
    installed: str | None = None,
    current: str | None = None,
    state: str | None = None,
    plan: str | None = None,
    conditions: tuple[tuple[str, str, str, str], ...] | None = None,
    catalog_health: list[Obj] | None = None,
    annotations: dict[str, str] | None = None,
    status: Obj | None = None,
    config: Obj | None = None,
) -> Obj:
    """A Subscription to ``package``. ``channel``, ``source`` and ``source_ns`` are left out
    when ``ABSENT`` (``channel=None`` writes a null channel); ``installed``/``current`` are
    ``status.installedCSV``/``currentCSV``, ``plan`` the InstallPlan it points at,
    ``conditions`` ``(type, status, reason, message)`` rows, ``status`` more status fields,
    ``config`` its ``spec.config``."""
    spec: Obj = {"name": package}
    if config is not None:
        spec["config"] = config
    for key, value in (("channel", channel), ("source", source), ("sourceNamespace", source_ns)):
        if value is not ABSENT:
            spec[key] = value
    if approval is not None:
        spec["installPlanApproval"] = approval
    if starting is not None:
        spec["startingCSV"] = starting
    state_: Obj = {}
    if conditions is not None:
        state_["conditions"] = [
            {"type": t, "status": s, "reason": r, "message": m} for t, s, r, m in conditions
        ]
    if installed:
        state_["installedCSV"] = installed
    if current:
        state_["currentCSV"] = current
    if state:
        state_["state"] = state
    if plan:
        state_["installPlanRef"] = {"kind": "InstallPlan", "name": plan, "namespace": ns}
    if catalog_health is not None:
        state_["catalogHealth"] = catalog_health
    state_.update(status or {})
    meta: Obj = {"name": name, "namespace": ns}
    if annotations is not None:
        meta["annotations"] = annotations
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "Subscription",
        "metadata": meta,
        "spec": spec,
        "status": state_,
    }


def install_plan(
    ns: str,
    name: str,
    phase: str = "RequiresApproval",
    approved: bool = False,
    *,
    approval: str = "Manual",
    csvs: list[tuple[str, str | None]] | None = None,
    lookups: bool = True,
    owner: str | None = None,
    status: Obj | None = None,
    created: str | None = None,
) -> Obj:
    """An InstallPlan in ``phase``. ``csvs`` are the ``(CSV name, replaces)`` it installs, with
    bundle lookups like OLM's (from catalog ``olm/cat``) unless not ``lookups``; ``owner`` the
    Subscription owning it; ``status`` more status fields; ``created`` its creationTimestamp."""
    meta: Obj = {"name": name, "namespace": ns}
    if created is not None:
        meta["creationTimestamp"] = created
    if owner:
        meta["ownerReferences"] = [{"kind": "Subscription", "name": owner, "uid": "u"}]
    spec: Obj = {"approved": approved, "approval": approval}
    state: Obj = {"phase": phase}
    if csvs is not None:
        spec["clusterServiceVersionNames"] = [c for c, _ in csvs]
    if csvs is not None and lookups:
        state["bundleLookups"] = [
            {
                "identifier": c,
                "replaces": r or "",
                "path": f"quay.io/x/{c}",
                "catalogSourceRef": {"name": "cat", "namespace": "olm"},
            }
            for c, r in csvs
        ]
    state.update(status or {})
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "InstallPlan",
        "metadata": meta,
        "spec": spec,
        "status": state,
    }


#: The error OLM writes on an InstallPlan whose CSV an admission webhook refused.
WEBHOOK_DENIED = "error creating csv: admission webhook denied the request"


def failed_plan(
    ns: str,
    name: str,
    csvs: Sequence[str],
    *,
    message: str = WEBHOOK_DENIED,
    on_status: bool = False,
    created: str | None = None,
) -> Obj:
    """An automatic InstallPlan that failed (R-IP-3), as OLM leaves it: its ``Installed``
    condition False with reason ``InstallComponentFailed`` and ``message`` (also
    ``status.message`` when ``on_status``)."""
    status: Obj = {
        "conditions": [
            {
                "type": "Installed",
                "status": "False",
                "reason": "InstallComponentFailed",
                "message": message,
            }
        ]
    }
    if on_status:
        status["message"] = message
    return install_plan(
        ns,
        name,
        "Failed",
        True,
        approval="Automatic",
        csvs=[(c, None) for c in csvs],
        lookups=False,
        status=status,
        created=created,
    )


def catalog_source(
    ns: str = "olm",
    name: str = "cat",
    *,
    state: str | None = "READY",
    reason: str | None = None,
    message: str | None = None,
    priority: int | None = None,
    address: str | None = None,
    spec: Obj | None = None,
    annotations: dict[str, str] | None = None,
) -> Obj:
    """A grpc CatalogSource; ``state`` is its connection's last observed state (None: the
    catalog operator has not written one), ``address`` the one it connects to; ``spec``
    replaces spec fields (``{"image": None}`` drops one), ``annotations`` are its own."""
    body: Obj = {"sourceType": "grpc", "image": "quay.io/x/index:v1"}
    if priority is not None:
        body["priority"] = priority
    body.update(spec or {})
    body = {k: v for k, v in body.items() if v is not None}
    status: Obj = {}
    if state:
        status["connectionState"] = {"lastObservedState": state}
        if address is not None:
            status["connectionState"]["address"] = address
    if reason:
        status["reason"] = reason
    if message:
        status["message"] = message
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "CatalogSource",
        "metadata": {
            "name": name,
            "namespace": ns,
            **({"annotations": annotations} if annotations else {}),
        },
        "spec": body,
        "status": status,
    }


def crd(
    name: str,
    *,
    kind: str | None = None,
    versions: list[Obj] | None = None,
    conversion: str | None = None,
    webhook: Obj | None = None,
    review_versions: list[str] | None = None,
    labels: dict[str, str] | None = None,
    stored: list[str] | None = None,
) -> Obj:
    """A CustomResourceDefinition ``<plural>.<group>``, with ``names.kind`` and ``versions``
    when given, and a ``conversion`` strategy calling the ``webhook`` service
    (``{"namespace", "name"}``) when given; ``labels`` and ``stored``
    (``status.storedVersions``) when given."""
    spec: Obj = {"group": name.split(".", 1)[1]}
    if kind is not None:
        spec["names"] = {"kind": kind}
    if versions is not None:
        spec["versions"] = versions
    if conversion is not None:
        spec["conversion"] = {"strategy": conversion}
        if webhook is not None:
            hook: Obj = {"clientConfig": {"service": webhook}}
            if review_versions is not None:
                hook["conversionReviewVersions"] = review_versions
            spec["conversion"]["webhook"] = hook
    obj: Obj = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": name},
        "spec": spec,
    }
    if labels is not None:
        obj["metadata"]["labels"] = dict(labels)
    if stored is not None:
        obj["status"] = {"storedVersions": list(stored)}
    return obj


def service(
    ns: str, name: str, *, labels: dict[str, str] | None = None, spec: Obj | None = None
) -> Obj:
    """A Service; ``labels`` and ``spec`` when given."""
    meta: Obj = {"name": name, "namespace": ns}
    if labels is not None:
        meta["labels"] = labels
    obj: Obj = {"apiVersion": "v1", "kind": "Service", "metadata": meta}
    if spec is not None:
        obj["spec"] = spec
    return obj


def clusterversion(*history: tuple[str, str], desired: str | None = None) -> Obj:
    """OpenShift's ClusterVersion with ``(state, version)`` history rows, newest first."""
    status: Obj = {"history": [{"state": s, "version": v} for s, v in history]}
    if desired:
        status["desired"] = {"version": desired}
    return {
        "apiVersion": "config.openshift.io/v1",
        "kind": "ClusterVersion",
        "metadata": {"name": "version"},
        "status": status,
    }


def clusteroperator(
    upgradeable: str,
    reason: str | None,
    message: str,
    *,
    name: str = "operator-lifecycle-manager",
    versions: list[tuple[str, str]] | None = None,
    conditions: tuple[tuple[str, str, str, str], ...] = (),
    namespaces: tuple[str, ...] = (),
) -> Obj:
    """OLM's ClusterOperator with its Upgradeable condition (``reason=None``: none written)
    and ``versions``, ``(name, version)`` rows of ``status.versions``, when given; more
    ``conditions`` as ``(type, status, reason, message)`` rows, and the ``namespaces`` its
    ``status.relatedObjects`` lists."""
    condition: Obj = {"type": "Upgradeable", "status": upgradeable}
    if reason is not None:
        condition["reason"] = reason
    condition["message"] = message
    status: Obj = {"conditions": [condition]}
    status["conditions"] += [
        {"type": t, "status": v, "reason": r, "message": m} for t, v, r, m in conditions
    ]
    if namespaces:
        status["relatedObjects"] = [
            {"group": "", "resource": "namespaces", "name": n} for n in namespaces
        ]
    if versions is not None:
        status["versions"] = [{"name": n, "version": v} for n, v in versions]
    return {
        "apiVersion": "config.openshift.io/v1",
        "kind": "ClusterOperator",
        "metadata": {"name": name},
        "status": status,
    }


def operator_condition(
    name: str, status_value: str | None, override: str | None = None, *, ns: str = "ns"
) -> Obj:
    """The OperatorCondition of CSV ``name`` in ``ns``: its Upgradeable condition as the
    operator set it (``status_value``) and as an admin overrode it (``override``)."""
    obj: Obj = {
        "apiVersion": "operators.coreos.com/v2",
        "kind": "OperatorCondition",
        "metadata": {"namespace": ns, "name": name},
        "spec": {},
        "status": {},
    }
    if status_value is not None:
        obj["status"]["conditions"] = [
            {"type": "Upgradeable", "status": status_value, "reason": "Busy", "message": "wait"}
        ]
    if override is not None:
        obj["spec"]["overrides"] = [
            {"type": "Upgradeable", "status": override, "reason": "Forced", "message": "admin"}
        ]
    return obj


def olmconfig(disabled: bool | None) -> Obj:
    spec: Obj = {} if disabled is None else {"features": {"disableCopiedCSVs": disabled}}
    return {
        "apiVersion": "operators.coreos.com/v1",
        "kind": "OLMConfig",
        "metadata": {"name": "cluster"},
        "spec": spec,
    }


def model_of(*objs: Obj) -> tuple[Model, Store]:
    store = Store()
    store.apply_many(objs)
    return Model(store), store


def codes(model: Model, name: str | None = None) -> set[str]:
    return {f.code for f in model.findings() if name is None or f.name == name}


def package_manifest(
    catalog: str,
    catalog_ns: str,
    package: str,
    head: str | None = None,
    modes: list[Obj] | None = None,
    channel: str = "stable",
    *,
    channels: list[Obj] | None = None,
    default: Any = ABSENT,
    source_fields: bool = True,
) -> Obj:
    """A PackageManifest as the packageserver serves it (R-UPG-9): one channel ``channel`` whose
    head is ``head`` (installing in ``modes``), or the given ``channels``; ``default`` is the
    default channel (``channel`` unless given); without ``source_fields``, no
    ``status.catalogSource``/``catalogSourceNamespace``."""
    if channels is None:
        channels = [
            {"name": channel, "currentCSV": head, "currentCSVDesc": {"installModes": modes}}
        ]
    status: Obj = {}
    if source_fields:
        status.update(catalogSource=catalog, catalogSourceNamespace=catalog_ns)
    status["packageName"] = package
    status["defaultChannel"] = channel if default is ABSENT else default
    status["channels"] = channels
    return {
        "apiVersion": "packages.operators.coreos.com/v1",
        "kind": "PackageManifest",
        "metadata": {
            "name": package,
            "namespace": catalog_ns,
            "labels": {"catalog": catalog, "catalog-namespace": catalog_ns},
        },
        "status": status,
    }


def percona_csv():
    """The real percona-server-mongodb-operator 1.18.0 CSV (trimmed), with its install-mode
    typo ``OwnNamespacejl``."""
    return load_yaml(MODEL_DATA / "percona-server-mongodb-operator.v1.18.0.csv.yaml")


def pod(
    ns: str,
    name: str,
    *,
    labels: dict[str, str] | None = None,
    phase: str = "Running",
    ready: bool = True,
    restarts: int = 0,
    waiting: str | None = None,
    waiting_message: str | None = None,
    last_terminated: str | None = None,
    container: str = "registry-server",
    spec: Obj | None = None,
    annotations: dict[str, str] | None = None,
    unschedulable: str | None = None,
    owner: str | None = None,
) -> Obj:
    """A Pod with one container: ``waiting`` its current waiting reason, ``last_terminated``
    the reason its last run ended (R-EVD-1 keeps these); ``spec`` in place of its one
    container's. ``unschedulable`` is the scheduler's message of a pod it could not place
    (``Pending``, ``PodScheduled=False``, no container started); ``owner`` the ReplicaSet
    that made it."""
    state: Obj = {"running": {"startedAt": "2026-05-01T10:00:00Z"}}
    if waiting is not None:
        state = {"waiting": {"reason": waiting}}
        if waiting_message is not None:
            state["waiting"]["message"] = waiting_message
    status: Obj = {
        "name": container,
        "ready": ready,
        "restartCount": restarts,
        "image": "quay.io/x/index:v1",
        "state": state,
    }
    if last_terminated is not None:
        status["lastState"] = {"terminated": {"reason": last_terminated, "exitCode": 137}}
    scheduled: Obj = {"type": "PodScheduled", "status": "True"}
    if unschedulable is not None:
        scheduled = {
            "type": "PodScheduled",
            "status": "False",
            "reason": "Unschedulable",
            "message": unschedulable,
        }
    metadata: Obj = {
        "name": name,
        "namespace": ns,
        "labels": labels or {},
        "managedFields": [{"manager": "kubelet"}],
        **({"annotations": annotations} if annotations is not None else {}),
    }
    if owner is not None:
        metadata["ownerReferences"] = [
            {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": owner, "uid": f"{owner}-uid"}
        ]
    pod_status: Obj = {
        "phase": "Pending" if unschedulable is not None else phase,
        "conditions": [{"type": "Ready", "status": "True" if ready else "False"}, scheduled],
    }
    if unschedulable is None:
        pod_status["containerStatuses"] = [status]
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata,
        "spec": spec or {"containers": [{"name": container, "image": "quay.io/x/index:v1"}]},
        "status": pod_status,
    }


def cluster_event(
    ns: str,
    name: str,
    *,
    kind: str,
    obj_name: str,
    reason: str,
    message: str = "",
    type_: str = "Warning",
    count: int = 1,
    last: str = "2026-05-01T10:00:00Z",
    extra: Obj | None = None,
) -> Obj:
    """A core/v1 Event about ``kind``/``obj_name`` in ``ns``; ``extra``: more top-level
    fields (``eventTime``, ``reportingComponent``...)."""
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"name": name, "namespace": ns},
        "involvedObject": {"kind": kind, "namespace": ns, "name": obj_name, "uid": "u-1"},
        "reason": reason,
        "message": message,
        "type": type_,
        "count": count,
        "firstTimestamp": last,
        "lastTimestamp": last,
        "source": {"component": "kubelet"},
        **(extra or {}),
    }


def job(
    ns: str,
    name: str,
    *,
    labels: dict[str, str] | None = None,
    failed: str | None = None,
) -> Obj:
    """A Job; ``failed``: the message of its ``Failed`` condition."""
    status: Obj = {"startTime": "2026-05-01T10:00:00Z"}
    if failed is not None:
        status["failed"] = 1
        status["conditions"] = [
            {
                "type": "Failed",
                "status": "True",
                "reason": "BackoffLimitExceeded",
                "message": failed,
            }
        ]
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name, "namespace": ns, "labels": labels or {}},
        "spec": {"template": {"spec": {"containers": [{"name": "extract"}]}}},
        "status": status,
    }


def deployment(
    ns: str,
    name: str,
    *,
    match_labels: dict[str, str] | None = None,
    replicas: int = 1,
    available: int = 0,
    ready: int | None = None,
    labels: dict[str, str] | None = None,
    owner_csv: str | None = None,
) -> Obj:
    """An operator's Deployment as OLM creates it from a CSV's install strategy: its selector's
    ``matchLabels`` (default ``name: <name>``), ``replicas`` wanted and ``available`` of them
    (``Available=False`` while fewer than wanted), ``ready`` its ``readyReplicas`` when given;
    ``owner_csv``: the CSV OLM made it for, named by the labels OLM puts on it (``olm.owner``,
    ``olm.owner.kind``, ``olm.owner.namespace``), beside ``labels``."""
    selector = match_labels if match_labels is not None else {"name": name}
    kept = dict(labels or {})
    if owner_csv is not None:
        kept.update(
            {
                "olm.owner": owner_csv,
                "olm.owner.kind": "ClusterServiceVersion",
                "olm.owner.namespace": ns,
            }
        )
    metadata: Obj = {"name": name, "namespace": ns}
    if kept:
        metadata["labels"] = kept
    built: Obj = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": metadata,
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": selector},
            "template": {"metadata": {"labels": selector}},
        },
        "status": {
            "replicas": replicas,
            "availableReplicas": available,
            "conditions": [
                {
                    "type": "Available",
                    "status": "True" if available >= replicas else "False",
                    "reason": "MinimumReplicasUnavailable",
                    "message": "Deployment does not have minimum availability.",
                }
            ],
        },
    }
    if ready is not None:
        built["status"]["readyReplicas"] = ready
    return built
