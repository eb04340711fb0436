"""One channel's upgrade graph as ``olmtui graph`` and the MCP server's ``upgrade_graph``
show it: which catalog and channel a package is drawn from, the installed CSV marked and the
Subscription's next bundle as ``check`` decides it.

Both read a session built by :mod:`olmtui.pipeline.build`, so the catalogs are those
``check`` reads on the same input (``--catalog`` content first, then the snapshot's
PackageManifests) and a Subscription's catalog is chosen as ``check`` chooses it (R-UPG-2).
Every fault the user can fix (a package or channel not in the content) is a ``UsageError``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from olmtui.errors import UsageError
from olmtui.frozen import frozen
from olmtui.model.records.catalog import Catalog, Package
from olmtui.model.rules.upgrades.graph import subscription_scope
from olmtui.model.viewmodels.graph_render import ChannelView, channel_view
from olmtui.pipeline.session import Session

Obj = dict[str, Any]


@frozen
class ChannelGraph:
    """The channel drawn and the catalog it was read from (``None``: content given for
    every catalog)."""

    catalog: str | None
    view: ChannelView


def _subscription_for(package: str, subs: Iterable[Obj]) -> Obj | None:
    """The first Subscription (by namespace, name) for the package."""
    mine = [s for s in subs if (s.get("spec") or {}).get("name") == package]
    mine.sort(
        key=lambda s: (
            (s.get("metadata") or {}).get("namespace") or "",
            (s.get("metadata") or {}).get("name") or "",
        )
    )
    return mine[0] if mine else None


def _catalog_for(package: str, catalogs: list[Catalog], sub: Obj | None) -> Catalog:
    if sub is not None:
        scope = subscription_scope(catalogs, sub)
        if scope.package is not None and scope.catalog is not None:
            return scope.catalog
    having = [c for c in catalogs if package in c.packages]
    if not having:
        known = sorted({p for c in catalogs for p in c.packages})
        shown = ", ".join(known[:10]) + (", ..." if len(known) > 10 else "")
        raise UsageError(
            f"package {package} is not in the catalog content given (packages: {shown or 'none'})"
        )
    having.sort(key=lambda c: c.graph != "catalog")
    return having[0]


def _channel_name(package: Package, requested: str | None, sub: Obj | None) -> str:
    name = (
        requested
        or ((sub.get("spec") or {}).get("channel") if sub else None)
        or package.default_channel
    )
    if name not in package.channels:
        channels = ", ".join(sorted(package.channels)) or "none"
        what = f"no channel {name}" if name else "no default channel"
        raise UsageError(f"package {package.name} has {what} (channels: {channels})")
    return name


def _with_next(session: Session, sub: Obj, view: ChannelView) -> ChannelView:
    """The view with the Subscription's next bundle marked, as ``check`` decides it: the
    resolver's pick when its namespace resolves with the content given (R-RES-17), else the
    channel's (R-UPG-2); only when it is not the head and that channel is the one drawn."""
    meta = sub.get("metadata") or {}
    namespace, name = meta.get("namespace") or "", meta.get("name") or ""
    decided = session.analysis.decided_subscriptions(session.analysis.resolutions([namespace]))
    state = next((s for s in decided if (s.namespace, s.name) == (namespace, name)), None)
    if state is None or state.upgrade.next in (None, view.head):
        return view  # the head is marked already
    if view.channel != (state.channel or view.channel):
        return view
    return replace(view, next=state.upgrade.next, next_because=state.upgrade.not_head_because)


def channel_graph(session: Session, package_name: str, channel: str | None) -> ChannelGraph:
    """The upgrade graph of ``package_name``'s ``channel`` (default: its Subscription's
    channel, else the package's default channel) in the session's catalogs."""
    store = session.store
    catalogs = session.catalogs()
    if not catalogs:
        raise UsageError(
            "no catalog content: give --catalog PATH, or a snapshot PATH that "
            "holds PackageManifests"
        )
    sub = _subscription_for(package_name, store.list("Subscription"))
    catalog = _catalog_for(package_name, catalogs, sub)
    package = catalog.packages[package_name]
    drawn = package.channels[_channel_name(package, channel, sub)]
    installed = version = None
    if sub is not None:
        installed = (sub.get("status") or {}).get("installedCSV") or None
        namespace = (sub.get("metadata") or {}).get("namespace") or ""
        csv = store.get("ClusterServiceVersion", namespace, installed) if installed else None
        version = ((csv.get("spec") or {}).get("version") if csv else None) or None
    view = channel_view(drawn, package, installed, version)
    if sub is not None:
        view = _with_next(session, sub, view)
    return ChannelGraph(catalog.ref, view)
