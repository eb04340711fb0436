"""Legacy package manifests: ``<package>/<package>.package.yaml`` plus version directories of
CSVs (the format of the archived community-operators repository).

The package file only names each channel's head (``channels[].currentCSV``) and the default
channel. As the old registry loader did, a channel's entries are the ``replaces`` chain walked
back from the head through the CSVs present, plus every CSV present that an entry ``skips``
(listed after the entry that skips it). Edges come from the CSVs.
"""

from __future__ import annotations

from pathlib import Path

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.sources.catalog.bundle_dirs import manifests_in
from olmtui.sources.catalog.csv_records import bundle_from_csv, entry_from_csv
from olmtui.sources.catalog.files import catalog_files, read_mapping, unreadable
from olmtui.sources.catalog.properties import (
    annotation_properties,
    legacy_properties,
    max_openshift_values,
)


def is_package_file(path: Path) -> bool:
    return path.name.endswith((".package.yaml", ".package.yml"))


def channel_entries(head: str, entries: dict[str, ChannelEntry]) -> list[ChannelEntry]:
    """The replaces chain from ``head`` through the CSVs present, with skipped CSVs."""
    chain: list[ChannelEntry] = []
    seen: set[str] = set()
    current: str | None = head
    while current in entries and current not in seen:
        seen.add(current)
        entry = entries[current]
        chain.append(entry)
        for skipped in entry.skips:
            if skipped in entries and skipped not in seen:
                seen.add(skipped)
                chain.append(entries[skipped])
        current = entry.replaces
    return chain


def load_legacy_package(package_file: Path, catalog: Catalog) -> None:
    manifest = read_mapping(package_file, catalog.findings)
    name = str((manifest or {}).get("packageName") or "")
    if not manifest or not name:
        catalog.findings.append(unreadable(package_file, "no packageName in package manifest"))
        return
    bundles: dict[str, Bundle] = {}
    entries: dict[str, ChannelEntry] = {}
    for directory in sorted({p.parent for p in catalog_files(package_file.parent)}):
        # A version directory: its CSV and the CRDs shipped beside it.
        csvs, crds = manifests_in(directory, catalog.findings, recursive=False)
        for csv in csvs:
            properties = legacy_properties(csv, name, crds)
            caps = max_openshift_values(annotation_properties(csv))
            bundle = bundle_from_csv(csv, name, crds=crds, properties=properties, caps=caps)
            bundles[bundle.name] = bundle
            entries[bundle.name] = entry_from_csv(csv)
    package = catalog.packages.setdefault(name, Package(name))
    package.bundles.update(bundles)
    package.default_channel = str(manifest.get("defaultChannel") or "") or None
    channels = manifest.get("channels")
    for channel in channels if isinstance(channels, list) else ():
        if not isinstance(channel, dict) or not channel.get("name"):
            continue
        head = str(channel.get("currentCSV") or "")
        found = channel_entries(head, entries)
        if not found:
            catalog.findings.append(
                unreadable(
                    package_file, f"channel {channel['name']}: currentCSV {head!r} has no CSV here"
                )
            )
        package.channels[str(channel["name"])] = Channel(name, str(channel["name"]), tuple(found))
