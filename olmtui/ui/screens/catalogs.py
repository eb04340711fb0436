"""Catalogs: every CatalogSource with its health (R-SUB-8) and the packages it serves."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.kinds import CATALOG_SOURCE
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.catalog.health import CatalogHealth
from olmtui.ui import palette
from olmtui.ui.formatting import line, names, phase
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.virtual_table import Column, Row


class CatalogsScreen(TableScreen):
    VIEW_TITLE = "Catalogs"
    COLUMNS = (
        Column("namespace", "NAMESPACE", cut="middle"),
        Column("name", "NAME", cut="middle"),
        Column("type", "TYPE", 10),
        Column("state", "STATE", 17),
        Column("healthy", "HEALTHY", 7),
        Column("packages", "PACKAGES", 8, sort="number"),
        Column("subs", "SUBSCRIPTIONS", 13, sort="number"),
    )
    EMPTY_TEXT = "no CatalogSources"
    ACCESS_KIND = CATALOG_SOURCE

    def build_rows(self) -> Iterable[Row]:
        subs = self.session.model.subscriptions()
        self._health = {(h.namespace, h.name): h for h in self.session.analysis.catalog_healths()}
        for key, h in self._health.items():
            used = sum(1 for s in subs if (s.source_namespace, s.source) == key)
            packages = self.session.analysis.packages_of_catalog(*key)
            yield Row(
                key,
                (
                    h.namespace,
                    h.name,
                    h.source_type or "-",
                    phase(h.state),
                    Text("yes", style=palette.OK) if h.healthy else Text("no", style=palette.ERROR),
                    str(len(packages)) if packages else "?",
                    str(used),
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        h: CatalogHealth | None = getattr(self, "_health", {}).get(key)
        if h is None:
            return Text("")
        packages = self.session.analysis.packages_of_catalog(h.namespace, h.name)
        parts: list[RenderableType] = [
            line("CatalogSource", f"{h.ref} ({h.source_type or 'no type'})"),
            line("connection", phase(h.state)),
            line(
                "healthy",
                "yes: the resolver can read it"
                if h.healthy
                else "no: resolution against it fails or is skipped (R-SUB-8)",
                style="" if h.healthy else palette.ERROR,
            ),
        ]
        if h.reason or h.message:
            parts.append(line("reason", f"{h.reason or ''} {h.message or ''}".strip()))
        parts += [
            line("registry service", h.registry_service or "-"),
            line("last registry poll", h.last_poll or "-"),
            line(
                "packages",
                names(
                    packages, 60, empty="unknown: no PackageManifests or --catalog content for it"
                ),
            ),
        ]
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return ObjectRef(CATALOG_SOURCE, *key) if isinstance(key, tuple) else None
