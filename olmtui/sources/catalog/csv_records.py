"""From a ClusterServiceVersion (and the CRDs and dependency files beside it) to catalog records.

Bundle-format directories, legacy package manifests and FBC ``olm.bundle.object`` manifests
all carry full CSVs. The upgrade edges live in the CSV (``spec.replaces``, ``spec.skips``,
the ``olm.skipRange`` annotation) and become a channel entry; the rest (version, APIs,
install modes, dependencies, owned CRDs) becomes the bundle.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from olmtui.kinds import CRD, CSV
from olmtui.model.primitives.manifest_fields import (
    SKIP_RANGE_ANNOTATION,
    mapping,
    supported_install_modes,
    trimmed_text,
)
from olmtui.model.records.catalog import Bundle, ChannelEntry
from olmtui.model.rules.apis.reconcile import api_surface

Obj = dict[str, Any]

CSV_KIND = CSV
CRD_KIND = CRD


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(t for t in (trimmed_text(v) for v in value) if t)


def csv_name(csv: Obj) -> str | None:
    return trimmed_text(mapping(csv.get("metadata")).get("name"))


def entry_from_csv(csv: Obj) -> ChannelEntry:
    """The CSV's upgrade edges: ``spec.replaces``, ``spec.skips``, ``olm.skipRange``."""
    spec = mapping(csv.get("spec"))
    annotations = mapping(mapping(csv.get("metadata")).get("annotations"))
    return ChannelEntry(
        name=csv_name(csv) or "",
        replaces=trimmed_text(spec.get("replaces")),
        skips=_names(spec.get("skips")),
        skip_range=trimmed_text(annotations.get(SKIP_RANGE_ANNOTATION)),
    )


def crd_served(crd: Obj) -> tuple[str, tuple[str, ...], str | None]:
    """``(name, served versions, storage version)`` of a CRD (v1 or v1beta1)."""
    spec = mapping(crd.get("spec"))
    served: list[str] = []
    storage: str | None = None
    versions = spec.get("versions")
    if isinstance(versions, list) and versions:
        for version in versions:
            version = mapping(version)
            name = trimmed_text(version.get("name"))
            if name and version.get("served", True) is not False:
                served.append(name)
            if name and version.get("storage") is True:
                storage = name
    elif trimmed_text(spec.get("version")):
        # v1beta1 with a single top-level version: served and stored.
        storage = trimmed_text(spec.get("version"))
        served.append(storage or "")
    return csv_name(crd) or "", tuple(served), storage


def crd_all_versions(crd: Obj) -> tuple[str, tuple[str, ...]]:
    """``(name, every version defined)``, served or not."""
    spec = mapping(crd.get("spec"))
    versions = spec.get("versions")
    names = (
        [trimmed_text(mapping(v).get("name")) for v in versions]
        if isinstance(versions, list)
        else []
    )
    if not names and trimmed_text(spec.get("version")):
        names = [trimmed_text(spec.get("version"))]
    return csv_name(crd) or "", tuple(n for n in names if n)


def crds_fields(crds: Iterable[Obj]) -> dict[str, Any]:
    """The Bundle fields that come from owned CRD manifests."""
    crds = list(crds)
    return {
        "crds": tuple(sorted(crd_served(c) for c in crds)),
        "crd_versions": tuple(sorted(crd_all_versions(c) for c in crds)),
    }


def crd_has_conversion_webhook(crd: Obj) -> bool:
    return mapping(mapping(crd.get("spec")).get("conversion")).get("strategy") == "Webhook"


def csv_has_conversion_webhook(csv: Obj) -> bool:
    hooks = mapping(csv.get("spec")).get("webhookdefinitions")
    return isinstance(hooks, list) and any(
        mapping(h).get("type") == "ConversionWebhook" for h in hooks
    )


def gvk_key(value: Any) -> str | None:
    """An ``olm.gvk`` value as the API key ``Kind.version.group``."""
    value = mapping(value)
    kind, version = trimmed_text(value.get("kind")), trimmed_text(value.get("version"))
    if not kind or not version:
        return None
    return f"{kind}.{version}.{trimmed_text(value.get('group')) or ''}"


def dependencies(items: Any) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """``metadata/dependencies.yaml`` entries: ``olm.gvk`` -> required APIs, ``olm.package``
    -> ``(package, version range)``. Other types (``olm.constraint``, labels) are not modelled."""
    apis: list[str] = []
    packages: list[tuple[str, str]] = []
    for item in items if isinstance(items, list) else ():
        item = mapping(item)
        kind, value = item.get("type"), mapping(item.get("value"))
        if kind == "olm.gvk" and (key := gvk_key(value)):
            apis.append(key)
        elif kind == "olm.package" and (name := trimmed_text(value.get("packageName"))):
            packages.append((name, trimmed_text(value.get("version")) or ""))
    return tuple(apis), tuple(packages)


def bundle_from_csv(
    csv: Obj,
    package: str,
    *,
    crds: Iterable[Obj] = (),
    dependency_items: Any = None,
    prohibited: bool = False,
    properties: tuple[tuple[str, str], ...] = (),
    caps: tuple[str, ...] = (),
) -> Bundle:
    """A Bundle from its CSV, the CRD manifests shipped with it and its dependencies file.
    ``properties`` are the resolver's (``properties``); an ``olm.deprecated`` among
    them makes the bundle one that is never newly chosen (R-UPG-2), as in an FBC."""
    spec = mapping(csv.get("spec"))
    surface = api_surface(csv)
    dep_apis, dep_packages = dependencies(dependency_items)
    crds = list(crds)
    return Bundle(
        name=csv_name(csv) or "",
        package=package,
        version=trimmed_text(spec.get("version")),
        prohibited=prohibited or any(kind == "olm.deprecated" for kind, _ in properties),
        provided_apis=tuple(sorted(surface.provided)),
        required_apis=tuple(sorted(surface.required | set(dep_apis))),
        required_packages=dep_packages,
        install_modes=supported_install_modes(spec.get("installModes")),
        **crds_fields(crds),
        has_conversion_webhook=csv_has_conversion_webhook(csv)
        or any(crd_has_conversion_webhook(c) for c in crds),
        properties=properties,
        max_openshift_versions=caps,
    )
