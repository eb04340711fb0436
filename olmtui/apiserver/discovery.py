"""Discovery documents: ``/api``, ``/apis``, ``/apis/<group>[/<version>]`` and ``/version``.

``/api`` and ``/apis`` come in two forms, as on kube-apiserver 1.30+: the aggregated
``APIGroupDiscoveryList`` (every group, version and resource in one answer) for clients
that ask for it first in their Accept header, as kubectl 1.32 does, and the legacy
``APIVersions``/``APIGroupList`` otherwise, after which a client walks the group versions.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from olmtui.apiserver.negotiation import JSON, JSON_TYPES, parse_accept_entry
from olmtui.apiserver.resources import RESOURCES, Resource, groups

Obj = dict[str, Any]

KUBERNETES_VERSION = {"major": "1", "minor": "32"}


def version_info() -> Obj:
    return {
        **KUBERNETES_VERSION,
        "gitVersion": "v1.32.0-olmtui-loopback",
        "gitCommit": "",
        "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "",
        "compiler": "",
        "platform": "linux/amd64",
    }


def api_versions(server_address: str) -> Obj:
    return {
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [
            {"clientCIDR": "0.0.0.0/0", "serverAddress": server_address},
        ],
    }


def _group(name: str, versions: list[str]) -> Obj:
    entries = [{"groupVersion": f"{name}/{v}", "version": v} for v in versions]
    return {"name": name, "versions": entries, "preferredVersion": entries[0]}


def group_list(hidden: Collection[str] = ()) -> Obj:
    """``GET /apis``; ``hidden`` groups are left out (a cluster without them)."""
    return {
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": [_group(name, versions) for name, versions in groups(hidden).items()],
    }


def api_group(name: str, hidden: Collection[str] = ()) -> Obj | None:
    versions = groups(hidden).get(name)
    if versions is None:
        return None
    return {"kind": "APIGroup", "apiVersion": "v1", **_group(name, versions)}


def _names_and_categories(resource: Resource) -> Obj:
    """``shortNames`` and ``categories``, left out when empty, as kube-apiserver does in
    both discovery forms (kubectl resolves ``csv`` and ``kubectl get olm`` through them)."""
    extra: Obj = {}
    if resource.short_names:
        extra["shortNames"] = list(resource.short_names)
    if resource.categories:
        extra["categories"] = list(resource.categories)
    return extra


def _resource_entry(resource: Resource) -> Obj:
    return {
        "name": resource.plural,
        "singularName": resource.singular,
        "namespaced": resource.namespaced,
        "kind": resource.kind,
        "verbs": list(resource.verbs),
        **_names_and_categories(resource),
    }


def resource_list(group: str, version: str) -> Obj | None:
    """The APIResourceList of one group version (``group`` "" is the core group)."""
    served = [r for r in RESOURCES if r.group == group and r.version == version]
    if not served:
        return None
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": f"{group}/{version}" if group else version,
        "resources": [_resource_entry(r) for r in served],
    }


_AGGREGATED_VERSIONS = ("v2", "v2beta1")


def aggregated_version(accept: str | None) -> str | None:
    """The aggregated discovery version (``v2``/``v2beta1``) if the client asks for it
    before any plain JSON, else None."""
    for entry in (accept or "").split(","):
        media, params = parse_accept_entry(entry)
        if media not in JSON_TYPES:
            continue
        if "as" not in params:
            return None
        if (
            params["as"] == "APIGroupDiscoveryList"
            and params.get("g") == "apidiscovery.k8s.io"
            and params.get("v") in _AGGREGATED_VERSIONS
        ):
            return params["v"]
    return None


def aggregated_content_type(version: str) -> str:
    return f"{JSON};g=apidiscovery.k8s.io;v={version};as=APIGroupDiscoveryList"


def _resource_discovery(resource: Resource) -> Obj:
    return {
        "resource": resource.plural,
        "responseKind": {
            "group": resource.group,
            "version": resource.version,
            "kind": resource.kind,
        },
        "scope": "Namespaced" if resource.namespaced else "Cluster",
        "singularResource": resource.singular,
        "verbs": list(resource.verbs),
        **_names_and_categories(resource),
    }


def _group_discovery(name: str, versions: list[str]) -> Obj:
    return {
        "metadata": {"name": name, "creationTimestamp": None},
        "versions": [
            {
                "version": v,
                "freshness": "Current",
                "resources": [
                    _resource_discovery(r) for r in RESOURCES if r.group == name and r.version == v
                ],
            }
            for v in versions
        ],
    }


def aggregated(version: str, *, core: bool, hidden: Collection[str] = ()) -> Obj:
    """``/api`` (``core``) or ``/apis`` as one APIGroupDiscoveryList."""
    items = (
        [_group_discovery("", ["v1"])]
        if core
        else [_group_discovery(name, versions) for name, versions in groups(hidden).items()]
    )
    return {
        "kind": "APIGroupDiscoveryList",
        "apiVersion": f"apidiscovery.k8s.io/{version}",
        "metadata": {},
        "items": items,
    }
