"""PackageManifests (``packages.operators.coreos.com/v1``) as catalogs, from a snapshot or live.

The packageserver reports, per channel, the head (``currentCSV``) with the head's CSV
description, and the entries by name and version only (R-UPG-9). So the channels built here
know their head and the head's ``olm.skipRange`` but no replaces/skips edges: they are
marked ``graph="packagemanifest"`` and carry ``reported_head`` for the upgrade model.

A pure derivation from cached objects, so it lives in the model: the sources that load
catalogs and the screens that show them both use it without reaching into each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.kinds import PACKAGE_MANIFEST
from olmtui.model.primitives.manifest_fields import (
    SKIP_RANGE_ANNOTATION,
    mapping,
    scalar_text,
    supported_install_modes,
)
from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.types import ref
from olmtui.model.rules.apis.reconcile import api_surface

Obj = dict[str, Any]
ORIGIN = "packagemanifests"


def _deprecation(holder: Mapping[str, Any]) -> str | None:
    return scalar_text(mapping(holder.get("deprecation")).get("message"))


def catalog_ref_of(obj: Obj) -> str:
    """``namespace/name`` of the CatalogSource a PackageManifest comes from (labels first)."""
    labels = mapping(mapping(obj.get("metadata")).get("labels"))
    status = mapping(obj.get("status"))
    namespace = labels.get("catalog-namespace") or status.get("catalogSourceNamespace") or ""
    name = labels.get("catalog") or status.get("catalogSource") or ""
    return ref(str(namespace), str(name))


def default_channel(status: Mapping[str, Any], channels: list[str]) -> str | None:
    """R-UPG-9: ``defaultChannel`` if set, else the only channel, else none."""
    explicit = scalar_text(status.get("defaultChannel"))
    if explicit:
        return explicit
    return channels[0] if len(channels) == 1 else None


def head_bundle(
    package: str, head: str, desc: Mapping[str, Any], deprecation: str | None
) -> Bundle:
    """The head's bundle from ``currentCSVDesc`` (APIs, install modes, version)."""
    surface = api_surface({"spec": dict(desc)})
    return Bundle(
        name=head,
        package=package,
        version=scalar_text(desc.get("version")),
        deprecation=deprecation,
        provided_apis=tuple(sorted(surface.provided)),
        required_apis=tuple(sorted(surface.required)),
        install_modes=supported_install_modes(desc.get("installModes")),
    )


def package_from_manifest(obj: Obj) -> Package:
    status = mapping(obj.get("status"))
    name = (
        scalar_text(status.get("packageName"))
        or scalar_text(mapping(obj.get("metadata")).get("name"))
        or ""
    )
    package = Package(name, deprecation=_deprecation(status))
    heads: dict[str, Bundle] = {}
    raw_channels = status.get("channels")
    for raw in raw_channels if isinstance(raw_channels, list) else ():
        raw = mapping(raw)
        channel_name, head = scalar_text(raw.get("name")), scalar_text(raw.get("currentCSV"))
        if not channel_name:
            continue
        desc = mapping(raw.get("currentCSVDesc"))
        raw_entries = [
            e for e in map(mapping, raw.get("entries") or ()) if scalar_text(e.get("name"))
        ]
        names = [str(e["name"]) for e in raw_entries]
        if head and head not in names:
            names.insert(0, head)
        skip_range = scalar_text(mapping(desc.get("annotations")).get(SKIP_RANGE_ANNOTATION))
        entries = tuple(
            ChannelEntry(n, skip_range=skip_range if n == head else None) for n in names
        )
        for entry in raw_entries:
            package.bundles.setdefault(
                str(entry["name"]),
                Bundle(
                    str(entry["name"]),
                    name,
                    version=scalar_text(entry.get("version")),
                    deprecation=_deprecation(entry),
                ),
            )
        if head:
            entry_deprecation = next(
                (_deprecation(e) for e in raw_entries if e.get("name") == head), None
            )
            heads[head] = head_bundle(name, head, desc, entry_deprecation)
        package.channels[channel_name] = Channel(
            name, channel_name, entries, deprecation=_deprecation(raw), reported_head=head
        )
    package.bundles.update(heads)
    package.default_channel = default_channel(status, sorted(package.channels))
    return package


def catalog_from_packagemanifests(
    objs: Iterable[Obj], catalog_ref: str | None = None, *, whole: bool = False
) -> list[Catalog]:
    """One Catalog per CatalogSource (``catalog-namespace``/``catalog`` labels), sorted by ref.
    With ``catalog_ref`` only that CatalogSource's PackageManifests are taken. ``whole``: the
    PackageManifests were listed from the cluster's packageserver, which lists every package
    a served CatalogSource holds (R-DOC-8); a snapshot may hold any subset of them, so its
    PackageManifests show what a source serves, never what it lacks."""
    catalogs: dict[str, Catalog] = {}
    for obj in objs:
        if not isinstance(obj, dict) or obj.get("kind") != PACKAGE_MANIFEST:
            continue
        source = catalog_ref_of(obj)
        if catalog_ref is not None and source != catalog_ref:
            continue
        catalog = catalogs.setdefault(
            source, Catalog(source, ORIGIN, graph="packagemanifest", whole=whole)
        )
        package = package_from_manifest(obj)
        catalog.packages[package.name] = package
    return [catalogs[key] for key in sorted(catalogs)]
