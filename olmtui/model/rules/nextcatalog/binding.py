"""R-NXT-6: which ``--next-catalog`` content stands for an installed operator's catalog after
the upgrade. Content bound to ``NAMESPACE/NAME`` replaces that CatalogSource (OLM v0);
content bound to ``NAME`` replaces that ClusterCatalog (OLM v1) when the ClusterExtension's
selector selects it; unbound content applies to every installed operator whose package it
holds. Bound content comes first; an operator no content covers is not judged (unknown is
not absent)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.upgrades.graph import source_ref
from olmtui.model.rules.v1.catalog_selector import SelectorError, catalog_labels, catalog_selector
from olmtui.objects import Obj, spec


def next_for_subscription(next_catalogs: Sequence[Catalog], sub: Obj) -> Catalog | None:
    """The content that replaces the Subscription's CatalogSource (R-NXT-6)."""
    ref = source_ref(sub)
    package = str(spec(sub).get("name") or "")
    bound = next((c for c in next_catalogs if c.ref == ref), None)
    if bound is not None:
        return bound
    return next((c for c in next_catalogs if c.ref is None and package in c.packages), None)


def next_for_extension(
    next_catalogs: Sequence[Catalog], extension: Obj, cluster_catalogs: Mapping[str, Obj]
) -> Catalog | None:
    """The content that replaces a ClusterCatalog the extension selects (R-NXT-6); a bound
    name no ClusterCatalog read carries is matched on its name label alone."""
    source = (spec(extension).get("source") or {}).get("catalog") or {}
    package = str(source.get("packageName") or "") if isinstance(source, Mapping) else ""
    try:
        selected = catalog_selector(source.get("selector") if isinstance(source, Mapping) else None)
    except SelectorError:
        selected = None
    for catalog in next_catalogs:
        if catalog.for_cluster_catalog and selected is not None:
            name = catalog.ref or ""
            obj = cluster_catalogs.get(name) or {"metadata": {"name": name}}
            if selected(catalog_labels(obj)):
                return catalog
    return next((c for c in next_catalogs if c.ref is None and package in c.packages), None)
