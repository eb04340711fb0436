"""R-NXT-1 .. R-NXT-6 on real product catalogs of consecutive OpenShift releases: the
descheduler operator's FBCs for 4.20, 4.21 and 4.22 (tests/data/SOURCES.md, "next-catalog")."""

from __future__ import annotations

from functools import cache

from data_paths import DATA
from model_builders import csv, subscription
from v1_objects import catalog, extension

from olmtui.model.records.catalog import Catalog
from olmtui.model.records.next_catalog import NextCatalogEntry, WayOut
from olmtui.model.rules.nextcatalog.findings import next_catalog_findings
from olmtui.model.rules.nextcatalog.operators import next_catalog_entries
from olmtui.sources.catalog.catalogs import load_catalog

PKG = "cluster-kube-descheduler-operator"
NS = "openshift-kube-descheduler-operator"


@cache
def release(minor: int) -> Catalog:
    folder = "catalogs" if minor == 20 else "next-catalog"
    return load_catalog(str(DATA / folder / PKG / f"v4.{minor}"))


def bundle(version: str) -> str:
    return f"clusterkubedescheduleroperator.{version}"


def v0_entry(channel: str, version: str, now: int, then: int) -> NextCatalogEntry:
    name = bundle(version if version.startswith("4.") else f"v{version}")
    sub = subscription(
        NS, PKG, package=PKG, channel=channel, source="redhat-operators", installed=name
    )
    installed = csv(NS, name, version=version)
    (entry,) = next_catalog_entries([release(then)], [release(now)], [sub], [installed])
    return entry


def test_r_nxt_2_channel_gone_from_4_20_to_4_21_and_no_path() -> None:
    """Channel 4.13 is not in 4.21; stable never admitted 4.13.x on the chain OLM orders
    (R-UPG-1), in 4.20 or 4.21: no path exists, and the advice says so."""
    entry = v0_entry("4.13", "4.13.0-202309181427", 20, 21)
    assert (entry.package_in_next, entry.channel_in_next, entry.edge_from_installed) == (
        True,
        False,
        False,
    )
    assert entry.way_out is None
    assert entry.advice is not None and "no path exists" in entry.advice
    (finding,) = next_catalog_findings([entry])
    assert (finding.code, finding.rule, finding.severity) == (
        "NextCatalogChannelMissing",
        "R-NXT-2",
        "warning",
    )


def test_r_nxt_3_stable_4_20_to_4_21_keeps_an_edge() -> None:
    entry = v0_entry("stable", "5.0.1", 20, 21)
    assert entry.ok and entry.advice is None
    assert entry.edge == f"{bundle('v5.3.2')} skips {bundle('v5.0.1')}"
    assert next_catalog_findings([entry]) == []


def test_r_nxt_3_and_5_no_edge_from_5_1_0_in_4_22_upgrade_first() -> None:
    """4.22's head v5.4.0 skips the entries that replace v5.1.0, so OLM v0 orders none of
    them (R-UPG-1) and nothing admits v5.1.0; upgrading within stable to v5.3.2 now (4.21)
    is the way: v5.4.0 skips it."""
    entry = v0_entry("stable", "5.1.0", 21, 22)
    assert (entry.package_in_next, entry.channel_in_next, entry.edge_from_installed) == (
        True,
        True,
        False,
    )
    assert entry.way_out == WayOut(
        "stable",
        False,
        bundle("v5.3.2"),
        f"{bundle('v5.3.2')} skips {bundle('v5.1.0')}",
        f"{bundle('v5.4.0')} skips {bundle('v5.3.2')}",
    )
    assert entry.advice is not None
    assert f"upgrade it within channel stable to {bundle('v5.3.2')}" in entry.advice
    (finding,) = next_catalog_findings([entry])
    assert (finding.code, finding.rule) == ("NextCatalogNoUpgradeEdge", "R-NXT-3")


def test_r_nxt_5_without_current_content_only_the_installed_version_counts() -> None:
    sub = subscription(NS, PKG, package=PKG, channel="stable", installed=bundle("v5.1.0"))
    installed = csv(NS, bundle("v5.1.0"), version="5.1.0")
    (entry,) = next_catalog_entries([release(22)], [], [sub], [installed])
    assert not entry.current_known and entry.way_out is None
    assert entry.advice is not None and "--catalog" in entry.advice


def test_r_nxt_3_v1_keeps_the_replaces_edge_v0_orders_out() -> None:
    """operator-controller reads every entry of the channel for successors (R-V1-15): v5.2.0
    replaces v5.1.0 in 4.22, so OLM v1 upgrades where OLM v0 does not."""
    ext = extension(
        "descheduler",
        package=PKG,
        channels=["stable"],
        installed=(bundle("v5.1.0"), "5.1.0"),
    )
    (entry,) = next_catalog_entries([release(22)], [release(21)], [], [], [ext])
    assert entry.ok, entry.advice
    assert entry.edge is not None and "replaces" in entry.edge


def test_r_nxt_2_v1_channel_gone_with_operator_controllers_error() -> None:
    ext = extension(
        "descheduler",
        package=PKG,
        channels=["4.13"],
        installed=(bundle("4.13.0-202309181427"), "4.13.0-202309181427"),
    )
    (entry,) = next_catalog_entries([release(21)], [release(20)], [], [], [ext])
    assert (entry.package_in_next, entry.channel_in_next, entry.edge_from_installed) == (
        True,
        False,
        False,
    )
    assert entry.error is not None and "no bundles found" in entry.error
    assert entry.advice is not None and "4.13" in entry.advice


def test_r_nxt_5_v1_switch_channel_first_from_4_13_to_stable() -> None:
    """With the current catalog served by a ClusterCatalog, operator-controller resolves
    channel stable now from 4.13.x (v5.0.1's skipRange), and 4.21's stable goes on from it."""
    ext = extension(
        "descheduler",
        package=PKG,
        channels=["4.13"],
        installed=(bundle("4.13.0-202309181427"), "4.13.0-202309181427"),
    )
    served = [catalog("redhat-operators")]
    (entry,) = next_catalog_entries([release(21)], [release(20)], [], [], [ext], served)
    assert entry.way_out == WayOut(
        "stable",
        True,
        bundle("v5.0.1"),
        "skipRange '>=4.12.0 <5.0.1' in channel stable",
        f"{bundle('v5.3.2')} (skips {bundle('v5.0.1')} in channel stable)",
    )
    assert entry.advice is not None
    assert "switch the ClusterExtension to channel stable" in entry.advice
