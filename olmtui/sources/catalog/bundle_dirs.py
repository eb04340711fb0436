"""Bundle-format directories: ``<package>/<version>/{manifests,metadata}`` (or the newer
``<package>/<version>/bundle/{manifests,metadata}``), one CSV per bundle.

``metadata/annotations.yaml`` names the package, the channels the bundle belongs to (it
belongs to every one of them) and a default channel. The default moves between bundles in
real data (infinispan, keycloak), so the package's default channel is the one named by the
newest bundle (highest version) that names one; a bundle that names none but sits in a
single channel implies that one, as ``opm`` infers it.

Edges come from each CSV, unless the package's ``ci.yaml`` says ``updateGraph: semver-mode``
(community pipelines, e.g. cert-manager, whose CSVs carry no ``replaces`` at all): then,
as ``opm``'s semver mode builds it, each bundle of a channel replaces the next lower version
in that channel, and the CSVs' own ``replaces`` are not used. ``skips`` and ``olm.skipRange``
still come from the CSVs. (``semver-skippatch-mode`` is not modelled; no catalog in the test
data uses it, and such a package is read with its CSVs' own edges.)
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives.version import version_key
from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.types import Finding
from olmtui.sources.catalog.csv_records import (
    CRD_KIND,
    CSV_KIND,
    bundle_from_csv,
    csv_name,
    entry_from_csv,
)
from olmtui.sources.catalog.files import (
    catalog_files,
    read_documents,
    read_mapping,
    unreadable,
)
from olmtui.sources.catalog.properties import (
    annotation_properties,
    bundle_properties,
    max_openshift_values,
    metadata_lists,
)

Obj = dict[str, Any]

PACKAGE_ANNOTATION = "operators.operatorframework.io.bundle.package.v1"
CHANNELS_ANNOTATION = "operators.operatorframework.io.bundle.channels.v1"
DEFAULT_CHANNEL_ANNOTATION = "operators.operatorframework.io.bundle.channel.default.v1"
MANIFESTS_ANNOTATION = "operators.operatorframework.io.bundle.manifests.v1"
SEMVER_MODE = "semver-mode"


def annotations_file(directory: Path) -> Path | None:
    for name in ("annotations.yaml", "annotations.yml"):
        path = directory / "metadata" / name
        if path.is_file():
            return path
    return None


@frozen
class BundleDir:
    """What one bundle directory says about itself."""

    path: Path
    package: str
    channels: tuple[str, ...]
    default_channel: str | None
    bundle: Bundle
    entry: ChannelEntry


def manifests_in(
    directory: Path, findings: list[Finding], *, recursive: bool = True
) -> tuple[list[Obj], list[Obj]]:
    """``(CSVs, CRDs)`` among the YAML/JSON manifests under ``directory``."""
    csvs: list[Obj] = []
    crds: list[Obj] = []
    files = catalog_files(directory, recursive=recursive) if directory.is_dir() else []
    for path in files:
        for _line, doc in read_documents(path, findings, slim=True):
            if isinstance(doc, dict) and doc.get("kind") == CSV_KIND and csv_name(doc):
                csvs.append(doc)
            elif isinstance(doc, dict) and doc.get("kind") == CRD_KIND:
                crds.append(doc)
    return csvs, crds


def read_bundle_dir(directory: Path, findings: list[Finding]) -> BundleDir | None:
    """One bundle directory, or ``None`` (with a finding) if it has no usable annotations or
    not exactly one CSV."""
    path = annotations_file(directory)
    metadata = read_mapping(path, findings) if path else None
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    if not isinstance(annotations, dict):
        findings.append(unreadable(path or directory, "no bundle annotations found"))
        return None
    manifests_dir = directory / str(annotations.get(MANIFESTS_ANNOTATION) or "manifests/")
    csvs, crds = manifests_in(manifests_dir, findings)
    if len(csvs) != 1:
        findings.append(
            unreadable(
                manifests_dir,
                f"a bundle needs exactly one ClusterServiceVersion, found {len(csvs)}",
            )
        )
        return None
    csv = csvs[0]
    channels = tuple(
        c.strip() for c in str(annotations.get(CHANNELS_ANNOTATION) or "").split(",") if c.strip()
    )
    default = str(annotations.get(DEFAULT_CHANNEL_ANNOTATION) or "").strip() or None
    if default is None and len(channels) == 1:
        default = channels[0]
    listed, dependencies, dependency_items = metadata_lists(directory, findings)
    package = str(annotations.get(PACKAGE_ANNOTATION) or directory.parent.name)
    bundle = bundle_from_csv(
        csv,
        package,
        crds=crds,
        dependency_items=dependency_items,
        properties=bundle_properties(csv, package, crds, listed, dependencies),
        caps=max_openshift_values([*listed, *annotation_properties(csv)]),
    )
    return BundleDir(directory, package, channels, default, bundle, entry_from_csv(csv))


def update_graph_mode(bundle_dir: Path, findings: list[Finding]) -> str | None:
    """``updateGraph`` from the package's ``ci.yaml`` (beside the version directories)."""
    for folder in (bundle_dir.parent, bundle_dir.parent.parent):
        ci = folder / "ci.yaml"
        if ci.is_file():
            value = (read_mapping(ci, findings) or {}).get("updateGraph")
            return str(value) if value else None
    return None


def _semver_chain(
    entries: list[ChannelEntry], versions: dict[str, str | None]
) -> list[ChannelEntry]:
    """opm semver mode: each entry replaces the next lower version in the channel."""
    ordered = sorted(entries, key=lambda e: (version_key(versions.get(e.name)), e.name))
    chained = [dataclasses.replace(e, replaces=None) for e in ordered[:1]]
    chained += [dataclasses.replace(e, replaces=lower.name) for lower, e in pairwise(ordered)]
    return chained


def add_bundle_package(
    name: str, bundles: list[BundleDir], mode: str | None, catalog: Catalog
) -> None:
    """One package from its bundle directories; entries newest first."""
    package = catalog.packages.setdefault(name, Package(name))
    for found in bundles:
        package.bundles[found.bundle.name] = found.bundle
    versions = {b.bundle.name: b.bundle.version for b in bundles}
    by_channel: dict[str, list[ChannelEntry]] = defaultdict(list)
    for found in bundles:
        for channel in found.channels:
            by_channel[channel].append(found.entry)
    for channel, entries in sorted(by_channel.items()):
        if mode == SEMVER_MODE:
            entries = _semver_chain(entries, versions)
        entries = sorted(
            entries, key=lambda e: (version_key(versions.get(e.name)), e.name), reverse=True
        )
        package.channels[channel] = Channel(name, channel, tuple(entries))
    newest_first = sorted(
        bundles, key=lambda b: (version_key(b.bundle.version), b.bundle.name), reverse=True
    )
    package.default_channel = next(
        (b.default_channel for b in newest_first if b.default_channel), None
    )


def load_bundle_dirs(directories: list[Path], catalog: Catalog) -> None:
    """Read bundle directories into ``catalog``, grouped by the package they name."""
    by_package: dict[str, list[BundleDir]] = defaultdict(list)
    for directory in directories:
        found = read_bundle_dir(directory, catalog.findings)
        if found is not None:
            by_package[found.package].append(found)
    for name, bundles in sorted(by_package.items()):
        mode = update_graph_mode(bundles[0].path, catalog.findings)
        add_bundle_package(name, bundles, mode, catalog)
