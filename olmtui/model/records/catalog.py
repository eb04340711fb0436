"""Catalog content as the upgrade rules need it: packages, channels, entries, bundles.

Filled from file-based catalogs, bundle-format directories, legacy package manifests
(``olmtui/sources/catalog/catalogs.py``) or PackageManifest objects. Edges (``replaces``, ``skips``,
``skipRange``) live on channel entries because that is where an FBC puts them; a
bundle-format catalog copies them from each CSV.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from olmtui.frozen import frozen
from olmtui.model.records.lifecycle import Lifecycle
from olmtui.model.records.types import Finding

GraphKind = Literal["catalog", "packagemanifest"]

#: The property types catalog loaders keep in ``Bundle.properties``: those the resolver
#: reads (R-RES-6, R-RES-12). A catalog entry's property list is complete for these only.
RESOLVER_PROPERTY_TYPES = frozenset(
    (
        "olm.package",
        "olm.gvk",
        "olm.gvk.required",
        "olm.package.required",
        "olm.label",
        "olm.label.required",
        "olm.constraint",
        "olm.deprecated",
    )
)


@frozen
class ChannelEntry:
    name: str
    replaces: str | None = None
    skips: tuple[str, ...] = ()
    skip_range: str | None = None


@frozen
class Channel:
    package: str
    name: str
    entries: tuple[ChannelEntry, ...]
    #: ``olm.deprecations`` message for the channel, if deprecated.
    deprecation: str | None = None
    #: From a PackageManifest: the head as the packageserver reports it (no edges known).
    reported_head: str | None = None


@frozen
class Bundle:
    name: str
    package: str
    version: str | None = None
    #: Legacy ``olm.deprecated`` property: the bundle can never be newly chosen (R-UPG-2).
    prohibited: bool = False
    #: ``olm.deprecations`` message for the bundle, if deprecated.
    deprecation: str | None = None
    provided_apis: tuple[str, ...] = ()
    required_apis: tuple[str, ...] = ()
    #: ``olm.package.required``: (package name, version range).
    required_packages: tuple[tuple[str, str], ...] = ()
    install_modes: tuple[str, ...] = ()
    #: Owned CRDs as ``(name, served versions, storage version)`` where the catalog carries them.
    crds: tuple[tuple[str, tuple[str, ...], str | None], ...] = ()
    #: Every version each owned CRD defines, served or not, as ``(name, versions)``, where the
    #: catalog carries the CRDs: tells a version set to ``served: false`` from one removed.
    crd_versions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    has_conversion_webhook: bool = False
    #: The properties of the types in ``RESOLVER_PROPERTY_TYPES``, in the order ``opm render``
    #: writes them, as ``(type, value as compact JSON text)``. Bulky ones
    #: (``olm.bundle.object``) are not kept.
    properties: tuple[tuple[str, str], ...] = ()
    #: Each ``olm.maxOpenShiftVersion`` value the bundle declares, as compact JSON text (a
    #: string and a number are told apart, as cluster-olm-operator does, R-CUP-3/R-CUP-4).
    max_openshift_versions: tuple[str, ...] = ()


@dataclass(slots=True)
class Package:
    name: str
    default_channel: str | None = None
    channels: dict[str, Channel] = field(default_factory=dict)
    bundles: dict[str, Bundle] = field(default_factory=dict)
    #: ``olm.deprecations`` message for the whole package, if deprecated.
    deprecation: str | None = None
    #: Its ``io.openshift.operators.lifecycles.v1alpha1`` documents, as read (R-LCY-1): one
    #: is the package's lifecycle; more than one is a catalog build error, and none is used.
    lifecycles: list[Lifecycle] = field(default_factory=list)


@dataclass(slots=True)
class Catalog:
    """One catalog's content. ``ref`` is ``"namespace/name"`` of the OLM v0 CatalogSource it
    stands for, ``"name"`` (no ``/``) of the OLM v1 ClusterCatalog it stands for (R-V1-22), or
    ``None`` when it serves every catalog of either kind (packages matched by name)."""

    ref: str | None
    origin: str
    graph: GraphKind = "catalog"
    packages: dict[str, Package] = field(default_factory=dict)
    #: Problems met while loading (``UnreadableCatalogFile``, with file and line); the rest
    #: of the catalog still loaded.
    findings: list[Finding] = field(default_factory=list)
    #: Whether this is everything the CatalogSource serves (R-DOC-8): only then does a package
    #: (channel, bundle) missing from it show that OLM finds none. ``--catalog`` content never
    #: is (a directory cannot show it holds the whole image); the source's PackageManifests are.
    whole: bool = False

    @property
    def for_cluster_catalog(self) -> bool:
        """Bound to an OLM v1 ClusterCatalog (``--catalog NAME=PATH``): never a CatalogSource's
        content, whatever its name (R-V1-22)."""
        return self.ref is not None and "/" not in self.ref
