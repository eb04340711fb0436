"""OLM v1 objects as operator-controller and catalogd write them, for the v1 tests.

Shapes follow operator-controller's docs/tutorials/install-extension.md and add-catalog.md
(commit df2c201d): the ``kubectl describe`` output there, written back as objects; condition
texts from api/v1 and the controllers (R-V1-4, R-V1-7). Provenance: tests/data/SOURCES.md.
"""

from __future__ import annotations

from typing import Any

V1 = "olm.operatorframework.io/v1"
BUNDLE_IMAGE = (
    "quay.io/operatorhubio/argocd-operator@sha256:"
    "d538c45a813b38ef0e44f40d279dc2653f97ca901fb660da5d7fe499d51ad3b3"
)
CATALOG_DIGEST = (
    "quay.io/operatorhubio/catalog@sha256:"
    "3cd8fde1dfd4269467451c4b2c77d4196b427004f2eb82686376f28265655c1c"
)


def condition(kind: str, status: str, reason: str, message: str) -> dict[str, Any]:
    return {
        "type": kind,
        "status": status,
        "reason": reason,
        "message": message,
        "observedGeneration": 1,
        "lastTransitionTime": "2024-11-11T13:41:32Z",
    }


def not_deprecated() -> list[dict[str, Any]]:
    """The four deprecation conditions of an extension nothing deprecates (R-V1-4)."""
    return [
        condition("Deprecated", "False", "NotDeprecated", "not deprecated"),
        condition("PackageDeprecated", "False", "NotDeprecated", "package not deprecated"),
        condition("ChannelDeprecated", "False", "NotDeprecated", "channel not deprecated"),
        condition("BundleDeprecated", "False", "NotDeprecated", "bundle not deprecated"),
    ]


def healthy_conditions() -> list[dict[str, Any]]:
    """Installed and settled: note Progressing=True/Succeeded (the R-V1-5 quirk)."""
    return [
        *not_deprecated(),
        condition(
            "Installed", "True", "Succeeded", f"Installed bundle {BUNDLE_IMAGE} successfully"
        ),
        condition("Progressing", "True", "Succeeded", "Desired state reached"),
    ]


def extension(
    name: str = "argocd",
    *,
    package: str = "argocd-operator",
    namespace: str = "argocd",
    version: str | None = None,
    channels: list[str] | None = None,
    policy: str | None = None,
    selector: dict[str, Any] | None = None,
    service_account: str | None = None,
    installed: tuple[str, str] | None = ("argocd-operator.v0.6.0", "0.6.0"),
    conditions: list[dict[str, Any]] | None = None,
    progress_deadline_minutes: int | None = None,
    active_revisions: list[dict[str, Any]] | None = None,
    annotations: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A ClusterExtension (R-V1-2, R-V1-3); by default installed and healthy. With
    ``active_revisions`` its ``status.activeRevisions[]`` (R-V1-24); ``annotations`` its own
    (a migrated one carries ``olm.operatorframework.io/migrated-from-subscription``)."""
    catalog: dict[str, Any] = {"packageName": package}
    if version is not None:
        catalog["version"] = version
    if channels is not None:
        catalog["channels"] = channels
    if policy is not None:
        catalog["upgradeConstraintPolicy"] = policy
    if selector is not None:
        catalog["selector"] = selector
    spec: dict[str, Any] = {
        "namespace": namespace,
        "source": {"sourceType": "Catalog", "catalog": catalog},
    }
    if service_account is not None:
        spec["serviceAccount"] = {"name": service_account}
    status: dict[str, Any] = {
        "conditions": healthy_conditions() if conditions is None else conditions
    }
    if installed is not None:
        status["install"] = {"bundle": {"name": installed[0], "version": installed[1]}}
    if progress_deadline_minutes is not None:
        spec["progressDeadlineMinutes"] = progress_deadline_minutes
    if active_revisions is not None:
        status["activeRevisions"] = active_revisions
    metadata: dict[str, Any] = {"name": name, "generation": 1, "uid": f"uid-{name}"}
    if annotations is not None:
        metadata["annotations"] = annotations
    return {
        "apiVersion": V1,
        "kind": "ClusterExtension",
        "metadata": metadata,
        "spec": spec,
        "status": status,
    }


def catalog(
    name: str = "operatorhubio",
    *,
    priority: int | None = 0,
    mode: str = "Available",
    serving: tuple[str, str, str] | None = (
        "True",
        "Available",
        "Serving desired content from resolved source",
    ),
    progressing: tuple[str, str, str] | None = (
        "True",
        "Succeeded",
        "Successfully unpacked and stored content from resolved source",
    ),
    labels: dict[str, str] | None = None,
    unpacked: bool = True,
) -> dict[str, Any]:
    """A ClusterCatalog (R-V1-6, R-V1-7); by default serving operatorhub.io's catalog."""
    conditions = []
    if progressing is not None:
        conditions.append(condition("Progressing", *progressing))
    if serving is not None:
        conditions.append(condition("Serving", *serving))
    spec: dict[str, Any] = {
        "availabilityMode": mode,
        "source": {
            "type": "Image",
            "image": {"ref": "quay.io/operatorhubio/catalog:latest", "pollIntervalMinutes": 10},
        },
    }
    if priority is not None:
        spec["priority"] = priority
    status: dict[str, Any] = {"conditions": conditions}
    if unpacked:
        status["lastUnpacked"] = "2024-11-13T15:11:18Z"
        status["resolvedSource"] = {"type": "Image", "image": {"ref": CATALOG_DIGEST}}
        status["urls"] = {"base": f"https://catalogd-service.olmv1-system.svc/catalogs/{name}"}
    return {
        "apiVersion": V1,
        "kind": "ClusterCatalog",
        "metadata": {
            "name": name,
            "labels": {"olm.operatorframework.io/metadata.name": name, **(labels or {})},
        },
        "spec": spec,
        "status": status,
    }


def foo_extension(
    version: str = "",
    channels: tuple[str, ...] = (),
    policy: str = "CatalogProvided",
    installed: str | None = None,
    selector: dict[str, Any] | None = None,
    package: str = "foo",
) -> dict[str, Any]:
    """``buildFooClusterExtension`` (+ ``status.install.bundle`` for the installed bundle)."""
    catalog: dict[str, Any] = {
        "packageName": package,
        "version": version,
        "channels": list(channels),
        "upgradeConstraintPolicy": policy,
    }
    if selector is not None:
        catalog["selector"] = selector
    obj: dict[str, Any] = {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterExtension",
        "metadata": {"name": package},
        "spec": {"namespace": "default", "source": {"sourceType": "Catalog", "catalog": catalog}},
    }
    if installed is not None:
        name = installed if ".v" in installed else f"{package}.v{installed}"
        obj["status"] = {"install": {"bundle": {"name": name, "version": name.partition(".v")[2]}}}
    return obj


def labelled_catalog(
    name: str, priority: int = 0, serving: bool | None = True, unavailable: bool = False
) -> dict[str, Any]:
    """A ClusterCatalog as catalogd writes it (``serving=None``: no status at all)."""
    obj: dict[str, Any] = {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterCatalog",
        "metadata": {"name": name, "labels": {"olm.operatorframework.io/metadata.name": name}},
        "spec": {
            "source": {"type": "Image", "image": {"ref": f"quay.io/example/{name}:latest"}},
            "priority": priority,
            "availabilityMode": "Unavailable" if unavailable else "Available",
        },
    }
    if serving is not None:
        status = "True" if serving else "False"
        reason = "Available" if serving else "Unavailable"
        obj["status"] = {
            "conditions": [{"type": "Serving", "status": status, "reason": reason}],
            "resolvedSource": {
                "type": "Image",
                "image": {"ref": f"quay.io/example/{name}@sha256:{'0' * 64}"},
            },
        }
    return obj


def infinispan_extension() -> dict[str, Any]:
    """Installed at 2.5.13 on stable, as operator-controller writes it once settled (R-V1-5)."""
    return {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterExtension",
        "metadata": {"name": "infinispan", "creationTimestamp": "2026-01-01T00:00:00Z"},
        "spec": {
            "namespace": "infinispan",
            "serviceAccount": {"name": "infinispan-installer"},
            "source": {
                "sourceType": "Catalog",
                "catalog": {"packageName": "infinispan", "channels": ["stable"]},
            },
        },
        "status": {
            "install": {"bundle": {"name": "infinispan-operator.v2.5.13", "version": "2.5.13"}},
            "conditions": [
                {"type": "Installed", "status": "True", "reason": "Succeeded", "message": ""},
                {
                    "type": "Progressing",
                    "status": "True",
                    "reason": "Succeeded",
                    "message": "Desired state reached",
                },
            ],
        },
    }


def pkg_extension(
    name: str,
    installed: str | None,
    progressing: tuple[str, str, str] | None,
    deprecated: bool,
    account: str | None,
    selector: dict[str, Any] | None,
) -> dict[str, Any]:
    """A ClusterExtension as operator-controller writes it (R-V1-2..R-V1-4)."""
    conditions = []
    if progressing is not None:
        status, reason, message = progressing
        conditions.append(
            {"type": "Progressing", "status": status, "reason": reason, "message": message}
        )
    conditions.append(
        {
            "type": "Installed",
            "status": "True" if installed else "False",
            "reason": "Succeeded" if installed else "Failed",
            "message": "Installed bundle quay.io/x successfully" if installed else "none",
        }
    )
    conditions.append(
        {
            "type": "BundleDeprecated",
            "status": "True" if deprecated else "False",
            "reason": "Deprecated" if deprecated else "NotDeprecated",
            "message": "pkg.v1.0.0 is deprecated" if deprecated else "bundle not deprecated",
        }
    )
    catalog: dict[str, Any] = {"packageName": "pkg"}
    if selector is not None:
        catalog["selector"] = selector
    spec: dict[str, Any] = {
        "namespace": "a",
        "source": {"sourceType": "Catalog", "catalog": catalog},
    }
    if account:
        spec["serviceAccount"] = {"name": account}
    status_: dict[str, Any] = {"conditions": conditions}
    if installed:
        status_["install"] = {"bundle": {"name": installed, "version": installed[5:]}}
    return {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterExtension",
        "metadata": {"name": name},
        "spec": spec,
        "status": status_,
    }


def conditioned_catalog(
    name: str, serving: str | None, mode: str, retrying: bool, priority: int
) -> dict[str, Any]:
    """A ClusterCatalog as catalogd writes it (R-V1-6, R-V1-7)."""
    conditions = []
    if serving is not None:
        reason = "Available" if serving == "True" else "Unavailable"
        conditions.append({"type": "Serving", "status": serving, "reason": reason, "message": ""})
    if retrying:
        conditions.append(
            {"type": "Progressing", "status": "True", "reason": "Retrying", "message": "pull"}
        )
    return {
        "apiVersion": "olm.operatorframework.io/v1",
        "kind": "ClusterCatalog",
        "metadata": {"name": name},
        "spec": {
            "source": {"type": "Image", "image": {"ref": f"quay.io/{name}:latest"}},
            "priority": priority,
            "availabilityMode": mode,
        },
        "status": {"conditions": conditions},
    }


#: The phases operator-controller gives a registry+v1 bundle's objects
#: (docs/draft/concepts/clusterobjectsets.md, "Phase ordering in operator-controller").
ARGOCD_PHASES: list[dict[str, Any]] = [
    {
        "name": "crds",
        "objects": [
            {
                "object": {
                    "apiVersion": "apiextensions.k8s.io/v1",
                    "kind": "CustomResourceDefinition",
                    "metadata": {"name": "argocds.argoproj.io"},
                    "spec": {"group": "argoproj.io", "scope": "Namespaced"},
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
                        "name": "argocd-operator-controller-manager",
                        "namespace": "argocd",
                    },
                    "spec": {"replicas": 1, "template": {"spec": {"containers": []}}},
                }
            }
        ],
    },
]


def revision_conditions(
    state: str, number: int = 2, *, probe: str | None = None, minutes: int = 10
) -> list[dict[str, Any]]:
    """The conditions clusterobjectset_controller.go writes (R-V1-24..27), by ``state``:
    ``succeeded`` (rolled out), ``rolling-out`` (optionally with a ``probe`` failure),
    ``deadline`` (past ``minutes``, with the ``probe`` failure), ``collision`` (phase 1's
    Deployment held by another owner), ``archived``."""
    rolling = f"Revision {number} is rolling out."
    if state == "succeeded":
        return [
            condition(
                "Available", "True", "ProbesSucceeded", "Objects are available and pass all probes."
            ),
            condition("Progressing", "True", "Succeeded", f"Revision {number} has rolled out."),
            condition("Succeeded", "True", "Succeeded", "Revision succeeded rolling out."),
        ]
    if state == "archived":
        return [
            condition("Available", "Unknown", "Archived", "revision is archived"),
            condition("Progressing", "False", "Archived", "revision is archived"),
            condition("Succeeded", "True", "Succeeded", "Revision succeeded rolling out."),
        ]
    if state == "collision":
        message = (
            "revision object collisions in phase 1\n"
            "Object Deployment.apps/v1 argocd/argocd-operator-controller-manager: "
            "controller of object is not this revision"
        )
        return [condition("Progressing", "True", "Retrying", message)]
    available = (
        condition("Available", "False", "ProbeFailure", probe)
        if probe is not None
        else condition("Available", "False", "RollingOut", rolling)
    )
    if state == "deadline":
        return [
            available,
            condition(
                "Progressing",
                "False",
                "ProgressDeadlineExceeded",
                f"Revision has not rolled out for {minutes} minute(s). Last status: {rolling}",
            ),
        ]
    return [available, condition("Progressing", "True", "RollingOut", rolling)]


#: A probe failure in clusterobjectset_controller.go's words, for ARGOCD_PHASES' Deployment.
DEPLOYMENT_PROBE_FAILURE = (
    "Object Deployment.apps/v1 argocd/argocd-operator-controller-manager: "
    'condition "Available" == "True": not found and .status.updatedReplicas == '
    ".status.replicas: 0 != 1"
)


def object_set(
    name: str = "argocd-2",
    *,
    owner: str | None = "argocd",
    revision: int = 2,
    lifecycle_state: str = "Active",
    state: str = "succeeded",
    probe: str | None = None,
    phases: list[dict[str, Any]] | None = None,
    collision_protection: str = "Prevent",
    progress_deadline_minutes: int | None = None,
    kind: str = "ClusterObjectSet",
    labels_only: bool = False,
) -> dict[str, Any]:
    """A ClusterObjectSet as operator-controller creates it for ``owner`` (R-V1-24): its
    owner reference and labels, ARGOCD_PHASES, conditions of ``state``
    (:func:`revision_conditions`). ``kind`` ``ClusterExtensionRevision`` is its older name;
    ``labels_only`` leaves out the owner reference."""
    metadata: dict[str, Any] = {"name": name, "uid": f"uid-{name}", "generation": 1}
    if owner is not None:
        metadata["labels"] = {
            "olm.operatorframework.io/owner-kind": "ClusterExtension",
            "olm.operatorframework.io/owner-name": owner,
            "olm.operatorframework.io/package-name": "argocd-operator",
        }
        if not labels_only:
            metadata["ownerReferences"] = [
                {
                    "apiVersion": V1,
                    "kind": "ClusterExtension",
                    "name": owner,
                    "uid": f"uid-{owner}",
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ]
    spec: dict[str, Any] = {
        "lifecycleState": lifecycle_state,
        "revision": revision,
        "collisionProtection": collision_protection,
        "phases": ARGOCD_PHASES if phases is None else phases,
    }
    if progress_deadline_minutes is not None:
        spec["progressDeadlineMinutes"] = progress_deadline_minutes
    return {
        "apiVersion": V1,
        "kind": kind,
        "metadata": metadata,
        "spec": spec,
        "status": {"conditions": revision_conditions(state, revision, probe=probe)},
    }
