"""Legacy package manifests (``<pkg>.package.yaml`` + version directories of CSVs), compared
with the same operator in bundle format. Real data: community-operators (2021) and
community-operators-prod (SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.model.records.catalog import ChannelEntry, Package
from olmtui.sources.catalog.catalogs import load_catalog

CATALOGS = DATA / "catalogs"
LEGACY = CATALOGS / "community-operators" / "upstream-community-operators"
PROD = CATALOGS / "community-operators-prod" / "operators"


def load_package(path: Path, name: str) -> Package:
    catalog = load_catalog(str(path))
    assert catalog.findings == []
    return catalog.packages[name]


def channel_map(package: Package, rename: dict[str, str] | None = None) -> dict:
    rename = rename or {}
    return {
        name: sorted(
            (rename.get(e.name, e.name), e.replaces, e.skips, e.skip_range) for e in channel.entries
        )
        for name, channel in package.channels.items()
    }


def test_legacy_etcd_gives_the_same_channels_and_entries_as_bundle_format() -> None:
    legacy = load_package(LEGACY / "etcd", "etcd")
    bundle = load_package(PROD / "etcd", "etcd")
    # The one difference in the published data: 0.6.1's CSV was renamed between the repos.
    same = {"etcdoperator-community.v0.6.1": "etcdoperator.v0.6.1"}
    assert channel_map(legacy, same) == channel_map(bundle)
    assert legacy.default_channel == bundle.default_channel == "singlenamespace-alpha"
    assert set(legacy.bundles) - {"etcdoperator-community.v0.6.1"} == (
        set(bundle.bundles) - {"etcdoperator.v0.6.1"}
    )


def test_legacy_channel_entries_are_the_replaces_chain_from_current_csv() -> None:
    legacy = load_package(LEGACY / "etcd", "etcd")
    assert [e.name for e in legacy.channels["singlenamespace-alpha"].entries] == [
        "etcdoperator.v0.9.4",
        "etcdoperator.v0.9.2",
        "etcdoperator.v0.9.0",
    ]


def test_legacy_crds_beside_the_csv_belong_to_its_bundle() -> None:
    legacy = load_package(LEGACY / "etcd", "etcd")
    assert len(legacy.bundles["etcdoperator.v0.9.4"].crds) == 3
    assert len(legacy.bundles["etcdoperator-community.v0.6.1"].crds) == 1


@pytest.fixture(scope="module")
def strimzi() -> Package:
    return load_package(LEGACY / "strimzi-kafka-operator", "strimzi-kafka-operator")


def test_legacy_strimzi_each_channel_pinned_to_its_own_current_csv(strimzi: Package) -> None:
    heads = {name: ch.entries[0].name for name, ch in strimzi.channels.items()}
    assert heads["stable"] == heads["strimzi-0.24.x"] == "strimzi-cluster-operator.v0.24.0"
    assert heads["strimzi-0.19.x"] == "strimzi-cluster-operator.v0.19.0"
    assert len(strimzi.channels) == 7
    assert len(strimzi.channels["stable"].entries) == 17
    assert len(strimzi.channels["strimzi-0.19.x"].entries) == 11
    assert strimzi.default_channel == "stable"


def test_legacy_package_file_given_directly() -> None:
    catalog = load_catalog(str(LEGACY / "etcd" / "etcd.package.yaml"))
    assert sorted(catalog.packages["etcd"].channels) == [
        "alpha",
        "clusterwide-alpha",
        "singlenamespace-alpha",
    ]


CSV = """\
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: {name}
spec:
  version: {version}
  replaces: {replaces}
  skips: {skips}
"""


def _legacy(tmp_path: Path, package: str, current: str, csvs: list[tuple]) -> Path:
    root = tmp_path / package
    root.mkdir()
    (root / f"{package}.package.yaml").write_text(
        f"packageName: {package}\nchannels:\n- name: stable\n  currentCSV: {current}\n"
    )
    for name, version, replaces, skips in csvs:
        (root / version).mkdir()
        (root / version / f"{name}.clusterserviceversion.yaml").write_text(
            CSV.format(name=name, version=version, replaces=replaces or "null", skips=skips)
        )
    return root


def test_legacy_skipped_csvs_present_in_the_directory_are_channel_entries(tmp_path: Path) -> None:
    root = _legacy(
        tmp_path,
        "p",
        "p.v3",
        [
            ("p.v1", "1.0.0", None, "[]"),
            ("p.v2", "2.0.0", "p.v1", "[]"),
            ("p.v2-rc", "2.0.0-rc.1", "p.v1", "[]"),
            ("p.v3", "3.0.0", "p.v2", "[p.v2-rc, p.gone]"),
        ],
    )
    package = load_package(root, "p")
    assert package.channels["stable"].entries == (
        ChannelEntry("p.v3", replaces="p.v2", skips=("p.v2-rc", "p.gone")),
        ChannelEntry("p.v2-rc", replaces="p.v1"),
        ChannelEntry("p.v2", replaces="p.v1"),
        ChannelEntry("p.v1"),
    )
    assert package.default_channel is None


def test_legacy_current_csv_missing_is_a_finding(tmp_path: Path) -> None:
    root = _legacy(tmp_path, "p", "p.v9", [("p.v1", "1.0.0", None, "[]")])
    catalog = load_catalog(str(root))
    assert catalog.packages["p"].channels["stable"].entries == ()
    (finding,) = catalog.findings
    assert "p.v9" in finding.message


def test_legacy_replaces_cycle_stops(tmp_path: Path) -> None:
    root = _legacy(
        tmp_path,
        "p",
        "p.v2",
        [
            ("p.v1", "1.0.0", "p.v2", "[]"),
            ("p.v2", "2.0.0", "p.v1", "[]"),
        ],
    )
    entries = load_package(root, "p").channels["stable"].entries
    assert [e.name for e in entries] == ["p.v2", "p.v1"]
