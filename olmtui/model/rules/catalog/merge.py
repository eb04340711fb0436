"""Several pieces of catalog content given for one CatalogSource are one catalog (R-DOC-8).

``--catalog ns/src=pkgA --catalog ns/src=pkgB`` names two directories the same CatalogSource
serves: OLM sees one catalog holding both packages, so neither piece may hide the other. The
same package given twice is merged (channels, entries and bundles); where the pieces disagree
on one thing (an entry's edges, a bundle, the default channel) the first given is kept and a
``CatalogContentConflict`` finding says so, rather than one piece being dropped silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from olmtui.kinds import CATALOG_SOURCE, CLUSTER_CATALOG
from olmtui.model.records.catalog import Catalog, Channel, Package
from olmtui.model.records.types import Finding

CONFLICT = "CatalogContentConflict"


def merge_catalogs(catalogs: Sequence[Catalog]) -> list[Catalog]:
    """One Catalog per (ref, graph kind), in the order first given. The inputs are not changed."""
    merged: dict[tuple[str | None, str], Catalog] = {}
    made: set[int] = set()
    for catalog in catalogs:
        key = (catalog.ref, catalog.graph)
        first = merged.get(key)
        if first is None:
            merged[key] = catalog
            continue
        if id(first) not in made:
            # The first piece is left as given: the merge is a new Catalog.
            first = Catalog(
                first.ref,
                first.origin,
                first.graph,
                dict(first.packages),
                list(first.findings),
                whole=first.whole,
            )
            merged[key] = first
            made.add(id(first))
        _merge_into(first, catalog)
    return list(merged.values())


def _merge_into(target: Catalog, other: Catalog) -> None:
    target.origin = f"{target.origin} + {other.origin}"
    target.findings += other.findings
    # A whole catalog given with more content stays whole only if every piece was whole.
    target.whole = target.whole and other.whole
    for name, package in other.packages.items():
        have = target.packages.get(name)
        if have is None:
            target.packages[name] = package
        else:
            target.packages[name] = _merge_package(target, have, package, other.origin)


def _merge_package(catalog: Catalog, first: Package, second: Package, origin: str) -> Package:
    """R-DOC-8: one package from two pieces: union of channels, entries and bundles."""
    out = Package(
        first.name,
        first.default_channel or second.default_channel,
        dict(first.channels),
        dict(first.bundles),
        first.deprecation or second.deprecation,
        [*first.lifecycles, *(d for d in second.lifecycles if d not in first.lifecycles)],
    )
    conflicts: list[str] = []
    if first.default_channel and second.default_channel not in (None, first.default_channel):
        conflicts.append(
            f"default channel {first.default_channel} against {second.default_channel}"
        )
    for name, channel in second.channels.items():
        have = out.channels.get(name)
        out.channels[name] = channel if have is None else _merge_channel(have, channel, conflicts)
    for name, bundle in second.bundles.items():
        have_bundle = out.bundles.get(name)
        if have_bundle is None:
            out.bundles[name] = bundle
        elif have_bundle != bundle:
            conflicts.append(f"bundle {name} differs")
    if conflicts:
        catalog.findings.append(_conflict(catalog, first.name, origin, conflicts))
    return out


def _merge_channel(first: Channel, second: Channel, conflicts: list[str]) -> Channel:
    entries = {e.name: e for e in first.entries}
    added = []
    for entry in second.entries:
        have = entries.get(entry.name)
        if have is None:
            added.append(entry)
        elif have != entry:
            conflicts.append(f"entry {entry.name} of channel {first.name} has other edges")
    return replace(
        first,
        entries=(*first.entries, *added),
        deprecation=first.deprecation or second.deprecation,
        reported_head=first.reported_head or second.reported_head,
    )


def _conflict(catalog: Catalog, package: str, origin: str, conflicts: list[str]) -> Finding:
    namespace, _, name = (catalog.ref or "").rpartition("/")
    # R-V1-22: a ref without ``/`` names an OLM v1 ClusterCatalog (cluster-scoped).
    kind = CLUSTER_CATALOG if catalog.for_cluster_catalog else CATALOG_SOURCE
    return Finding(
        "warning",
        CONFLICT,
        kind if catalog.ref else "Catalog",
        namespace,
        name or catalog.origin,
        f"Package {package} is given more than once for this catalog and the pieces disagree "
        f"({'; '.join(conflicts)}): the first given is used, {origin} is not for those. "
        f"Give each package once per {kind}, as the catalog image holds it.",
        "R-DOC-8",
    )
