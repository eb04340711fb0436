"""R-FLT-4: the same catalog (a CatalogSource by namespace and name, a ClusterCatalog by
name) serving different content across clusters: a CatalogSource's ``spec.image`` reference
(a digest when pinned by one, else the tag as written), a ClusterCatalog's resolved digest
(``status.resolvedSource.image.ref``). A catalog whose reference the report does not show
(an address-only CatalogSource, a ClusterCatalog not unpacked) is left out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.kinds import CATALOG_SOURCE, CLUSTER_CATALOG

Report = Mapping[str, Any]


def catalog_skew(reports: Mapping[str, Report]) -> list[dict[str, Any]]:
    """``[{"kind", "name", "refs": {REF: [targets]}}]`` for each catalog seen with more
    than one reference, sorted by kind and name."""
    seen: dict[tuple[str, str], dict[str, set[str]]] = {}
    for target, report in reports.items():
        for source in report.get("catalogSources") or ():
            image = source.get("image")
            if image:
                key = (CATALOG_SOURCE, f"{source.get('namespace')}/{source.get('name')}")
                seen.setdefault(key, {}).setdefault(str(image), set()).add(target)
        for catalog in report.get("clusterCatalogs") or ():
            resolved = catalog.get("resolvedRef")
            if resolved:
                key = (CLUSTER_CATALOG, str(catalog.get("name")))
                seen.setdefault(key, {}).setdefault(str(resolved), set()).add(target)
    return [
        {"kind": kind, "name": name, "refs": {r: sorted(t) for r, t in sorted(refs.items())}}
        for (kind, name), refs in sorted(seen.items())
        if len(refs) > 1
    ]
