"""Catalogs: every CatalogSource, what it is (how it serves, from where, at which priority,
polled how often), its health (R-SUB-8) and the packages it serves."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.kinds import CATALOG_SOURCE, POD
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.catalog.health import CatalogHealth
from olmtui.model.viewmodels.catalog_identity import CatalogIdentity
from olmtui.ui import palette
from olmtui.ui.formatting import line, names, phase
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.virtual_table import Column, Row


class CatalogsScreen(TableScreen):
    VIEW_TITLE = "Catalogs"
    COLUMNS = (
        Column("namespace", "NAMESPACE", cut="middle"),
        Column("name", "NAME", cut="middle"),
        # sized from their content: a fixed KIND wide enough for "run bundle test catalog"
        # left STATE too narrow for TRANSIENT_FAILURE at 160 columns; a state is never cut
        Column("kind", "KIND"),
        Column("priority", "PRIORITY", 8, sort="number"),
        Column("state", "STATE", cut="never"),
        Column("healthy", "HEALTHY", 7),
        Column("packages", "PACKAGES", 8, sort="number"),
        Column("subs", "SUBSCRIPTIONS", 13, sort="number"),
    )
    EMPTY_TEXT = "no CatalogSources"
    ACCESS_KIND = CATALOG_SOURCE

    def build_rows(self) -> Iterable[Row]:
        subs = self.session.model.subscriptions()
        self._health = {(h.namespace, h.name): h for h in self.session.analysis.catalog_healths()}
        identities = self.session.analysis.catalog_identities()
        for key, h in self._health.items():
            identity = identities.get(key)
            used = sum(1 for s in subs if (s.source_namespace, s.source) == key)
            packages = self.session.analysis.packages_of_catalog(*key)
            yield Row(
                key,
                (
                    h.namespace,
                    h.name,
                    identity.kind if identity is not None else h.source_type or "-",
                    str(identity.priority) if identity is not None else "-",
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
        identity = self.session.analysis.catalog_identities().get((h.namespace, h.name))
        parts: list[RenderableType] = [
            line("CatalogSource", f"{h.ref} ({h.source_type or 'no type'})"),
            *(_identity_lines(identity) if identity is not None else ()),
            *(_pods_line(identity, POD in self.session.store.unreadable) if identity else ()),
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


def _identity_lines(identity: CatalogIdentity) -> list[RenderableType]:
    """What the catalog is: how it serves and from where, its priority, its polling, and a
    warning for the test catalog ``operator-sdk run bundle`` leaves behind."""
    source = identity.image or identity.address or identity.configmap or "-"
    where = "image" if identity.image else "address" if identity.address else "configmap"
    parts: list[RenderableType] = [
        line("kind", identity.kind),
        line(where, source),
        line("priority", f"{identity.priority} (higher is preferred, R-RES-4)"),
        line("polling", f"every {identity.polling}" if identity.polling else "not polled"),
    ]
    if identity.publisher:
        parts.append(line("publisher", identity.publisher))
    if identity.test_catalog:
        parts.append(
            line(
                "test catalog",
                "made by operator-sdk run bundle (operators.operatorframework.io/index-image)",
                style=palette.WARNING,
            )
        )
    return parts


def _pods_line(identity: CatalogIdentity, forbidden: bool) -> list[RenderableType]:
    """The catalog's registry pods (R-EVD-1) and their health; "no access" when the user may
    not read pods, which says nothing of whether they run (R-SRC-3)."""
    if identity.address and not identity.image:  # served elsewhere: OLM runs no pod for it
        return []
    if forbidden:
        return [line("pods", "no access: pods may not be read", style=palette.UNKNOWN)]
    if not identity.pods:
        return [line("pods", "none in the input")]
    shown = []
    for pod in identity.pods:
        health = pod.waiting or ("ready" if pod.ready else pod.phase or "not ready")
        restarts = f", {pod.restarts} restarts" if pod.restarts else ""
        shown.append(f"{pod.name} ({health}{restarts})")
    healthy = all(p.ready for p in identity.pods)
    return [line("pods", "; ".join(shown), style="" if healthy else palette.ERROR)]
