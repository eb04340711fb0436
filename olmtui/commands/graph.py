"""``olmtui graph``: draw one channel's upgrade graph as Mermaid (for tickets) or text.

The input is read through the composition root every mode uses (``pipeline/build.py``), so
the catalogs are those ``check`` reads on the same input: ``--catalog`` content first, then
the snapshot's PackageManifests (from those only the head and its skipRange are known), and a
Subscription's catalog is chosen as ``check`` chooses it (R-UPG-2). With a snapshot holding a
Subscription for the package, its installed CSV is marked and its channel is the one drawn.
Names come from catalogs and clusters, so control characters in them are printed escaped,
never obeyed.

Exit status as for ``check``: 1 when the channel has errors (OLM cannot order it, or ``opm
validate`` rejects it; the drawing carries them), 2 when the input cannot be used.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from olmtui.commands.catalog_option import add_catalog_argument
from olmtui.errors import UsageError

if TYPE_CHECKING:  # the model is imported when the command runs, not for ``--help``
    from olmtui.model.records.catalog import Catalog, Package
    from olmtui.model.viewmodels.graph_render import ChannelView
    from olmtui.pipeline.session import Session

NAME = "graph"
HELP = "Draw a package channel's upgrade graph (replaces, skips, skipRange) as Mermaid or text."

Obj = dict[str, Any]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "exit status: 0 for a channel without errors, 1 when it has some, 2 when the input "
        "cannot be used"
    )
    parser.add_argument("package", metavar="PACKAGE", help="the package to draw")
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="snapshot files, directories, must-gathers or archives: their Subscription for "
        "PACKAGE marks the installed CSV, their PackageManifests serve without --catalog",
    )
    parser.add_argument(
        "--channel",
        metavar="CHANNEL",
        help="the channel to draw (default: the Subscription's channel, else the package's "
        "default channel)",
    )
    add_catalog_argument(
        parser,
        "catalog content (FBC, bundle directories or package manifests); repeatable",
    )
    parser.add_argument(
        "--format",
        choices=("mermaid", "text"),
        default="mermaid",
        dest="output_format",
        help="mermaid (a flowchart to paste into a ticket, the default) or text",
    )


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
        from olmtui.model.rules.upgrades.graph import subscription_scope

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


def run(args: argparse.Namespace) -> int:
    from olmtui.model.viewmodels.graph_render import channel_view, render_mermaid, render_text
    from olmtui.pipeline.build import catalog_session, snapshot_session
    from olmtui.report.text_report import safe

    # The same wiring and catalog merge as check's (R-DOC-8): --catalog content beats the
    # PackageManifests of the same CatalogSource, and never hides another source's.
    session = (
        snapshot_session(args.paths, args.catalogs)
        if args.paths
        else catalog_session(args.catalogs)
    )
    store = session.store
    catalogs = session.catalogs()
    if not catalogs:
        raise UsageError(
            "no catalog content: give --catalog PATH, or a snapshot PATH that "
            "holds PackageManifests"
        )
    sub = _subscription_for(args.package, store.list("Subscription"))
    catalog = _catalog_for(args.package, catalogs, sub)
    package = catalog.packages[args.package]
    channel = package.channels[_channel_name(package, args.channel, sub)]
    installed = version = None
    if sub is not None:
        installed = (sub.get("status") or {}).get("installedCSV") or None
        namespace = (sub.get("metadata") or {}).get("namespace") or ""
        csv = store.get("ClusterServiceVersion", namespace, installed) if installed else None
        version = ((csv.get("spec") or {}).get("version") if csv else None) or None
    view = channel_view(channel, package, installed, version)
    if sub is not None:
        view = _with_next(session, sub, view)
    render = render_mermaid if args.output_format == "mermaid" else render_text
    sys.stdout.write("\n".join(safe(line) for line in render(view).split("\n")))
    return 1 if view.errors else 0
