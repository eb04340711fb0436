"""``g`` on a ClusterExtension: its package's channel drawn by the graph screen, from the
content bound to the ClusterCatalogs its selector takes, with the installed bundle and the
one olmtui computes it would resolve to marked.

The edges are the ones OLM v0 draws (replaces, skips, skipRange): under
``CatalogProvided`` operator-controller takes as successors exactly the entries whose edges
name the installed bundle, and the highest version wins, not the channel's head (R-V1-15).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.kinds import CLUSTER_EXTENSION
from olmtui.model.records.catalog import Catalog, Package
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.upgrades.graph import ordered_channels
from olmtui.model.rules.v1.extensions import SELF_CERTIFIED, ClusterExtension
from olmtui.model.rules.v1.resolve import V1Resolution
from olmtui.model.rules.v1.state import resolution_words
from olmtui.model.viewmodels.graph_render import ChannelView, channel_view
from olmtui.pipeline.session import Session
from olmtui.ui import palette
from olmtui.ui.screens.graph import GraphScreen, graph_rows
from olmtui.ui.widgets.virtual_table import Row


def _channel(package: Package, extension: ClusterExtension) -> str:
    """The first channel the spec names that the package has, else its default (or first)."""
    for name in extension.channels:
        if name in package.channels:
            return name
    return ordered_channels(package)[0].name


def extension_graph(session: Session, name: str) -> ExtensionGraphScreen | str:
    """The graph screen of ClusterExtension ``name``, or why there is none."""
    state = session.analysis.v1_state()
    extension = state.extensions.get(name)
    if extension is None:
        return f"ClusterExtension {name} is not in the source"
    resolution = state.resolutions.get(name)
    selected = sorted(state.selected(extension), key=lambda c: -c.priority)
    if not selected:
        return f"ClusterExtension {name} selects no ClusterCatalog"
    order = [c.name for c in selected]
    if resolution is not None and resolution.catalog in order:
        order.remove(resolution.catalog)
        order.insert(0, resolution.catalog)
    given = [n for n in order if n in state.content]
    if not given:
        return (
            f"no upgrade graph: no catalog content given for ClusterCatalog {', '.join(order)} "
            "(--catalog NAME=PATH)"
        )
    for catalog_name in given:
        package = state.content[catalog_name].packages.get(extension.package)
        if package is not None and package.channels:
            return ExtensionGraphScreen(
                session,
                state.content[catalog_name],
                extension,
                resolution,
                catalog_name,
            )
    return (
        f"no upgrade graph: the content given for ClusterCatalog {', '.join(given)} has no "
        f"channel of package {extension.package}"
    )


class ExtensionGraphScreen(GraphScreen):
    """One channel of the extension's package; ``c`` cycles through the others."""

    VIEW_TITLE = "Upgrade graph (OLM v1)"

    def __init__(
        self,
        session: Session,
        catalog: Catalog,
        extension: ClusterExtension,
        resolution: V1Resolution | None,
        catalog_name: str,
    ) -> None:
        package = catalog.packages[extension.package]
        super().__init__(session, catalog, package.name, _channel(package, extension), None)
        self.extension = extension
        self.resolution = resolution
        self.catalog_name = catalog_name

    def _view(self) -> ChannelView:
        installed = self.extension.installed
        return channel_view(
            self.package.channels[self.channel],
            self.package,
            installed.bundle if installed else None,
            installed.version if installed else None,
        )

    def _info(self, view: ChannelView) -> RenderableType:
        base = super()._info(view)
        e = self.extension
        _, resolves = resolution_words(self.resolution)
        about = Text(no_wrap=True, overflow="ellipsis")
        about.append(
            f"ClusterExtension {e.name} (ClusterCatalog {self.catalog_name}): "
            f"{e.installed.bundle if e.installed else '(nothing installed)'} → {resolves}",
            style=palette.OK_STRONG,
        )
        rule = (
            "SelfCertified: any version in range may be picked (R-V1-16)"
            if e.upgrade_constraint_policy == SELF_CERTIFIED
            else "OLM v1 takes every entry whose edge names the installed bundle; the highest "
            "version wins, not the head (R-V1-15)"
        )
        parts: list[RenderableType] = [
            about,
            Text(rule, style=palette.MUTED, no_wrap=True, overflow="ellipsis"),
        ]
        if isinstance(base, Group):
            parts = [*base.renderables[:1], *parts, *base.renderables[1:]]
        return Group(*parts)

    def refresh_data(self) -> None:
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        super().refresh_data()
        installed = self.extension.installed
        if installed is not None and not getattr(self, "_placed_v1", False):
            self._placed_v1 = True
            self.call_after_refresh(self.table.select_key, installed.bundle)

    def build_rows(self) -> Iterable[Row]:
        resolved = self.resolution.bundle if self.resolution is not None else None
        for row in graph_rows(self._rendered, self.package, None):
            if row.key == resolved:
                marks = row.cells[3]
                marks = marks.copy() if isinstance(marks, Text) else Text(str(marks))
                marks.append("[resolves to]", style=palette.WARNING_STRONG)
                row = row._replace(cells=(*row.cells[:3], marks, *row.cells[4:]))
            yield row

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        installed = self.extension.installed
        if installed is not None and key == installed.bundle:
            return ObjectRef(CLUSTER_EXTENSION, "", self.extension.name)
        return None
