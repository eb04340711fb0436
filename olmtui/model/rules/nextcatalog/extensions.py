"""OLM v1: a ClusterExtension and its installed bundle against the next release's catalog
(R-NXT-1 .. R-NXT-5), resolved as operator-controller resolves (R-V1-10 .. R-V1-19) over
that catalog alone: would it keep or upgrade the installed bundle from there."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace

from olmtui.kinds import CLUSTER_EXTENSION
from olmtui.model.records.catalog import Catalog, Package
from olmtui.model.records.next_catalog import NextCatalogEntry, WayOut
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.nextcatalog.advice import advised
from olmtui.model.rules.nextcatalog.subscriptions import channel_order
from olmtui.model.rules.v1.resolve import V1Resolution, content_by_catalog, resolve_extension
from olmtui.model.rules.v1.versions import bundle_version_release, package_version
from olmtui.objects import Obj, name_of, spec, status

#: The name the next catalog's content is resolved under when it is bound to no
#: ClusterCatalog.
NEXT = "next-catalog"


def as_if(
    extension: Obj,
    *,
    channels: Sequence[str] | None = None,
    installed: tuple[str, str] | None = None,
    any_catalog: bool = False,
) -> Obj:
    """The extension with other channels, another installed bundle, or no catalog selector
    (the next catalog stands alone), for a trial resolution; the object itself is unchanged."""
    out = copy.deepcopy(dict(extension))
    source = out.setdefault("spec", {}).setdefault("source", {}).setdefault("catalog", {})
    if channels is not None:
        source["channels"] = list(channels)
    if any_catalog:
        source.pop("selector", None)
    if installed is not None:
        bundle = out.setdefault("status", {}).setdefault("install", {}).setdefault("bundle", {})
        bundle.clear()
        bundle.update({"name": installed[0], "version": installed[1]})
    return out


def _over_next(extension: Obj, next_catalog: Catalog, bound: Obj | None) -> V1Resolution:
    """operator-controller's answer over the next catalog alone: a served ClusterCatalog of
    its name (its labels when it is bound to one read), which the extension selects."""
    name = next_catalog.ref if next_catalog.for_cluster_catalog else NEXT
    catalog_obj = {"metadata": dict((bound or {}).get("metadata") or {"name": name})}
    return resolve_extension(
        as_if(extension, any_catalog=bound is None), [catalog_obj], {name or NEXT: next_catalog}
    )


def _edge_words(resolution: V1Resolution, installed: str) -> str | None:
    if resolution.bundle is None:
        return None
    if resolution.via == "installed":
        return f"{installed} stays (the next catalog holds it)"
    return f"{resolution.bundle} ({resolution.via or 'no edge needed'})"


def _installable(package: Package, channels: Sequence[str]) -> bool:
    """R-NXT-4: some bundle of the requested channels (all channels when none is) exists
    with a version operator-controller can read (R-V1-11)."""
    names = {
        e.name
        for c in package.channels.values()
        if not channels or c.name in channels
        for e in c.entries
    }
    return any(
        bundle_version_release(package_version(b.properties)) is not None
        for n, b in package.bundles.items()
        if n in names
    )


def extension_entry(
    extension: Obj,
    next_catalog: Catalog,
    current: Sequence[Catalog],
    cluster_catalogs: Mapping[str, Obj],
) -> NextCatalogEntry:
    """R-NXT-1 .. R-NXT-5 for one ClusterExtension with an installed bundle."""
    source = (spec(extension).get("source") or {}).get("catalog") or {}
    package_name = str(source.get("packageName") or "")
    raw_channels = source.get("channels")
    channels = [str(c) for c in raw_channels] if isinstance(raw_channels, list) else []
    bundle = (status(extension).get("install") or {}).get("bundle") or {}
    installed = str(bundle.get("name") or "")
    bound = (
        cluster_catalogs.get(next_catalog.ref or "") if next_catalog.for_cluster_catalog else None
    )
    content_now = content_by_catalog(current, list(cluster_catalogs.values()))
    entry = NextCatalogEntry(
        object=ObjectRef(CLUSTER_EXTENSION, "", name_of(extension)),
        package=package_name,
        channel=", ".join(channels) or None,
        installed=installed,
        origin=next_catalog.origin,
        package_in_next=False,
        channel_in_next=False,
        edge_from_installed=False,
        current_known=bool(content_now),
    )
    package = next_catalog.packages.get(package_name)
    if package is None:
        return advised(entry)
    resolution = _over_next(extension, next_catalog, bound)
    edge = _edge_words(resolution, installed)
    entry = replace(
        entry,
        package_in_next=True,
        channel_in_next=all(c in package.channels for c in channels),
        edge_from_installed=edge is not None,
        edge=edge,
        installable=_installable(package, channels),
        error=resolution.error,
    )
    if entry.ok:
        return entry
    found = _way_out(
        extension, next_catalog, bound, package, list(cluster_catalogs.values()), current
    )
    return advised(replace(entry, way_out=found))


def _way_out(
    extension: Obj,
    next_catalog: Catalog,
    bound: Obj | None,
    package: Package,
    cluster_catalogs: list[Obj],
    current: Sequence[Catalog],
) -> WayOut | None:
    """R-NXT-5 for OLM v1: the extension's own channels first (an upgrade now may reach a
    bundle the next catalog goes on from), then each channel of the next catalog alone; a
    channel counts when operator-controller resolves it now (or, without current content,
    from the installed bundle itself) and over the next catalog from where that leaves it."""
    bundle = (status(extension).get("install") or {}).get("bundle") or {}
    installed = (str(bundle.get("name") or ""), str(bundle.get("version") or ""))
    content_now = content_by_catalog(current, cluster_catalogs)
    source = (spec(extension).get("source") or {}).get("catalog") or {}
    own = [str(c) for c in source.get("channels") or []] if isinstance(source, dict) else []
    tries: list[tuple[str, list[str] | None, bool]] = [(", ".join(own), None, False)] if own else []
    tries += [(c, [c], True) for c in channel_order(package, []) if [c] != own]
    for label, channels, switch in tries:
        trial = as_if(extension, channels=channels) if channels is not None else extension
        position, now_edge = installed, None
        if content_now:
            now = resolve_extension(trial, cluster_catalogs, content_now)
            if now.bundle is None and now.unknown is None:
                continue  # operator-controller resolves nothing on this channel now
            if now.bundle is not None and now.via != "installed":
                position, now_edge = (now.bundle, now.version or ""), now.via
        if not switch and now_edge is None:
            continue  # staying where it is on its own channels is what fails
        after = _over_next(as_if(trial, installed=position), next_catalog, bound)
        next_edge = _edge_words(after, position[0])
        if next_edge is not None:
            return WayOut(label, switch, position[0], now_edge, next_edge)
    return None
