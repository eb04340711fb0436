"""Bundle-format directories: channels from annotations, edges from CSVs, default channel from
the newest bundle, ci.yaml semver mode, dependencies, install modes, owned CRDs. Real
published operators from tests/data/catalogs/community-operators-prod (SOURCES.md)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.model.primitives.version import version_key
from olmtui.model.records.catalog import Catalog, Package
from olmtui.sources.catalog.catalogs import load_catalog

PROD = DATA / "catalogs/community-operators-prod/operators"


def load_package(path: Path, name: str | None = None) -> Package:
    catalog = load_catalog(str(path))
    assert catalog.findings == []
    return catalog.packages[name or path.name]


def entries_by_name(package: Package) -> dict:
    return {e.name: e for ch in package.channels.values() for e in ch.entries}


def longest_replaces_chain(package: Package) -> int:
    entries = entries_by_name(package)

    def hops(name: str) -> int:
        count, seen = 0, {name}
        while (nxt := entries[name].replaces) in entries and nxt not in seen:
            count, name = count + 1, nxt
            seen.add(name)
        return count

    return max(hops(n) for n in entries)


@pytest.fixture(scope="module")
def keycloak() -> Package:
    return load_package(PROD / "keycloak-operator")


def test_bundle_format_keycloak_has_119_bundles_and_an_82_hop_replaces_chain(
    keycloak: Package,
) -> None:
    assert len(keycloak.bundles) == 119
    entries = entries_by_name(keycloak)
    assert sum(1 for e in entries.values() if e.replaces) == 116
    assert sum(1 for e in entries.values() if e.skips) == 3
    assert longest_replaces_chain(keycloak) == 82


def test_bundle_format_bundle_belongs_to_every_channel_it_names(keycloak: Package) -> None:
    assert {n: len(ch.entries) for n, ch in keycloak.channels.items()} == {
        "alpha": 28,
        "candidate": 7,
        "fast": 84,
    }


def test_bundle_format_default_channel_is_the_newest_bundles(keycloak: Package) -> None:
    assert keycloak.default_channel == "fast"


def test_bundle_format_entries_are_newest_first(keycloak: Package) -> None:
    versions = [keycloak.bundles[e.name].version for e in keycloak.channels["fast"].entries]
    assert versions == sorted(versions, key=version_key, reverse=True)


def test_bundle_format_keycloak_install_modes_own_and_single_only(keycloak: Package) -> None:
    modes = [b.install_modes for b in keycloak.bundles.values()]
    assert modes.count(("OwnNamespace", "SingleNamespace")) == 117


def _copy_bundles(tmp_path: Path, package: str, versions: list[str], ci: bool = True) -> Path:
    target = tmp_path / package
    for version in versions:
        shutil.copytree(PROD / package / version, target / version)
    if ci and (PROD / package / "ci.yaml").exists():
        shutil.copy(PROD / package / "ci.yaml", target / "ci.yaml")
    return target


@pytest.mark.parametrize(
    ("versions", "default"),
    [
        (["2.1.5"], "2.1.x"),
        (["2.1.5", "2.2.5"], "2.2.x"),
        (["2.1.5", "2.2.5", "2.3.8"], "2.3.x"),
        (["2.1.5", "2.2.5", "2.3.8", "2.4.17"], "2.4.x"),
    ],
)
def test_bundle_format_infinispan_default_channel_moves_with_the_newest_bundle(
    tmp_path: Path, versions: list[str], default: str
) -> None:
    package = load_package(_copy_bundles(tmp_path, "infinispan", versions))
    assert package.default_channel == default


def test_bundle_format_infinispan_whole_package() -> None:
    package = load_package(PROD / "infinispan")
    assert len(package.bundles) == 73
    assert package.default_channel == "stable"
    assert {
        "preview",
        "stable",
        "1.1.x",
        "dev-preview",
        "2.0.x",
        "2.1.x",
        "2.2.x",
        "2.3.x",
        "2.4.x",
    } == set(package.channels)
    odd = entries_by_name(package)["infinispan-operator.v2.2.1"]
    assert odd.skip_range == ">=2.1.x <2.2.1"


def test_bundle_format_cert_manager_csvs_have_no_replaces(tmp_path: Path) -> None:
    # Without ci.yaml the CSVs' own edges are used: not one replaces in 45 CSVs.
    versions = sorted(p.name for p in (PROD / "cert-manager").iterdir() if p.is_dir())
    package = load_package(_copy_bundles(tmp_path, "cert-manager", versions, ci=False))
    entries = entries_by_name(package)
    assert len(entries) == 45
    assert [e.name for e in entries.values() if e.replaces] == []
    assert sum(1 for e in entries.values() if e.skip_range) == 28


def test_bundle_format_semver_mode_chains_each_channel_by_version() -> None:
    package = load_package(PROD / "cert-manager")
    stable = package.channels["stable"].entries
    assert stable[0].name == "cert-manager.v1.16.5"
    for newer, older in itertools.pairwise(stable):
        assert newer.replaces == older.name
    assert stable[-1].replaces is None
    assert sum(1 for e in entries_by_name(package).values() if e.skip_range) == 28


def test_bundle_format_semver_mode_orders_prereleases_below_releases() -> None:
    candidate = load_package(PROD / "cert-manager").channels["candidate"]
    by_name = {e.name: e for e in candidate.entries}
    assert by_name["cert-manager.v1.10.0"].replaces == "cert-manager.v1.10.0-rc1"


def test_bundle_format_rabbitmq_dependencies_and_bundle_subdirectory_layout() -> None:
    package = load_package(PROD / "rabbitmq-messaging-topology-operator")
    assert len(package.bundles) == 23
    newer = package.bundles["rabbitmq-messaging-topology-operator.v1.19.0"]  # <ver>/bundle/
    assert newer.required_packages == (("rabbitmq-cluster-operator", ">2.0.0"),)
    assert newer.required_apis == ("RabbitmqCluster.v1beta1.rabbitmq.com",)
    older = package.bundles["rabbitmq-messaging-topology-operator.v1.10.0"]
    assert (older.required_packages, older.required_apis) == ((), ())
    assert len(older.provided_apis) == 12


def test_bundle_format_node_healthcheck_gvk_dependency_changes_group() -> None:
    bundles = load_package(PROD / "node-healthcheck-operator").bundles
    assert bundles["node-healthcheck-operator.v0.1.1"].required_apis == (
        "PoisonPillRemediation.v1alpha1.poison-pill.medik8s.io",
    )
    groups = {api.split(".", 2)[2] for b in bundles.values() for api in b.required_apis}
    assert groups == {"poison-pill.medik8s.io", "self-node-remediation.medik8s.io"}


def test_bundle_format_percona_unknown_install_mode_type_is_kept() -> None:
    package = load_package(PROD / "percona-server-mongodb-operator")
    (bundle,) = package.bundles.values()
    assert bundle.install_modes == ("OwnNamespacejl", "SingleNamespace")


@pytest.fixture(scope="module")
def etcd() -> Package:
    return load_package(PROD / "etcd")


def test_bundle_format_etcd_branches_and_install_modes(etcd: Package) -> None:
    entries = entries_by_name(etcd)
    assert entries["etcdoperator.v0.9.2"].replaces == "etcdoperator.v0.9.0"
    assert entries["etcdoperator.v0.9.2-clusterwide"].replaces == "etcdoperator.v0.9.0"
    assert entries["etcdoperator.v0.6.1"].replaces is None
    modes = {name: b.install_modes for name, b in etcd.bundles.items()}
    assert modes["etcdoperator.v0.9.4"] == ("OwnNamespace", "SingleNamespace")
    assert modes["etcdoperator.v0.9.4-clusterwide"] == ("OwnNamespace", "AllNamespaces")
    assert modes["etcdoperator.v0.6.1"] == ("OwnNamespace", "SingleNamespace", "AllNamespaces")


def test_bundle_format_owned_crd_files_give_served_and_storage_versions(etcd: Package) -> None:
    bundle = etcd.bundles["etcdoperator.v0.9.4"]
    assert [name for name, _served, _storage in bundle.crds] == [
        "etcdbackups.etcd.database.coreos.com",
        "etcdclusters.etcd.database.coreos.com",
        "etcdrestores.etcd.database.coreos.com",
    ]
    assert all(
        served == ("v1beta2",) and storage == "v1beta2" for _name, served, storage in bundle.crds
    )
    assert "EtcdCluster.v1beta2.etcd.database.coreos.com" in bundle.provided_apis


def test_bundle_format_strimzi_has_38_channels() -> None:
    package = load_package(PROD / "strimzi-kafka-operator")
    assert len(package.channels) == 38
    assert len(package.bundles) == 60
    assert longest_replaces_chain(package) == 53


def test_bundle_format_directory_without_a_csv_is_a_finding(tmp_path: Path) -> None:
    target = _copy_bundles(tmp_path, "etcd", ["0.9.0", "0.9.2"])
    (target / "0.9.2" / "manifests" / "etcdoperator.v0.9.2.clusterserviceversion.yaml").unlink()
    catalog: Catalog = load_catalog(str(target))
    assert list(catalog.packages["etcd"].bundles) == ["etcdoperator.v0.9.0"]
    (finding,) = catalog.findings
    assert finding.code == "UnreadableCatalogFile"
    assert "found 0" in finding.message


def test_bundle_format_unparsable_csv_is_a_finding_with_line(tmp_path: Path) -> None:
    target = _copy_bundles(tmp_path, "etcd", ["0.9.0", "0.9.2"])
    csv = target / "0.9.2" / "manifests" / "etcdoperator.v0.9.2.clusterserviceversion.yaml"
    csv.write_bytes(csv.read_bytes().replace(b"spec:\n", b"spec: [\n", 1))
    catalog = load_catalog(str(target))
    assert "etcdoperator.v0.9.0" in catalog.packages["etcd"].bundles
    assert next(f.name for f in catalog.findings) == str(csv)
    assert "line " in catalog.findings[0].message
