"""OLM v0: a Subscription and its installed CSV against the next release's catalog
(R-NXT-1 .. R-NXT-5), with the upgrade graph OLM's resolver walks (R-UPG-1, R-UPG-2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from olmtui.kinds import SUBSCRIPTION
from olmtui.model.primitives.version import Version
from olmtui.model.records.catalog import Catalog, Channel, Package
from olmtui.model.records.next_catalog import NextCatalogEntry, WayOut
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.nextcatalog.advice import advised
from olmtui.model.rules.upgrades.graph import (
    Hop,
    UpgradeGraph,
    installed_version,
    subscription_scope,
)
from olmtui.objects import Obj, meta, spec, status


def _hop_words(hop: Hop) -> str:
    return f"{hop.target} {hop.via} {hop.source}"


def edge_from(graph: UpgradeGraph, name: str, version: Version | None) -> str | None:
    """R-NXT-3: the edge a channel has from ``name`` (the entry OLM would pick next, R-UPG-2),
    or that ``name`` is the channel head; None when the channel does not go on from it."""
    if graph.errors:
        return None  # R-UPG-1: a channel OLM cannot order resolves nothing
    hop = graph.next(name, version)
    if hop is not None:
        return _hop_words(hop)
    if name == graph.head:
        return f"{name} is the head of channel {graph.channels[0].name}"
    return None


def installable(package: Package, channel: Channel) -> bool:
    """R-NXT-4: whether the channel offers any bundle OLM could install: an entry whose bundle
    the package holds and that is not ``olm.deprecated`` (R-UPG-2), in a channel OLM can order
    (R-UPG-1)."""
    graph = UpgradeGraph(package, [channel])
    if graph.errors:
        return False
    return any(e.name in package.bundles and not graph.prohibited(e.name) for e in channel.entries)


def channel_order(package: Package, first: Sequence[str | None]) -> list[str]:
    """The channels to try as a way out: ``first`` (the operator's own), the default, then
    by name."""
    names = [n for n in first if n]
    if package.default_channel:
        names.append(package.default_channel)
    names += sorted(package.channels)
    return [n for n in dict.fromkeys(names) if n in package.channels]


def _positions(
    now: UpgradeGraph, name: str, version: Version | None
) -> list[tuple[str, Version | None, str | None]]:
    """Where the operator can be moved now on one channel of the current catalog: the
    installed version when the channel holds it, then each bundle of OLM's path from it
    (R-UPG-5), with the hops that reach it."""
    out: list[tuple[str, Version | None, str | None]] = []
    if any(e.name == name for e in now.ranked):
        out.append((name, version, None))
    walked: list[str] = []
    for hop in now.path(name, version):
        walked.append(_hop_words(hop))
        out.append((hop.target, now.version(hop.target), ", then ".join(walked)))
    return out


def way_out(
    next_package: Package,
    current: Package | None,
    own_channel: str | None,
    name: str,
    version: Version | None,
) -> WayOut | None:
    """R-NXT-5: the first channel, in both the current and the next catalog, where the
    operator can be moved now (the installed version, or one reachable from it) to a version
    the next catalog's same channel upgrades from; with no current content, a next channel
    with an edge from the installed version itself. None: no path exists."""
    for channel_name in channel_order(next_package, [own_channel]):
        next_channel = next_package.channels[channel_name]
        if not installable(next_package, next_channel):
            continue
        after = UpgradeGraph(next_package, [next_channel])
        if current is None:
            positions: list[tuple[str, Version | None, str | None]] = [(name, version, None)]
        else:
            now_channel = current.channels.get(channel_name)
            if now_channel is None:
                continue
            positions = _positions(UpgradeGraph(current, [now_channel]), name, version)
        for position, position_version, now_edge in positions:
            if channel_name == own_channel and now_edge is None:
                continue  # staying where it is on its own channel is what fails
            next_edge = edge_from(after, position, position_version)
            if next_edge is not None:
                return WayOut(
                    channel_name, channel_name != own_channel, position, now_edge, next_edge
                )
    return None


def subscription_entry(
    sub: Obj, csv: Obj, next_catalog: Catalog, current: Sequence[Catalog]
) -> NextCatalogEntry:
    """R-NXT-1 .. R-NXT-5 for one Subscription whose installed CSV was read."""
    sub_spec = spec(sub)
    package_name = str(sub_spec.get("name") or "")
    asked = str(sub_spec.get("channel") or "") or None
    name = str(status(sub).get("installedCSV") or "")
    version = installed_version(csv)
    ref = ObjectRef(SUBSCRIPTION, meta(sub).get("namespace") or "", meta(sub).get("name") or "")
    scope = subscription_scope(current, sub)
    now_package = scope.package if scope.catalog is not None else None
    base = NextCatalogEntry(
        object=ref,
        package=package_name,
        channel=asked,
        installed=name,
        origin=next_catalog.origin,
        package_in_next=False,
        channel_in_next=False,
        edge_from_installed=False,
        current_known=now_package is not None,
    )
    package = next_catalog.packages.get(package_name)
    if package is None:
        return advised(base)
    # R-UPG-2: no channel asked means the package's default channel, the next catalog's then.
    channel = package.channels.get(asked or package.default_channel or "")
    entry = replace(base, package_in_next=True, channel_in_next=channel is not None)
    if channel is not None:
        edge = edge_from(UpgradeGraph(package, [channel]), name, version)
        entry = replace(
            entry,
            edge_from_installed=edge is not None,
            edge=edge,
            installable=installable(package, channel),
        )
    if entry.ok:
        return entry
    own = None
    if now_package is not None:
        own = now_package.channels.get(asked or now_package.default_channel or "")
    found = way_out(package, now_package, own.name if own else asked, name, version)
    return advised(replace(entry, way_out=found))
