"""Which lifecycle document speaks for an installed operator (R-LCY-2).

A CSV (OLM v0) is the operator its Subscription installed (``status.installedCSV``): its
package is the Subscription's, and the document comes from the content given for the
Subscription's CatalogSource, else from content that serves every catalog. A CSV without a
Subscription is matched by the ``olm.package`` property OLM copied into it, against content
that serves every catalog only. A ClusterExtension (OLM v1) is matched by its package against
content bound to a ClusterCatalog, else content that serves every catalog. Two different
documents for the package in that content are a catalog build error: none is used, as the
console shows "No data" for them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from olmtui.frozen import frozen
from olmtui.kinds import CLUSTER_EXTENSION, CSV
from olmtui.model.primitives.bundle_properties import PROPERTIES_ANNOTATION, package_property
from olmtui.model.records.catalog import Catalog, Package
from olmtui.model.rules.csvs.csv_phase_findings import newest_time
from olmtui.model.rules.v1.extensions import decode_extension
from olmtui.objects import Obj, annotations_of, meta


@frozen
class Installed:
    """One installed operator: its object, package, version, and which content may speak
    for it (``sources``: catalog refs in order of preference; ``None`` is content that serves
    every catalog, ``"*v1"`` any content bound to a ClusterCatalog)."""

    kind: str
    namespace: str
    name: str
    package: str
    version: str | None
    sources: tuple[str | None, ...]


@frozen
class Found:
    """The package as the content chosen for an installed operator holds it."""

    catalog: str | None
    package: Package


_V1 = "*v1"


def _installed_by(subscriptions: Iterable[Obj]) -> dict[tuple[str, str], Obj]:
    found: dict[tuple[str, str], Obj] = {}
    for sub in subscriptions:
        installed = (sub.get("status") or {}).get("installedCSV")
        if isinstance(installed, str) and installed:
            found.setdefault((meta(sub).get("namespace") or "", installed), sub)
    return found


def installed_operators(
    csvs: Iterable[Obj], subscriptions: Iterable[Obj], extensions: Iterable[Obj]
) -> list[Installed]:
    """Every installed operator the lifecycle rules read: the non-copied CSVs given (with
    their Subscriptions) and the ClusterExtensions that report an installed bundle."""
    by_csv = _installed_by(subscriptions)
    found: list[Installed] = []
    for csv in csvs:
        namespace, name = meta(csv).get("namespace") or "", meta(csv).get("name") or ""
        version = (csv.get("spec") or {}).get("version")
        version = str(version) if version is not None else None
        sub = by_csv.get((namespace, name))
        if sub is not None:
            spec = sub.get("spec") or {}
            source = f"{spec.get('sourceNamespace') or ''}/{spec.get('source') or ''}"
            package = str(spec.get("name") or "")
            found.append(Installed(CSV, namespace, name, package, version, (source, None)))
            continue
        package_name, _ = package_property(annotations_of(csv).get(PROPERTIES_ANNOTATION))
        if package_name:
            found.append(Installed(CSV, namespace, name, package_name, version, (None,)))
    for obj in extensions:
        extension = decode_extension(obj)
        if extension.installed is None or not extension.package:
            continue
        found.append(
            Installed(
                CLUSTER_EXTENSION,
                "",
                extension.name,
                extension.package,
                extension.installed.version,
                (_V1, None),
            )
        )
    return found


def _serves(catalog: Catalog, source: str | None) -> bool:
    if source == _V1:
        return catalog.for_cluster_catalog
    return catalog.ref == source


def content_for(installed: Installed, catalogs: Sequence[Catalog]) -> Found | None:
    """The package in the first content, by preference, that holds lifecycle documents
    for it; ``None`` when no content given for it has any."""
    for source in installed.sources:
        for catalog in catalogs:
            package = catalog.packages.get(installed.package)
            if package is not None and package.lifecycles and _serves(catalog, source):
                return Found(catalog.ref, package)
    return None


def input_day(now: dt.datetime | None, objects: Iterable[Obj]) -> dt.date | None:
    """The day the input speaks of (UTC): a live clock or a must-gather's time (the ages'
    clock); else the newest time the objects record, a day the input was taken on or after
    (every claim made on it holds on any later day too, R-LCY-2); ``None`` when neither is
    known."""
    if now is not None:
        return now.astimezone(dt.UTC).date()
    newest = newest_time(objects)
    return newest.astimezone(dt.UTC).date() if newest is not None else None
