"""Cluster objects as OLM writes them: the demo's cluster must look like a real one.

Every function returns a fresh plain dict. Status fields, annotations, labels, reasons and
messages follow docs/rules.md: CSV phases and their reasons and messages (R-CSV-*, R-CSV-H for the
condition history), group annotations on CSVs (R-MEM-3), copies (R-COPY-4), OperatorGroup
status and ``olm.providedAPIs`` (R-OG-2, R-API-3), Subscription status (R-SUB-*) and
InstallPlans (R-IP-*).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from olmtui.kinds import (
    CATALOG_SOURCE,
    CRD,
    CSV,
    DEPLOYMENT,
    INSTALL_PLAN,
    NAMESPACE,
    OPERATOR_GROUP,
    POD,
    SUBSCRIPTION,
)
from olmtui.model.rules.apis.reconcile import api_surface, format_provided_apis
from olmtui.model.rules.dependencies.multitenancy import COMPONENT_LABEL_PREFIX
from olmtui.model.viewmodels.views import api_hash
from olmtui.store import COPIED_FROM_LABEL, LAST_APPLIED

Obj = dict[str, Any]

OLM = "operators.coreos.com"
CSV_API = f"{OLM}/v1alpha1"
GROUP_ANNOTATION = "olm.operatorGroup"
NAMESPACE_ANNOTATION = "olm.operatorNamespace"
TARGETS_ANNOTATION = "olm.targetNamespaces"
PROVIDED_APIS_ANNOTATION = "olm.providedAPIs"

#: R-CSV-*: the reason and message OLM writes with each phase of a CSV's normal life.
PHASE_STATUS: dict[str, tuple[str, str]] = {
    "Pending": ("RequirementsUnknown", "requirements not yet checked"),  # R-CSV-N
    "InstallReady": ("AllRequirementsMet", "all requirements found, attempting install"),
    "Installing": ("InstallSucceeded", "waiting for install components to report healthy"),
    "Succeeded": ("InstallSucceeded", "install strategy completed with no errors"),  # R-CSV-I
    "Deleting": (
        "Replaced",
        "has been replaced by a newer ClusterServiceVersion that has successfully installed.",
    ),  # R-CSV-R
}
#: R-CSV-H: OLM keeps the newest 20 entries of a CSV's condition history.
HISTORY = 20


def uid_for(*parts: str) -> str:
    """A stable uid, so namespace labels naming a group's uid (R-OG-5) stay right."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "olmtui-demo/" + "/".join(parts)))


def provided_apis(csv: Obj) -> frozenset[str]:
    return api_surface(csv).provided


def namespace(name: str, now: str, labels: dict[str, str] | None = None) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": NAMESPACE,
        "metadata": {
            "name": name,
            "uid": uid_for(NAMESPACE, name),
            "creationTimestamp": now,
            "labels": {"kubernetes.io/metadata.name": name, **(labels or {})},
        },
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    }


def operator_group(
    ns: str,
    name: str,
    now: str,
    *,
    targets: Sequence[str] | None,
    apis: Iterable[str] = (),
    conditions: Sequence[Obj] = (),
) -> Obj:
    """An OperatorGroup OLM has synced: ``targets`` None is a global group (R-OG-1 rule 2,
    status ``[""]``), else ``spec.targetNamespaces`` (status = the same list, R-OG-2)."""
    spec: Obj = {"upgradeStrategy": "Default"}
    if targets is not None:
        spec["targetNamespaces"] = list(targets)
    status: Obj = {"namespaces": [""] if targets is None else sorted(targets), "lastUpdated": now}
    if conditions:
        status["conditions"] = list(conditions)
    return {
        "apiVersion": f"{OLM}/v1",
        "kind": OPERATOR_GROUP,
        "metadata": {
            "name": name,
            "namespace": ns,
            "uid": uid_for(OPERATOR_GROUP, ns, name),
            "creationTimestamp": now,
            "generation": 1,
            # R-API-3: sorted, comma-joined, no spaces.
            "annotations": {PROVIDED_APIS_ANNOTATION: format_provided_apis(apis)},
        },
        "spec": spec,
        "status": status,
    }


def multiple_groups_condition(now: str) -> Obj:
    """R-OG-6: what OLM puts on every group of a namespace holding more than one."""
    return {
        "type": "MultipleOperatorGroup",
        "status": "True",
        "reason": "MultipleOperatorGroupsFound",
        "message": "Multiple OperatorGroup found in the same namespace",
        "lastTransitionTime": now,
    }


def og_uid_label(og: Obj) -> dict[str, str]:
    """R-OG-5: the label OLM puts on each target namespace of a non-global group."""
    return {f"olm.operatorgroup.uid/{og['metadata']['uid']}": ""}


def with_phase(
    csv: Obj, phase: str, now: str, *, reason: str | None = None, message: str | None = None
) -> Obj:
    """The CSV after OLM moved it to ``phase``: status and condition history (R-CSV-H)."""
    default_reason, default_message = PHASE_STATUS.get(phase, ("", ""))
    reason = default_reason if reason is None else reason
    message = default_message if message is None else message
    old = csv.get("status") or {}
    history = list(old.get("conditions") or [])
    last = history[-1] if history else {}
    # R-CSV-H: lastTransitionTime moves only when the phase does; an entry is appended
    # whenever phase or reason differs from the last one.
    transition = old.get("lastTransitionTime", now) if old.get("phase") == phase else now
    if (last.get("phase"), last.get("reason")) != (phase, reason):
        history.append(
            {
                "phase": phase,
                "reason": reason,
                "message": message,
                "lastUpdateTime": now,
                "lastTransitionTime": transition,
            }
        )
    status = {
        **old,
        "phase": phase,
        "reason": reason,
        "message": message,
        "lastUpdateTime": now,
        "lastTransitionTime": transition,
        "conditions": history[-HISTORY:],
        "requirementStatus": requirement_status(csv),
    }
    return {**csv, "status": status}


def requirement_status(csv: Obj) -> list[Obj]:
    """R-CSV-P: every owned and required CRD, Present (the install went through)."""
    spec = csv.get("spec") or {}
    names = sorted(
        {
            entry["name"]
            for which in ("owned", "required")
            for entry in (spec.get("customresourcedefinitions") or {}).get(which) or []
        }
    )
    return [
        {
            "group": "apiextensions.k8s.io",
            "version": "v1",
            "kind": CRD,
            "name": name,
            "status": "Present",
            "uuid": uid_for(CRD, name),
            "message": "CRD is present and Established condition is true",
        }
        for name in names
    ]


def member_csv(published: Obj, og: Obj, package: str, now: str) -> Obj:
    """A published CSV as created by an InstallPlan in the group's namespace and annotated
    by OLM (R-MEM-3, and the ``olm.api.<hash>`` labels), before any phase is written."""
    ns = og["metadata"]["namespace"]
    name = published["metadata"]["name"]
    meta = dict(published["metadata"])
    targets = ",".join(sorted(og["status"]["namespaces"]))  # R-OG-3
    meta.update(
        namespace=ns,
        uid=uid_for(CSV, ns, name),
        creationTimestamp=now,
        annotations={
            **(meta.get("annotations") or {}),
            GROUP_ANNOTATION: og["metadata"]["name"],
            NAMESPACE_ANNOTATION: ns,
            TARGETS_ANNOTATION: targets,
        },
        labels={
            **(meta.get("labels") or {}),
            **{f"olm.api.{api_hash(api)}": "provided" for api in provided_apis(published)},
            f"{COMPONENT_LABEL_PREFIX}{package}.{ns}": "",
        },
    )
    return {**published, "apiVersion": CSV_API, "kind": CSV, "metadata": meta}


def succeeded_csv(published: Obj, og: Obj, package: str, now: str) -> Obj:
    """A member CSV that went through its whole install (R-CSV-N .. R-CSV-I)."""
    csv = member_csv(published, og, package, now)
    for phase in ("Pending", "InstallReady", "Installing", "Succeeded"):
        csv = with_phase(csv, phase, now)
    return csv


def copy_of(csv: Obj, target: str) -> Obj:
    """R-COPY-4: the copy OLM keeps of ``csv`` in namespace ``target``."""
    meta = csv["metadata"]
    source_ns = meta["namespace"]
    annotations = {
        k: v
        for k, v in (meta.get("annotations") or {}).items()
        if k not in (TARGETS_ANNOTATION, LAST_APPLIED)
    }
    labels = {
        k: v
        for k, v in (meta.get("labels") or {}).items()
        if not k.startswith(COMPONENT_LABEL_PREFIX)
    }
    labels[COPIED_FROM_LABEL] = source_ns
    status = {
        **(csv.get("status") or {}),
        "reason": "Copied",
        "message": f"The operator is running in {source_ns} but is managing this namespace",
    }
    return {
        "apiVersion": CSV_API,
        "kind": CSV,
        "metadata": {
            "name": meta["name"],
            "namespace": target,
            "uid": uid_for(CSV, target, meta["name"]),
            "creationTimestamp": meta.get("creationTimestamp"),
            "annotations": annotations,
            "labels": labels,
        },
        "spec": csv["spec"],
        "status": status,
    }


def copy_targets(og: Obj, namespaces: Iterable[str]) -> list[str]:
    """R-COPY-3: every existing namespace the group targets, except its own; a group that
    targets only its own namespace gets no copies (R-COPY-2)."""
    own = og["metadata"]["namespace"]
    status = og["status"]["namespaces"]
    if status == [own]:
        return []
    every = status == [""]
    return sorted(n for n in namespaces if n != own and (every or n in status))


def catalog_health(catalogs: Sequence[Obj], now: str) -> list[Obj]:
    """Subscription ``status.catalogHealth``: every catalog of the global namespace (R-SUB-8)."""
    return [
        {
            "catalogSourceRef": {
                "apiVersion": CSV_API,
                "kind": CATALOG_SOURCE,
                "name": c["metadata"]["name"],
                "namespace": c["metadata"]["namespace"],
                "uid": c["metadata"]["uid"],
            },
            "healthy": is_healthy(c),
            "lastUpdated": now,
        }
        for c in catalogs
    ]


def is_healthy(catalog: Obj) -> bool:
    state = (catalog.get("status") or {}).get("connectionState") or {}
    return state.get("lastObservedState") == "READY"


def catalog_condition(catalogs: Sequence[Obj], source: str, source_ns: str, now: str) -> Obj:
    """R-SUB-8: ``CatalogSourcesUnhealthy`` as the catalog operator writes it."""
    target_healthy = any(
        is_healthy(c)
        for c in catalogs
        if (c["metadata"]["name"], c["metadata"]["namespace"]) == (source, source_ns)
    )
    condition: Obj = {"type": "CatalogSourcesUnhealthy", "lastTransitionTime": now}
    if not target_healthy:
        condition.update(
            status="True",
            reason="UnhealthyCatalogSourceFound",
            message=f"targeted catalogsource {source_ns}/{source} unhealthy",
        )
    elif all(is_healthy(c) for c in catalogs):
        condition.update(
            status="False",
            reason="AllCatalogSourcesHealthy",
            message="all available catalogsources are healthy",
        )
    else:
        condition.update(status="True", reason="UnhealthyCatalogSourceFound")
    return condition


def subscription(
    ns: str,
    name: str,
    now: str,
    *,
    package: str,
    channel: str,
    source: str,
    source_ns: str,
    approval: str,
    installed: str | None,
    current: str,
    plan: Obj,
    catalogs: Sequence[Obj],
) -> Obj:
    """A Subscription with the status OLM writes (R-SUB-1, R-SUB-2): AtLatestKnown when ``current``
    is installed, else UpgradePending with the referenced InstallPlan's pending condition."""
    at_latest = installed == current
    conditions = [catalog_condition(catalogs, source, source_ns, now)]
    plan_phase = (plan.get("status") or {}).get("phase") or ""
    if plan_phase in ("Planning", "Installing", "RequiresApproval"):
        # R-SUB-5: the plan's phase is the reason while it is pending.
        conditions.append(
            {
                "type": "InstallPlanPending",
                "status": "True",
                "reason": plan_phase,
                "lastTransitionTime": now,
            }
        )
    plan_ref = {
        "apiVersion": CSV_API,
        "kind": INSTALL_PLAN,
        "name": plan["metadata"]["name"],
        "namespace": ns,
        "uid": plan["metadata"]["uid"],
    }
    status: Obj = {
        "currentCSV": current,
        "state": "AtLatestKnown" if at_latest else "UpgradePending",  # R-SUB-2
        "installPlanRef": plan_ref,
        "installplan": {
            "apiVersion": CSV_API,
            "kind": INSTALL_PLAN,
            "name": plan["metadata"]["name"],
            "uuid": plan["metadata"]["uid"],
        },
        "installPlanGeneration": plan["spec"]["generation"],
        "catalogHealth": catalog_health(catalogs, now),
        "conditions": conditions,
        "lastUpdated": now,
    }
    if installed:
        status["installedCSV"] = installed
    return {
        "apiVersion": CSV_API,
        "kind": SUBSCRIPTION,
        "metadata": {
            "name": name,
            "namespace": ns,
            "uid": uid_for(SUBSCRIPTION, ns, name),
            "creationTimestamp": now,
            "generation": 1,
            "labels": {f"{COMPONENT_LABEL_PREFIX}{package}.{ns}": ""},
        },
        "spec": {
            "channel": channel,
            "installPlanApproval": approval,
            "name": package,
            "source": source,
            "sourceNamespace": source_ns,
        },
        "status": status,
    }


def install_plan(
    ns: str,
    name: str,
    now: str,
    *,
    csvs: Sequence[Obj],
    approval: str,
    approved: bool,
    phase: str,
    generation: int,
    source: str,
    source_ns: str,
) -> Obj:
    """An InstallPlan: R-IP-1 steps (CSVs first, then their CRDs) and R-IP-3's
    ``Installed`` condition once Complete."""
    steps = []
    done = phase == "Complete"
    for csv in csvs:
        csv_name = csv["metadata"]["name"]
        steps.append(
            {
                "resolving": csv_name,
                "status": "Created" if done else "Unknown",
                "resource": {
                    "group": OLM,
                    "version": "v1alpha1",
                    "kind": CSV,
                    "name": csv_name,
                    "sourceName": source,
                    "sourceNamespace": source_ns,
                },
            }
        )
    for csv in csvs:
        owned = ((csv.get("spec") or {}).get("customresourcedefinitions") or {}).get("owned")
        for crd in sorted({o["name"] for o in owned or []}):
            steps.append(
                {
                    "resolving": csv["metadata"]["name"],
                    "status": "Present" if done else "Unknown",
                    "resource": {
                        "group": "apiextensions.k8s.io",
                        "version": "v1",
                        "kind": CRD,
                        "name": crd,
                        "sourceName": source,
                        "sourceNamespace": source_ns,
                    },
                }
            )
    status: Obj = {
        "phase": phase,
        "catalogSources": [source],
        "plan": steps,
        "conditions": [],
    }
    if done:
        status["conditions"].append(
            {
                "type": "Installed",
                "status": "True",
                "lastTransitionTime": now,
                "lastUpdateTime": now,
            }
        )
    return {
        "apiVersion": CSV_API,
        "kind": INSTALL_PLAN,
        "metadata": {
            "name": name,
            "namespace": ns,
            "uid": uid_for(INSTALL_PLAN, ns, name),
            "creationTimestamp": now,
            "generation": 1,
        },
        "spec": {
            "approval": approval,
            "approved": approved,
            "clusterServiceVersionNames": [c["metadata"]["name"] for c in csvs],
            "generation": generation,
        },
        "status": status,
    }


def catalog_source(ns: str, name: str, now: str, *, display: str, image: str, state: str) -> Obj:
    """A grpc CatalogSource with the connection state the catalog operator observed."""
    return {
        "apiVersion": CSV_API,
        "kind": CATALOG_SOURCE,
        "metadata": {
            "name": name,
            "namespace": ns,
            "uid": uid_for(CATALOG_SOURCE, ns, name),
            "creationTimestamp": now,
            "generation": 1,
        },
        "spec": {
            "sourceType": "grpc",
            "image": image,
            "displayName": display,
            "publisher": "Red Hat",
            "updateStrategy": {"registryPoll": {"interval": "10m"}},
        },
        "status": {
            "connectionState": {
                "address": f"{name}.{ns}.svc:50051",
                "lastConnect": now,
                "lastObservedState": state,
            },
            "registryService": {
                "createdAt": now,
                "port": "50051",
                "protocol": "grpc",
                "serviceName": name,
                "serviceNamespace": ns,
            },
        },
    }


def catalog_pod(catalog: Obj, now: str, *, crash_looping: bool = False) -> Obj:
    """The registry pod OLM runs for a grpc CatalogSource (label ``olm.catalogSource``,
    R-EVD-1): serving, or (``crash_looping``) restarting again and again, as a catalog
    image that cannot start its registry does."""
    ns, name = catalog["metadata"]["namespace"], catalog["metadata"]["name"]
    image = catalog["spec"]["image"]
    container: Obj = {
        "name": "registry-server",
        "image": image,
        "ready": not crash_looping,
        "restartCount": 14 if crash_looping else 0,
        "state": {"running": {"startedAt": now}},
    }
    if crash_looping:
        container["state"] = {
            "waiting": {
                "reason": "CrashLoopBackOff",
                "message": f"back-off 5m0s restarting failed container=registry-server "
                f"pod={name}-x7k2p_{ns}",
            }
        }
        container["lastState"] = {
            "terminated": {"reason": "Error", "exitCode": 1, "finishedAt": now}
        }
    return {
        "apiVersion": "v1",
        "kind": POD,
        "metadata": {
            "name": f"{name}-x7k2p",
            "namespace": ns,
            "uid": uid_for(POD, ns, name),
            "creationTimestamp": now,
            "labels": {"olm.catalogSource": name, "olm.pod-spec-hash": "5c7d9"},
            "ownerReferences": [
                {"kind": CATALOG_SOURCE, "name": name, "uid": catalog["metadata"]["uid"]}
            ],
        },
        "spec": {"containers": [{"name": "registry-server", "image": image}]},
        "status": {
            "phase": "Running",
            "conditions": [{"type": "Ready", "status": "False" if crash_looping else "True"}],
            "containerStatuses": [container],
        },
    }


def csv_deployments(csv: Obj, now: str) -> list[Obj]:
    """The Deployments OLM made for an installed CSV (its install strategy's, R-CSV-I), with
    the owner labels OLM puts on them (``olm.owner``, ``olm.owner.kind``,
    ``olm.owner.namespace``), all replicas ready."""
    ns, name = csv["metadata"]["namespace"], csv["metadata"]["name"]
    install = (csv.get("spec") or {}).get("install") or {}
    out = []
    for item in (install.get("spec") or {}).get("deployments") or ():
        replicas = (item.get("spec") or {}).get("replicas", 1)
        selector = ((item.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        out.append(
            {
                "apiVersion": "apps/v1",
                "kind": DEPLOYMENT,
                "metadata": {
                    "name": item["name"],
                    "namespace": ns,
                    "uid": uid_for(DEPLOYMENT, ns, item["name"]),
                    "creationTimestamp": now,
                    "labels": {
                        **(item.get("label") or {}),
                        "olm.owner": name,
                        "olm.owner.kind": CSV,
                        "olm.owner.namespace": ns,
                    },
                    "ownerReferences": [{"kind": CSV, "name": name, "uid": csv["metadata"]["uid"]}],
                },
                "spec": {"replicas": replicas, "selector": {"matchLabels": selector}},
                "status": {
                    "replicas": replicas,
                    "readyReplicas": replicas,
                    "availableReplicas": replicas,
                    "updatedReplicas": replicas,
                    "conditions": [
                        {
                            "type": "Available",
                            "status": "True",
                            "reason": "MinimumReplicasAvailable",
                        }
                    ],
                },
            }
        )
    return out
