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
) -> dict[str, Any]:
    """A ClusterExtension (R-V1-2, R-V1-3); by default installed and healthy."""
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
    return {
        "apiVersion": V1,
        "kind": "ClusterExtension",
        "metadata": {"name": name, "generation": 1, "uid": f"uid-{name}"},
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
