"""R-UPG-1/2/5/7 on real published catalogs from tests/data/catalogs (see SOURCES.md
there), read through ``load_catalog``."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest
from data_paths import DATA
from model_builders import csv, subscription

from olmtui.model.records.catalog import Catalog, Channel
from olmtui.model.records.types import UpgradeEdge
from olmtui.model.rules.upgrades.graph import (
    UpgradeGraph,
    channel_order,
    channel_states,
    resolve_upgrade,
    skipped_names,
    validate_channel,
    version_of,
)
from olmtui.sources.catalog.catalogs import load_catalog

CATALOGS = DATA / "catalogs"
PROD = CATALOGS / "community-operators-prod" / "operators"


@pytest.fixture(scope="module")
def keycloak() -> Catalog:
    return load_catalog(f"olm/community={PROD / 'keycloak-operator'}")


@pytest.fixture(scope="module")
def cert_manager() -> Catalog:
    return load_catalog(str(PROD / "cert-manager"))


@pytest.fixture(scope="module")
def etcd() -> Catalog:
    return load_catalog(str(PROD / "etcd"))


@pytest.fixture(scope="module")
def descheduler() -> Catalog:
    return load_catalog(str(CATALOGS / "cluster-kube-descheduler-operator" / "v4.20"))


@pytest.fixture(scope="module")
def infinispan() -> Catalog:
    return load_catalog(str(PROD / "infinispan"))


def sub(
    package: str, channel: str | None, installed: str | None = None, starting: str | None = None
) -> dict[str, Any]:
    return subscription(
        "ops",
        package,
        package=package,
        channel=channel,
        source="community",
        source_ns="olm",
        starting=starting,
        installed=installed,
    )


def make_csv(name: str, version: str) -> dict[str, Any]:
    return csv("ops", name, bare=True, version=version, phase=None, reason=None)


def test_r_upg_1_keycloak_fast_channel_is_one_chain_of_82_hops(keycloak: Catalog) -> None:
    package = keycloak.packages["keycloak-operator"]
    channel = package.channels["fast"]
    order, errors = channel_order(channel)
    assert errors == []
    assert len(order) == 83
    assert (order[0], order[-1]) == ("keycloak-operator.v26.7.1", "keycloak-operator.v20.0.0")
    by_name = {e.name: e for e in channel.entries}
    assert all(by_name[a].replaces == b for a, b in itertools.pairwise(order))
    # The one entry out of the order is the one another entry skips.
    assert set(by_name) - set(order) == skipped_names(channel) == {"keycloak-operator.v24.0.0"}
    assert validate_channel(channel) == []


def test_r_upg_5_keycloak_path_from_the_tail_walks_all_82_hops(keycloak: Catalog) -> None:
    tail = "keycloak-operator.v20.0.0"
    info = resolve_upgrade(
        [keycloak], sub("keycloak-operator", "fast", tail), make_csv(tail, "20.0.0")
    )
    assert info.graph == "catalog"
    assert info.head == "keycloak-operator.v26.7.1"
    assert info.next == "keycloak-operator.v20.0.1"
    assert len(info.path) == 82 and info.path[-1] == info.head
    assert {e.via for e in info.edges} == {"replaces"}
    assert info.edges[0] == UpgradeEdge(
        "keycloak-operator.v20.0.0", "keycloak-operator.v20.0.1", "replaces"
    )


def test_r_upg_2_keycloak_other_catalog_source_sees_nothing(keycloak: Catalog) -> None:
    other = sub("keycloak-operator", "fast", "keycloak-operator.v20.0.0")
    other["spec"]["source"] = "redhat-operators"
    assert (
        resolve_upgrade([keycloak], other, make_csv("keycloak-operator.v20.0.0", "20.0.0")).graph
        == "none"
    )


def test_r_upg_1_cert_manager_without_replaces_gives_olms_several_chains_error(
    cert_manager: Catalog,
) -> None:
    """Every cert-manager CSV lacks ``replaces`` (semver mode): as the CSVs declare them, the
    entries are all heads, and OLM's resolver refuses to order the channel."""
    package = cert_manager.packages["cert-manager"]
    loaded = package.channels["stable"]
    raw = Channel(
        "cert-manager",
        "stable",
        tuple(dataclasses.replace(e, replaces=None) for e in loaded.entries),
    )
    order, errors = channel_order(raw)
    assert order == []
    assert errors[0].startswith(
        "a unique replacement chain within a channel is required to determine the relative "
        f"order between channel entries, but {len(raw.entries)} replacement chains were found "
        'in channel "stable" of package "cert-manager": cert-manager.v1.16.5, '
    )
    assert validate_channel(raw)[0].startswith(
        "multiple channel heads found in graph: cert-manager.v1.10.0, cert-manager.v1.10.1, "
    )
    # Candidates still come from the skipRanges, ranked by version.
    graph = UpgradeGraph(package, [raw])
    assert graph.head is None
    hops = graph.path("cert-manager.v1.10.0", version_of("1.10.0"))
    assert [(h.target, h.via) for h in hops] == [("cert-manager.v1.10.2", "skipRange")]
    assert (
        graph.next("cert-manager.v1.13.1-rc1", version_of("1.13.1-rc1")).target
        == "cert-manager.v1.13.3"
    )  # ">=1.13.0 <1.13.3" holds the rc (R-SEM-6)


def test_r_upg_1_cert_manager_semver_mode_chain_from_the_loader(cert_manager: Catalog) -> None:
    """olmtui's loader builds opm's semver-mode replaces chain; then the order is unique and
    skipRange edges short-cut it."""
    states = {s.channel: s for s in channel_states([cert_manager])}
    assert states["stable"].errors == ()
    assert states["stable"].head == "cert-manager.v1.16.5"
    info = resolve_upgrade(
        [cert_manager],
        sub("cert-manager", "stable", "cert-manager.v1.16.0"),
        make_csv("cert-manager.v1.16.0", "1.16.0"),
    )
    assert (info.next, info.edges[0].via) == ("cert-manager.v1.16.5", "skipRange")


def test_r_upg_2_etcd_branches_replace_0_9_0_in_different_channels(etcd: Catalog) -> None:
    installed = make_csv("etcdoperator.v0.9.0", "0.9.0")
    single = resolve_upgrade(
        [etcd], sub("etcd", "singlenamespace-alpha", "etcdoperator.v0.9.0"), installed
    )
    assert single.path == ("etcdoperator.v0.9.2", "etcdoperator.v0.9.4")
    wide = resolve_upgrade(
        [etcd], sub("etcd", "clusterwide-alpha", "etcdoperator.v0.9.0"), installed
    )
    assert wide.path == ("etcdoperator.v0.9.2-clusterwide", "etcdoperator.v0.9.4-clusterwide")
    # Empty channel: the default channel (singlenamespace-alpha) comes first.
    anyc = resolve_upgrade([etcd], sub("etcd", None, "etcdoperator.v0.9.0"), installed)
    assert (anyc.head, anyc.next) == ("etcdoperator.v0.9.4", "etcdoperator.v0.9.2")
    alpha = resolve_upgrade([etcd], sub("etcd", "alpha", "etcdoperator.v0.9.0"), installed)
    assert (alpha.head, alpha.next) == ("etcdoperator.v0.6.1", None)


def test_r_upg_2_etcd_starting_csv(etcd: Catalog) -> None:
    info = resolve_upgrade(
        [etcd], sub("etcd", "clusterwide-alpha", starting="etcdoperator.v0.9.2-clusterwide"), None
    )
    assert info.next == "etcdoperator.v0.9.2-clusterwide"
    assert info.path == ("etcdoperator.v0.9.2-clusterwide", "etcdoperator.v0.9.4-clusterwide")
    missing = resolve_upgrade(
        [etcd], sub("etcd", "clusterwide-alpha", starting="etcdoperator.v0.9.2"), None
    )
    assert (missing.head, missing.next, missing.path) == (
        "etcdoperator.v0.9.4-clusterwide",
        None,
        (),
    )


def test_r_upg_7_descheduler_skips_of_absent_bundles_are_valid(descheduler: Catalog) -> None:
    package = descheduler.packages["cluster-kube-descheduler-operator"]
    channel = package.channels["4.13"]
    head = "clusterkubedescheduleroperator.4.13.0-202309181427"
    assert len(channel.entries) == 1 and len(channel.entries[0].skips) == 19
    assert channel_order(channel) == ([head], [])
    assert validate_channel(channel) == []
    # A cluster still running one of the absent bundles is admitted by name.
    gone = "clusterkubedescheduleroperator.4.13.0-202303231342"
    info = resolve_upgrade(
        [descheduler],
        sub("cluster-kube-descheduler-operator", "4.13", gone),
        make_csv(gone, "4.13.0-202303231342"),
    )
    assert info.edges == (UpgradeEdge(gone, head, "skips"),)


def test_r_upg_1_descheduler_stable_head_skips_everything_else(descheduler: Catalog) -> None:
    package = descheduler.packages["cluster-kube-descheduler-operator"]
    stable = package.channels["stable"]
    assert channel_order(stable) == (["clusterkubedescheduleroperator.v5.3.2"], [])
    assert len(skipped_names(stable)) == len(stable.entries) - 1
    info = resolve_upgrade(
        [descheduler],
        sub("cluster-kube-descheduler-operator", "stable", "clusterkubedescheduleroperator.v5.0.1"),
        make_csv("clusterkubedescheduleroperator.v5.0.1", "5.0.1"),
    )
    assert info.path == ("clusterkubedescheduleroperator.v5.3.2",)


def test_r_sem_5_infinispan_wildcard_lower_bound_range(infinispan: Catalog) -> None:
    """``'>=2.1.x <2.2.1'`` reads as ``>=2.1.0 <2.2.1``: 2.1.5 and 2.2.0 jump to the head
    of channel 2.2.x, 2.2.1 walks the replaces chain."""

    def path_from(name: str, version: str) -> tuple[str, ...]:
        return resolve_upgrade(
            [infinispan], sub("infinispan", "2.2.x", name), make_csv(name, version)
        ).path

    head = "infinispan-operator.v2.2.5"
    assert path_from("infinispan-operator.v2.1.5", "2.1.5") == (head,)
    assert path_from("infinispan-operator.v2.2.0", "2.2.0") == (head,)
    assert path_from("infinispan-operator.v2.2.1", "2.2.1") == (
        "infinispan-operator.v2.2.2",
        "infinispan-operator.v2.2.3",
        "infinispan-operator.v2.2.4",
        head,
    )
    assert path_from("infinispan-operator.v2.0.9", "2.0.9") == ()


def test_r_upg_7_infinispan_stable_bundle_format_has_stranded_bundles(infinispan: Catalog) -> None:
    states = {s.channel: s for s in channel_states([infinispan])}
    stable = states["stable"]
    assert stable.head == "infinispan-operator.v2.5.14"
    assert len(stable.errors) == 1
    assert stable.errors[0].startswith(
        "channel contains one or more stranded bundles: infinispan-operator.v2.3.8, "
    )
    assert states["preview"].order == ()
    assert states["preview"].errors[0].startswith("a unique replacement chain")


def test_r_upg_1_legacy_package_manifest_format_orders_etcd_like_bundle_format(
    etcd: Catalog,
) -> None:
    legacy = load_catalog(
        str(CATALOGS / "community-operators" / "upstream-community-operators" / "etcd")
    )

    def orders(catalog: Catalog) -> dict[str, tuple[str, ...]]:
        return {s.channel: s.order for s in channel_states([catalog]) if s.channel != "alpha"}

    assert orders(legacy) == orders(etcd)
    assert orders(etcd)["clusterwide-alpha"] == (
        "etcdoperator.v0.9.4-clusterwide",
        "etcdoperator.v0.9.2-clusterwide",
        "etcdoperator.v0.9.0",
    )


def test_s11_console_packagemanifests_know_the_head_only() -> None:
    import yaml

    from olmtui.sources.catalog.catalogs import catalog_from_packagemanifests

    mocks = (
        CATALOGS.parent
        / "cluster"
        / "openshift-console"
        / "frontend"
        / "packages"
        / "operator-lifecycle-manager"
        / "mocks.packagemanifests.yaml"
    )
    catalogs = catalog_from_packagemanifests(yaml.safe_load_all(mocks.read_text()))
    subscription = sub("etcd", "alpha", "etcdoperator.v0.9.0")
    subscription["spec"].update(
        source="rh-operators", sourceNamespace="openshift-operator-lifecycle-manager"
    )
    info = resolve_upgrade(catalogs, subscription, make_csv("etcdoperator.v0.9.0", "0.9.0"))
    assert (info.graph, info.head, info.next, info.path) == (
        "packagemanifest",
        "etcdoperator.v0.9.2",
        None,
        (),
    )
    states = [s for s in channel_states(catalogs) if s.package == "etcd"]
    assert [(s.catalog, s.channel, s.order, s.errors) for s in states] == [
        ("openshift-operator-lifecycle-manager/rh-operators", "alpha", ("etcdoperator.v0.9.2",), ())
    ]


def test_r_upg_3_skip_range_on_a_non_head_entry_is_honoured() -> None:
    """opendatahub's FBC (v4.20): entries up to v2.28.0 carry replaces, skips and skipRange
    together; the head v2.35.0 has only replaces. From 2.10.0 the nearest admitting entry is
    v2.28.0 (its skipRange), then the replaces chain to the head."""
    odh = load_catalog(
        f"olm/community={CATALOGS}/community-operators-prod/catalogs/v4.20/opendatahub-operator"
    )
    name = "opendatahub-operator.v2.10.0"
    info = resolve_upgrade(
        [odh], sub("opendatahub-operator", "fast", name), make_csv(name, "2.10.0")
    )
    assert info.edges[0] == UpgradeEdge(name, "opendatahub-operator.v2.28.0", "skipRange")
    assert info.path[-1] == info.head == "opendatahub-operator.v2.35.0"
    assert len(info.path) == 8
    assert [e.via for e in info.edges[1:]] == ["replaces"] * 7
