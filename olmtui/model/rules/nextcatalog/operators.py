"""Every installed operator against the next release's catalog (the report's
``nextCatalog[]``): each Subscription whose installed CSV was read (OLM v0) and each
ClusterExtension with an installed bundle (OLM v1), that some ``--next-catalog`` content
stands for (R-NXT-6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from olmtui.model.records.catalog import Catalog
from olmtui.model.records.next_catalog import NextCatalogEntry
from olmtui.model.rules.nextcatalog.binding import next_for_extension, next_for_subscription
from olmtui.model.rules.nextcatalog.extensions import extension_entry
from olmtui.model.rules.nextcatalog.subscriptions import subscription_entry
from olmtui.objects import Obj, meta, name_of, namespace_of, status


def next_catalog_entries(
    next_catalogs: Sequence[Catalog],
    current: Sequence[Catalog],
    subscriptions: Iterable[Obj],
    csvs: Iterable[Obj],
    extensions: Iterable[Obj] = (),
    cluster_catalogs: Iterable[Obj] = (),
) -> list[NextCatalogEntry]:
    """One entry per installed operator some next catalog covers, sorted by object; none
    without ``--next-catalog``. A Subscription whose installed CSV was not read is left out:
    its version, which skipRanges admit, is unknown."""
    if not next_catalogs:
        return []
    by_name = {(namespace_of(c), name_of(c)): c for c in csvs}
    entries: list[NextCatalogEntry] = []
    for sub in subscriptions:
        installed = status(sub).get("installedCSV")
        csv = by_name.get((meta(sub).get("namespace") or "", str(installed or "")))
        next_catalog = next_for_subscription(next_catalogs, sub)
        if csv is None or not installed or next_catalog is None:
            continue
        entries.append(subscription_entry(sub, csv, next_catalog, current))
    catalogs_read = {name_of(c): c for c in cluster_catalogs}
    for extension in extensions:
        bundle = (status(extension).get("install") or {}).get("bundle")
        if not isinstance(bundle, dict) or not bundle.get("name"):
            continue
        next_catalog = next_for_extension(next_catalogs, extension, catalogs_read)
        if next_catalog is None:
            continue
        entries.append(extension_entry(extension, next_catalog, current, catalogs_read))
    entries.sort(key=lambda e: (e.object.kind, e.object.namespace, e.object.name))
    return entries
