"""Upgrade graphs: the list of every known channel (``:graph``), and one channel drawn in
the terminal (Enter there, or ``g`` on an operator or Subscription).

The drawing: versions as rows, head first; ``replaces``, ``skips`` and ``skipRange`` edges
told apart by glyph and colour (graph_lanes); the installed version, the next hop and the
path to the head highlighted; skipped and deprecated bundles marked. Drawn from a
PackageManifest, only the head and its skipRange are known, and the screen says so.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from olmtui.kinds import CSV, SUBSCRIPTION
from olmtui.model.records.catalog import Catalog, Package
from olmtui.model.records.types import ObjectRef, SubscriptionState
from olmtui.model.rules.upgrades.graph import channel_order, ordered_channels, subscription_scope
from olmtui.model.viewmodels.graph_render import PARTIAL_NOTE, ChannelView, channel_view
from olmtui.pipeline.session import Session
from olmtui.ui import palette
from olmtui.ui.formatting import line, names
from olmtui.ui.graph_lanes import KIND_STYLE, Layout, lane_cells, layout
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.virtual_table import Column, Row

PATH_STYLE = palette.OK_STRONG


def _deprecated(package: Package, name: str) -> str | None:
    bundle = package.bundles.get(name)
    if bundle is None:
        return None
    if bundle.prohibited:
        return "olm.deprecated: never chosen again (R-UPG-2)"
    return bundle.deprecation


def graph_rows(view: ChannelView, package: Package, sub: SubscriptionState | None) -> list[Row]:
    """One row per version: path gutter, node mark, lanes, version, name, marks, edges."""
    path = tuple(sub.upgrade.path) if sub else ()
    path_edges = frozenset((e.source, e.target) for e in sub.upgrade.edges) if sub else frozenset()
    lay: Layout = layout(view, path_edges)
    on_path = set(path) | ({view.installed} if view.installed and path else set())
    nxt = sub.upgrade.next if sub else None
    rows = []
    for index, name in enumerate(lay.names):
        graph = Text(no_wrap=True)
        graph.append("┃" if name in on_path else " ", style=PATH_STYLE)
        if name == view.installed:
            graph.append("◉", style=palette.INFO_STRONG)
        elif name == view.head:
            graph.append("★", style=palette.OK_STRONG)
        elif name in view.skipped:
            graph.append("○", style=palette.MUTED)
        elif _deprecated(package, name):
            graph.append("✗", style=palette.ERROR)
        else:
            graph.append("●")
        graph.append(" ")
        for glyph, via, highlighted in lane_cells(lay, index):
            graph.append(glyph, style=KIND_STYLE.get(via, ""))
            if highlighted:  # on top of the kind's theme style: never one string with it
                graph.stylize("bold reverse", len(graph) - len(glyph), len(graph))
        marks = Text(no_wrap=True)
        for mark, on, style in (
            ("head", name == view.head, palette.OK_STRONG),
            ("installed", name == view.installed, palette.INFO_STRONG),
            ("next", name == nxt, palette.WARNING_STRONG),
            ("path", name in path and name != nxt, PATH_STYLE),
            ("skipped", name in view.skipped, palette.MUTED),
            ("deprecated", bool(_deprecated(package, name)), palette.ERROR),
            (
                "not in channel",
                name == view.installed and name not in {e.name for e in view.entries},
                palette.WARNING,
            ),
        ):
            if on:
                marks.append(f"[{mark}]", style=style)
        edges = Text(no_wrap=True)
        for edge in lay.incoming.get(name, ()):
            edges.append(f" ← {edge.via} ", style=KIND_STYLE[edge.via])
            edges.append(view.versions.get(edge.source) or edge.source)
        style = palette.MUTED if name in view.skipped else ""
        rows.append(
            Row(name, (graph, view.versions.get(name) or "-", name, marks, edges), style=style)
        )
    return rows


def find_subscription(session: Session, target: ObjectRef | None) -> SubscriptionState | None:
    if target is None:
        return None
    if target.kind == SUBSCRIPTION:
        return next(
            (
                s
                for s in session.analysis.subscriptions()
                if (s.namespace, s.name) == (target.namespace, target.name)
            ),
            None,
        )
    if target.kind == CSV:
        csv = session.model.csv(target.namespace, target.name)
        return session.analysis.subscription_for_csv(csv) if csv else None
    return None


def graph_for(session: Session, target: ObjectRef | None) -> GraphScreen | None:
    """The graph of the operator or Subscription ``target`` (None when no content knows
    its package)."""
    sub = find_subscription(session, target)
    catalogs = session.analysis.catalogs()
    if sub is not None:
        obj = session.store.get(SUBSCRIPTION, sub.namespace, sub.name)
        scope = subscription_scope(catalogs, obj) if obj else None
        if scope and scope.catalog and scope.package and scope.channels:
            return GraphScreen(
                session, scope.catalog, scope.package.name, scope.channels[0].name, sub
            )
        return None
    if target is not None and target.kind == CSV:
        for catalog in catalogs:
            for package in catalog.packages.values():
                for channel in ordered_channels(package):
                    if any(e.name == target.name for e in channel.entries):
                        return GraphScreen(session, catalog, package.name, channel.name, None)
    return None


class GraphScreen(TableScreen):
    """One channel of one package. ``c`` cycles through the package's channels."""

    REFRESH_PARTS = (*TableScreen.REFRESH_PARTS, "#graph-info")

    VIEW_TITLE = "Upgrade graph"
    SCOPE = None  # catalog content: no namespace to scope by
    COLUMNS = (
        Column("graph", "GRAPH"),
        Column("version", "VERSION", sort="version", cut="never"),
        Column("name", "BUNDLE", min_width=22, cut="middle"),
        Column("marks", "MARKS"),
        Column("edges", "UPGRADES FROM"),
    )
    EMPTY_TEXT = "the channel has no entries"
    BINDINGS = [Binding("c", "next_channel", "Channel")]

    def __init__(
        self,
        session: Session,
        catalog: Catalog,
        package: str,
        channel: str,
        sub: SubscriptionState | None,
    ) -> None:
        super().__init__(session)
        self.catalog = catalog
        self.package = catalog.packages[package]
        self.channel = channel
        self.sub = sub if sub is None or (sub.channel or channel) == channel else None
        self._home_sub = sub

    def compose_summary(self) -> ComposeResult:
        yield InertStatic(id="graph-info", classes="graph-info")

    def _view(self) -> ChannelView:
        channel = self.package.channels[self.channel]
        installed = version = None
        if self.sub is not None and self.sub.installed_csv:
            installed = self.sub.installed_csv
            csv = self.session.model.csv(self.sub.namespace, installed)
            version = csv.version if csv else None
        return channel_view(channel, self.package, installed, version)

    def _follow_subscription(self) -> None:
        """The Subscription as it is now (it upgraded; a replay's cursor moved): the
        installed mark and the path follow it."""
        home = self._home_sub
        if home is None:
            return
        now = find_subscription(self.session, ObjectRef(SUBSCRIPTION, home.namespace, home.name))
        if now is None or now == home:
            return
        self._home_sub = now
        if self.sub is not None:
            self.sub = now

    def refresh_data(self) -> None:
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        self._follow_subscription()
        view = self._view()
        self._rendered = view
        self.query_one("#graph-info", Static).update(self._info(view))
        super().refresh_data()
        if self.sub is not None and self.sub.installed_csv and not getattr(self, "_placed", 0):
            self._placed = True
            # once laid out, so that the installed row is scrolled into view
            self.call_after_refresh(self.table.select_key, self.sub.installed_csv)

    def _info(self, view: ChannelView) -> RenderableType:
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f"{view.package}", style="bold")
        title.append(f"  channel {view.channel}", style="bold")
        title.append(
            f"  ({len(view.entries)} entries, head {view.head or '?'}; "
            f"catalog {self.catalog.ref or self.catalog.origin})",
            style=palette.MUTED,
        )
        parts: list[RenderableType] = [title]
        if self.sub is not None:
            u = self.sub.upgrade
            parts.append(
                Text(
                    f"{self.sub.ref}: {self.sub.installed_csv or '(nothing)'} → "
                    f"next {u.next or ('none' if u.graph == 'catalog' and u.head is None else '-')}"
                    f" → head {u.head or '?'} "
                    f"({len(u.path)} hops)",
                    style=PATH_STYLE,
                    no_wrap=True,
                    overflow="ellipsis",
                )
            )
            if u.decided_by == "resolver" and u.not_head_because:
                parts.append(Text(f"not the head: {u.not_head_because}", style=palette.MUTED))
        legend = Text(no_wrap=True, overflow="ellipsis")
        for via, glyph in (("replaces", "│"), ("skips", "┆"), ("skipRange", "┊")):
            legend.append(f"{glyph} {via}  ", style=KIND_STYLE[via])
        legend.append("★ head ◉ installed ○ skipped ✗ deprecated ┃ path", style=palette.MUTED)
        parts.append(legend)
        if view.partial:
            parts.append(Text(f"note: {PARTIAL_NOTE}", style=palette.WARNING))
        channel = self.package.channels[self.channel]
        if channel.deprecation:
            parts.append(Text(f"channel deprecated: {channel.deprecation}", style=palette.ERROR))
        parts += [Text(f"error: {e}", style=palette.ERROR) for e in view.errors]
        return Group(*parts)

    def build_rows(self) -> Iterable[Row]:
        return graph_rows(self._rendered, self.package, self.sub)

    def describe(self, key: Hashable) -> RenderableType:
        view: ChannelView | None = getattr(self, "_rendered", None)
        if view is None or not isinstance(key, str):
            return Text("")
        entry = next((e for e in view.entries if e.name == key), None)
        parts: list[RenderableType] = [line("bundle", f"{key} {view.versions.get(key) or ''}")]
        if entry is not None:
            parts += [
                line("replaces", entry.replaces or "-"),
                line("skips", names(entry.skips)),
                line("skipRange", entry.skip_range or "-"),
            ]
        deprecated = _deprecated(self.package, key)
        if deprecated:
            parts.append(line("deprecated", deprecated, style=palette.ERROR))
        if key in view.skipped:
            parts.append(
                Text(
                    "skipped: another entry of the channel skips it, so OLM never "
                    "installs it from this channel (R-UPG-1)",
                    style=palette.MUTED,
                )
            )
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        if self.sub is not None and key == self.sub.installed_csv:
            return ObjectRef(CSV, self.sub.namespace, str(key))
        return None

    def action_next_channel(self) -> None:
        channels = [c.name for c in ordered_channels(self.package)]
        self.channel = channels[(channels.index(self.channel) + 1) % len(channels)]
        sub = self._home_sub
        self.sub = sub if sub is not None and (sub.channel or channels[0]) == self.channel else None
        self._placed = False
        self.refresh_data()
        self.table.action_jump(0)


class ChannelsScreen(TableScreen):
    """Every channel of the loaded catalog content; Enter draws it."""

    VIEW_TITLE = "Upgrade graphs"
    SCOPE = None  # catalog content: no namespace to scope by
    COLUMNS = (
        Column("package", "PACKAGE", cut="middle"),
        Column("channel", "CHANNEL", cut="middle"),
        Column("catalog", "CATALOG", cut="middle"),
        Column("content", "FROM", 15),
        Column("entries", "ENTRIES", 7, sort="number"),
        Column("head", "HEAD", cut="never"),
        Column("subs", "SUBSCRIBED", 10),
    )
    EMPTY_TEXT = "no catalog content: give --catalog PATH, or a snapshot with PackageManifests"

    def build_rows(self) -> Iterable[Row]:
        subs = self.session.model.subscriptions()
        self._channels: dict[Hashable, tuple[Catalog, str, str]] = {}
        for catalog, package, channel in self.session.analysis.channel_list():
            key = (catalog.ref or catalog.origin, package, channel)
            self._channels[key] = (catalog, package, channel)
            entries = catalog.packages[package].channels[channel]
            order, _ = channel_order(entries)
            used = sum(
                1
                for s in subs
                if s.package == package
                and (s.channel or catalog.packages[package].default_channel) == channel
            )
            yield Row(
                key,
                (
                    package,
                    channel,
                    catalog.ref or "(any source)",
                    "catalog" if catalog.graph == "catalog" else "PackageManifest",
                    str(len(entries.entries)),
                    entries.reported_head or (order[0] if order else "?"),
                    str(used),
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        item = getattr(self, "_channels", {}).get(key)
        if item is None:
            return Text("")
        catalog, package, channel = item
        return Text(f"{package} channel {channel} from {catalog.origin}. Enter draws it.")

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return None

    def open(self, key: Hashable) -> None:
        item = getattr(self, "_channels", {}).get(key)
        if item is None:
            return
        catalog, package, channel = item
        sub = next(
            (
                s
                for s in self.session.analysis.subscriptions()
                if s.package == package
                and (s.channel or catalog.packages[package].default_channel) == channel
            ),
            None,
        )
        self.app.push_screen(GraphScreen(self.session, catalog, package, channel, sub))
