"""Small builders of OLM objects for the model tests, shaped like what a cluster returns."""

from __future__ import annotations

import copy as _copy
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


def namespace(name: str, labels: dict[str, str] | None = None) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": name, "uid": f"uid-{name}", "labels": dict(labels or {})},
        "status": {"phase": "Active"},
    }


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
) -> Obj:
    spec: Obj = {}
    if targets is not None:
        spec["targetNamespaces"] = targets
    if selector is not ABSENT:
        spec["selector"] = selector
    if static:
        spec["staticProvidedAPIs"] = True
    if upgrade:
        spec["upgradeStrategy"] = {"name": upgrade}
    meta: Obj = {"name": name, "namespace": ns, "uid": f"og-{ns}-{name}"}
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
    ns: str,
    name: str,
    *,
    modes: Any = ("AllNamespaces",),
    owned: tuple = (),
    apiservices: tuple = (),
    required: tuple = (),
    phase: str | None = "Succeeded",
    reason: str | None = "InstallSucceeded",
    group: str | None = None,
    targets: str | None = None,
    replaces: str | None = None,
    version: str = "1.0.0",
) -> Obj:
    """A non-copied CSV. ``modes`` lists supported types (or is a raw installModes list);
    ``owned``/``required`` are ``(kind, version, crd name)``; ``group`` is the OG name the
    annotations point at (in ``ns``) with ``targets`` as olm.targetNamespaces."""
    if modes and isinstance(modes[0], dict):
        install_modes = list(modes)
    else:
        install_modes = [
            {"type": t, "supported": t in modes}
            for t in ("OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces")
        ]
    annotations: Obj = {}
    if group is not None:
        annotations = {"olm.operatorGroup": group, "olm.operatorNamespace": ns}
        if targets is not None:
            annotations["olm.targetNamespaces"] = targets
    spec: Obj = {
        "version": version,
        "installModes": install_modes,
        "customresourcedefinitions": {
            "owned": [{"kind": k, "version": v, "name": n} for k, v, n in owned],
            "required": [{"kind": k, "version": v, "name": n} for k, v, n in required],
        },
        "apiservicedefinitions": {
            "owned": [{"kind": k, "version": v, "group": g} for k, v, g in apiservices]
        },
    }
    if replaces:
        spec["replaces"] = replaces
    status: Obj = {}
    if phase is not None:
        status["phase"] = phase
    if reason is not None:
        status["reason"] = reason
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "ClusterServiceVersion",
        "metadata": {"name": name, "namespace": ns, "annotations": annotations, "labels": {}},
        "spec": spec,
        "status": status,
    }


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
    approval: str | None = None,
    plan: str | None = None,
    package: str = "pkg",
) -> Obj:
    spec: Obj = {
        "name": package,
        "channel": "stable",
        "source": "cat",
        "sourceNamespace": "openshift-marketplace",
    }
    if approval is not None:
        spec["installPlanApproval"] = approval
    status: Obj = {}
    if plan:
        status["installPlanRef"] = {"kind": "InstallPlan", "name": plan, "namespace": ns}
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "Subscription",
        "metadata": {"name": name, "namespace": ns},
        "spec": spec,
        "status": status,
    }


def install_plan(ns: str, name: str, phase: str, approved: bool) -> Obj:
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "InstallPlan",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"approved": approved, "approval": "Manual"},
        "status": {"phase": phase},
    }


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
    head: str,
    modes: list[Obj],
    channel: str = "stable",
) -> Obj:
    """A PackageManifest as the packageserver serves it (R-UPG-9), one channel."""
    return {
        "apiVersion": "packages.operators.coreos.com/v1",
        "kind": "PackageManifest",
        "metadata": {
            "name": package,
            "namespace": catalog_ns,
            "labels": {"catalog": catalog, "catalog-namespace": catalog_ns},
        },
        "status": {
            "catalogSource": catalog,
            "catalogSourceNamespace": catalog_ns,
            "packageName": package,
            "defaultChannel": channel,
            "channels": [
                {"name": channel, "currentCSV": head, "currentCSVDesc": {"installModes": modes}}
            ],
        },
    }


def percona_csv():
    """The real percona-server-mongodb-operator 1.18.0 CSV (trimmed), with its install-mode
    typo ``OwnNamespacejl``."""
    return load_yaml(MODEL_DATA / "percona-server-mongodb-operator.v1.18.0.csv.yaml")
