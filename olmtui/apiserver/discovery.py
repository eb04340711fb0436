"""Discovery documents: ``/api``, ``/apis``, ``/apis/<group>[/<version>]`` and ``/version``.

This is the legacy (unaggregated) discovery. kubectl 1.32 first asks for aggregated
discovery (``as=APIGroupDiscoveryList``); because these answers are labelled plain
``application/json``, it falls back to walking the group versions, exactly as it does
against an older apiserver.
"""

from __future__ import annotations

from typing import Any

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


def group_list() -> Obj:
    return {
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": [_group(name, versions) for name, versions in groups().items()],
    }


def api_group(name: str) -> Obj | None:
    versions = groups().get(name)
    if versions is None:
        return None
    return {"kind": "APIGroup", "apiVersion": "v1", **_group(name, versions)}


def _resource_entry(resource: Resource) -> Obj:
    entry: Obj = {
        "name": resource.plural,
        "singularName": resource.singular,
        "namespaced": resource.namespaced,
        "kind": resource.kind,
        "verbs": list(resource.verbs),
    }
    if resource.short_names:
        entry["shortNames"] = list(resource.short_names)
    if resource.categories:
        entry["categories"] = list(resource.categories)
    return entry


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
