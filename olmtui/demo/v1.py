"""The demo's OLM v1 (``olm.operatorframework.io/v1``): ClusterCatalogs as catalogd writes them,
ClusterExtensions as operator-controller writes them, and the content catalogd serves.

* ``openshift-community-operators`` serves (R-V1-7) the demo's community packages plus the
  published infinispan and opendatahub-operator catalogs (``fixtures/README.md``); the demo's
  loopback catalogd serves that content behind the service proxy (R-V1-21), so the demo
  session fetches it like any live session.
* ``openshift-certified-operators`` is not serving: its image cannot be pulled (catalogd
  retries), as the certified CatalogSource of OLM v0 fails beside it.
* ``opendatahub-operator`` is installed and settled: ``Progressing=True/Succeeded`` is the
  done state, not work going on (R-V1-5); nothing newer in its channel.
* ``infinispan`` is installed at 2.5.13; the served content has 2.5.14, which replaces it:
  an upgrade operator-controller would make (R-V1-15, R-V1-20).
* ``keycloak-operator`` asks for a version range no bundle satisfies: operator-controller's
  resolution error in ``Progressing=True/Retrying``, nothing installed (R-V1-5, R-V1-18).
* ``cert-manager`` is mid-upgrade (two active revisions) and ``node-healthcheck-operator``
  past its progress deadline (``v1_revisions``, R-V1-24..R-V1-26).

The extensions select the community catalog by its name label (R-V1-9), so the catalog that
is not serving fails none of them.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from olmtui.demo.bundles import CATALOG_PATH, FIXTURES
from olmtui.demo.v1_conditions import condition
from olmtui.demo.v1_revisions import revision_objects
from olmtui.kinds import CLUSTER_CATALOG, CLUSTER_EXTENSION
from olmtui.model.rules.v1.catalog_selector import NAME_LABEL

Obj = dict[str, Any]

API_VERSION = "olm.operatorframework.io/v1"
COMMUNITY = "openshift-community-operators"
CERTIFIED = "openshift-certified-operators"
#: Where catalogd serves a catalog's HTTP API (R-V1-21), as ``status.urls.base`` says.
BASE_URL = "https://catalogd-service.olmv1-system.svc/catalogs/{}"
#: The FBC files catalogd serves for the community ClusterCatalog, in this order.
CONTENT_FILES: tuple[Path, ...] = (
    CATALOG_PATH,
    FIXTURES / "infinispan.catalog.yaml",
    FIXTURES / "opendatahub-operator.catalog.yaml",
    # a bundle capped at OpenShift 4.18 and its way out (``cluster_upgrade``, R-CUP-3)
    FIXTURES / "legacy-metrics-operator.catalog.yaml",
)
#: The failing extension's range: keycloak-operator has no 27.x bundle in the content.
KEYCLOAK_RANGE = ">=27.0.0"
#: operator-controller's resolution error for it, verbatim (R-V1-18).
KEYCLOAK_ERROR = (
    f'no bundles found for package "keycloak-operator" matching version "{KEYCLOAK_RANGE}"'
)

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def catalogd_content() -> bytes:
    """The community catalog's ``api/v1/all`` body: every FBC document of
    :data:`CONTENT_FILES` as one line of JSON (JSON Lines, as catalogd serves it)."""
    lines = []
    for path in CONTENT_FILES:
        for doc in yaml.load_all(path.read_bytes(), Loader=_LOADER):
            if isinstance(doc, dict):
                lines.append(json.dumps(doc, separators=(",", ":")).encode() + b"\n")
    return b"".join(lines)


def content_digest() -> str:
    """The resolved image reference catalogd reports for the served content (a digest of it:
    new content, new digest, as an image rebuild gives)."""
    digest = hashlib.sha256(catalogd_content()).hexdigest()
    return f"registry.redhat.io/redhat/community-operator-index@sha256:{digest}"


def _catalog(name: str, image: str, priority: int, now: str) -> Obj:
    return {
        "apiVersion": API_VERSION,
        "kind": CLUSTER_CATALOG,
        "metadata": {
            "name": name,
            "labels": {NAME_LABEL: name},  # catalogd's defaulting webhook (R-V1-6)
            "creationTimestamp": now,
            "generation": 1,
            "finalizers": ["olm.operatorframework.io/delete-server-cache"],
        },
        "spec": {
            "source": {"type": "Image", "image": {"ref": image, "pollIntervalMinutes": 10}},
            "priority": priority,
            "availabilityMode": "Available",
        },
    }


def cluster_catalogs(now: str) -> list[Obj]:
    """The community catalog serving, the certified one failing to unpack (R-V1-6, R-V1-7)."""
    community = _catalog(
        COMMUNITY, "registry.redhat.io/redhat/community-operator-index:v4.20", -400, now
    )
    community["status"] = {
        "conditions": [
            condition(
                "Serving", "True", "Available", "Serving desired content from resolved source", now
            ),
            condition(
                "Progressing",
                "True",
                "Succeeded",
                "Successfully unpacked and stored content from resolved source",
                now,
            ),
        ],
        "resolvedSource": {"type": "Image", "image": {"ref": content_digest()}},
        "urls": {"base": BASE_URL.format(COMMUNITY)},
        "lastUnpacked": now,
    }
    image = "registry.redhat.io/redhat/certified-operator-index:v4.20"
    certified = _catalog(CERTIFIED, image, -200, now)
    # catalogd's updateStatusNotServing drops resolvedSource, urls and lastUnpacked
    certified["status"] = {
        "conditions": [
            condition("Serving", "False", "Unavailable", "", now),
            condition(
                "Progressing",
                "True",
                "Retrying",
                "source catalog content: error creating image source: reading manifest v4.20 "
                "in registry.redhat.io/redhat/certified-operator-index: unauthorized: Please "
                "login to the Red Hat Registry using your Customer Portal credentials.",
                now,
            ),
        ],
    }
    return [community, certified]


def _extension(name: str, catalog: Obj, now: str) -> Obj:
    catalog = {
        "packageName": name,
        **catalog,
        "selector": {"matchLabels": {NAME_LABEL: COMMUNITY}},
        "upgradeConstraintPolicy": "CatalogProvided",
    }
    return {
        "apiVersion": API_VERSION,
        "kind": CLUSTER_EXTENSION,
        "metadata": {
            "name": name,
            "creationTimestamp": now,
            "generation": 1,
            "finalizers": ["olm.operatorframework.io/cleanup-unpack-cache"],
        },
        "spec": {
            "namespace": name,
            "source": {"sourceType": "Catalog", "catalog": catalog},
        },
    }


def _not_deprecated(now: str) -> list[Obj]:
    """R-V1-4: the deprecation conditions of an installed bundle the catalog does not
    deprecate."""
    return [
        condition("Deprecated", "False", "NotDeprecated", "not deprecated", now),
        condition("PackageDeprecated", "False", "NotDeprecated", "package not deprecated", now),
        condition("ChannelDeprecated", "False", "NotDeprecated", "channel not deprecated", now),
        condition("BundleDeprecated", "False", "NotDeprecated", "bundle not deprecated", now),
    ]


def _installed(extension: Obj, bundle: str, version: str, image: str, now: str) -> Obj:
    """Installed and settled (R-V1-3, R-V1-5): Progressing=True/Succeeded is the done state."""
    extension["status"] = {
        "install": {"bundle": {"name": bundle, "version": version}},
        "conditions": [
            condition(
                "Installed", "True", "Succeeded", f"Installed bundle {image} successfully", now
            ),
            condition("Progressing", "True", "Succeeded", "Desired state reached", now),
            *_not_deprecated(now),
        ],
    }
    return extension


def cluster_extensions(now: str) -> list[Obj]:
    """The three extensions of the module docstring, status as operator-controller writes it."""
    odh = _installed(
        _extension("opendatahub-operator", {"channels": ["fast-3"]}, now),
        "opendatahub-operator.v3.5.0",
        "3.5.0",
        "quay.io/community-operator-pipeline-prod/opendatahub-operator:3.5.0",
        now,
    )
    infinispan = _installed(
        _extension("infinispan", {"channels": ["stable"]}, now),
        "infinispan-operator.v2.5.13",
        "2.5.13",
        "quay.io/community-operator-pipeline-prod/infinispan:2.5.13",
        now,
    )
    keycloak = _extension("keycloak-operator", {"version": KEYCLOAK_RANGE}, now)
    # handleResolutionError with nothing installed: Progressing carries the resolver's error;
    # no catalog data came back, so the deprecation conditions are Unknown (R-V1-4, R-V1-5)
    unknown = "deprecation status unknown: catalog data unavailable"
    keycloak["status"] = {
        "conditions": [
            condition("Installed", "False", "Failed", "No bundle installed", now),
            condition("Progressing", "True", "Retrying", KEYCLOAK_ERROR, now),
            condition("Deprecated", "Unknown", "DeprecationStatusUnknown", unknown, now),
            condition("PackageDeprecated", "Unknown", "DeprecationStatusUnknown", unknown, now),
            condition("ChannelDeprecated", "Unknown", "DeprecationStatusUnknown", unknown, now),
            condition("BundleDeprecated", "Unknown", "Absent", "no bundle installed yet", now),
        ],
    }
    return [odh, infinispan, keycloak]


def v1_objects(now: str) -> list[Obj]:
    """Every OLM v1 object of the demo, catalogs first, then the extensions and, for two of
    them, their revisions (``v1_revisions``, R-V1-24)."""
    return [*cluster_catalogs(now), *cluster_extensions(now), *revision_objects(now)]
