"""What a namespace's resolution reads, gathered on the UI thread (the cache is only read
there) so that a worker can resolve it while the cache moves on.

Resolving reads the namespace's objects and the catalog content; the content's snapshots
are the slow part (a large catalog takes most of a second), so the Analysis keeps one
:class:`CatalogContent` per list of catalogs the session hands out (the list is replaced
when the catalogs change) and every resolution reuses the entries it built.
"""

from __future__ import annotations

from dataclasses import dataclass

from olmtui.model.rules.resolution.resolve import (
    CatalogContent,
    NamespaceObjects,
    resolve_namespace,
)
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.pipeline.memo import same_objects


@dataclass(frozen=True, slots=True)
class ResolutionInputs:
    """Everything one namespace's resolution reads, taken from the cache at one moment, so
    that a worker thread can resolve it while the cache moves on."""

    objects: NamespaceObjects
    content: CatalogContent
    global_namespace: str
    has_content: bool

    def same_as(self, other: ResolutionInputs | None) -> bool:
        """Whether ``other`` holds the very same objects (the cache replaces an object
        when it changes, so identity says nothing moved) and content."""
        if other is None or other.content is not self.content:
            return False
        if other.global_namespace != self.global_namespace:
            return False
        a, b = self.objects, other.objects
        return (
            a.catalog_sources_read == b.catalog_sources_read
            and same_objects(a.operator_groups, b.operator_groups)
            and same_objects(a.subscriptions, b.subscriptions)
            and same_objects(a.csvs, b.csvs)
            and a.catalog_sources.keys() == b.catalog_sources.keys()
            and all(same_objects(v, b.catalog_sources[k]) for k, v in a.catalog_sources.items())
        )

    def resolve(self) -> NamespaceResolution:
        """Slow with a large catalog: call it off the UI thread."""
        return resolve_namespace(self.objects, self.content, self.global_namespace)
