"""Catalog content for upgrade graphs, kept current as the source's PackageManifests change.

``--catalog`` content comes first: it beats PackageManifests for the same CatalogSource
(``subscription_scope`` takes the first catalog that serves the package). Pieces given for
one CatalogSource are merged into one catalog first (R-DOC-8). The
PackageManifests are read from the store, so a live cluster's catalogs follow its
packageserver; a snapshot's simply never change. ClusterCatalog content a live session
fetches from catalogd comes last; when it changes, the set publishes a ``CATALOG_CONTENT``
change on the store's feed, so everything that follows the store derives again from it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import UpgradeInfo
from olmtui.model.rules.catalog.merge import merge_catalogs
from olmtui.model.rules.catalog.packagemanifest_catalog import catalog_from_packagemanifests
from olmtui.model.rules.upgrades.graph import upgrade_hook
from olmtui.store import CATALOG_CONTENT, Change, ContentNews, Obj, Store

#: The changes after which the catalogs are read again: packageserver's PackageManifests,
#: and content fetched live (:meth:`CatalogSet.follow`).
CONTENT_KINDS = frozenset({"PackageManifest", CATALOG_CONTENT})


class LiveCatalogs(Protocol):
    """Catalog content a live source fetches itself: ClusterCatalogs from catalogd
    (``olmtui.sources.catalog.catalogd.CatalogdFetcher``), one Catalog per ClusterCatalog name."""

    def catalogs(self) -> list[Catalog]: ...

    def subscribe(self, listener: Callable[[Sequence[ContentNews]], None]) -> None: ...


class FetchedOnce:
    """ClusterCatalog content read once with the cluster (``check --live``): it joins the
    catalogs as a live session's does, under the same rule, and never changes."""

    def __init__(self, catalogs: Sequence[Catalog]) -> None:
        self._catalogs = list(catalogs)

    def catalogs(self) -> list[Catalog]:
        return self._catalogs

    def subscribe(self, listener: Callable[[Sequence[ContentNews]], None]) -> None:
        """Nothing to hear: the content was read once."""


class CatalogSet:
    """The catalogs of one source: ``loaded`` (``--catalog``) and the store's PackageManifests.

    Build it before the Model over the same store: it must hear of a PackageManifest change
    before the Model recomputes the Subscriptions of that package through :meth:`resolve`.
    """

    def __init__(
        self, store: Store, loaded: Sequence[Catalog] = (), *, listed_live: bool = False
    ) -> None:
        self.loaded = merge_catalogs(loaded)
        #: R-DOC-8: PackageManifests listed from the packageserver hold every package a
        #: served CatalogSource has; a saved file may hold any subset of them.
        self.listed_live = listed_live
        self._store = store
        self._current: list[Catalog] | None = None
        self._resolver: Callable[[Obj, Store], UpgradeInfo] | None = None
        self._live: LiveCatalogs | None = None
        store.subscribe(self._on_changes)

    def follow(self, live: LiveCatalogs) -> None:
        """Add the ClusterCatalog content a live session fetches from catalogd (R-V1-21)
        after the other catalogs; content bound with ``--catalog NAME=PATH`` for the same
        ClusterCatalog beats it (given offline on purpose)."""
        self._live = live
        live.subscribe(self._content_arrived)

    def _content_arrived(self, news: Sequence[ContentNews]) -> None:
        """New ClusterCatalog content: published on the store's change feed, which the Model,
        the HealthIndex (its ClusterExtension subjects), the change log and the screens
        already follow; this set hears it there too and reads the catalogs again on next
        use."""
        self._store.content_changed("ClusterCatalog", news)

    def _forget(self) -> None:
        self._current = None
        self._resolver = None

    def _on_changes(self, changes: list[Change]) -> None:
        if any(change.key.kind in CONTENT_KINDS for change in changes):
            self._forget()

    def current(self) -> list[Catalog]:
        """The catalogs now: ``loaded`` first, then one per CatalogSource of PackageManifests,
        then the ClusterCatalogs' content fetched live (:meth:`follow`)."""
        if self._current is None:
            manifests = self._store.list("PackageManifest")
            listed = catalog_from_packagemanifests(manifests, whole=self.listed_live)
            fetched = self._live.catalogs() if self._live is not None else []
            bound = {c.ref for c in self.loaded if c.graph == "catalog"}
            self._current = [*self.loaded, *listed, *(c for c in fetched if c.ref not in bound)]
        return self._current

    def resolve(self, sub: Obj, store: Store) -> UpgradeInfo:
        """The Model's upgrade hook over :meth:`current` (its graphs shared until the
        PackageManifests change)."""
        if self._resolver is None:
            self._resolver = upgrade_hook(self.current())
        return self._resolver(sub, store)
