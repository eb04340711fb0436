"""R-NXT-1 .. R-NXT-6, one small table case per negative and per way out: hand-made catalog
records (the shapes an FBC loads into), a Subscription and its CSV from the shared builders,
a ClusterExtension from ``tests/v1_objects.py``."""

from __future__ import annotations

import pytest
from model_builders import csv, subscription
from v1_objects import extension, labelled_catalog

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.next_catalog import NextCatalogEntry, WayOut
from olmtui.model.rules.nextcatalog.findings import next_catalog_findings
from olmtui.model.rules.nextcatalog.operators import next_catalog_entries

PKG = "pkg"
SOURCE = "openshift-marketplace/cat"


def _props(version: str) -> tuple[tuple[str, str], ...]:
    return (("olm.package", f'{{"packageName":"{PKG}","version":"{version}"}}'),)


def package(
    channels: dict[str, list[ChannelEntry]],
    *,
    default: str | None = None,
    prohibited: frozenset[str] = frozenset(),
    missing: frozenset[str] = frozenset(),
) -> Package:
    """A package whose bundles are those its channels list (``pkg.vX.Y.Z`` at ``X.Y.Z``),
    but ``missing``; ``prohibited`` carry ``olm.deprecated``."""
    names = {e.name for entries in channels.values() for e in entries} - missing
    return Package(
        PKG,
        default_channel=default or next(iter(channels)),
        channels={n: Channel(PKG, n, tuple(entries)) for n, entries in channels.items()},
        bundles={
            n: Bundle(n, PKG, n.removeprefix("pkg.v"), n in prohibited, properties=_props(n[5:]))
            for n in names
        },
    )


def catalog(pkg: Package | None, ref: str | None = SOURCE) -> Catalog:
    return Catalog(ref, f"next:{ref}", packages={} if pkg is None else {PKG: pkg})


def e(name: str, replaces: str | None = None, skip_range: str | None = None) -> ChannelEntry:
    return ChannelEntry(
        f"pkg.v{name}", None if replaces is None else f"pkg.v{replaces}", (), skip_range
    )


def judge(
    next_pkg: Package | None,
    now_pkg: Package | None,
    *,
    channel: str | None = "stable",
    installed: str = "1.0.0",
    next_ref: str | None = SOURCE,
) -> list[NextCatalogEntry]:
    name = f"pkg.v{installed}"
    sub = subscription("ns", "sub", package=PKG, channel=channel, installed=name)
    now = [catalog(now_pkg)] if now_pkg is not None else []
    return next_catalog_entries(
        [catalog(next_pkg, next_ref)], now, [sub], [csv("ns", name, version=installed)]
    )


def only(entries: list[NextCatalogEntry]) -> NextCatalogEntry:
    (entry,) = entries
    return entry


def codes(entry: NextCatalogEntry) -> list[tuple[str, str]]:
    return [(f.code, f.rule) for f in next_catalog_findings([entry])]


STABLE = {"stable": [e("1.0.0"), e("1.1.0", "1.0.0")]}


def test_all_there_is_no_finding() -> None:
    entry = only(judge(package(STABLE), package(STABLE)))
    assert entry.ok and entry.advice is None and entry.edge == "pkg.v1.1.0 replaces pkg.v1.0.0"
    assert codes(entry) == []


def test_r_nxt_1_bound_content_without_the_package() -> None:
    entry = only(judge(None, package(STABLE)))
    assert (entry.package_in_next, entry.channel_in_next, entry.edge_from_installed) == (
        False,
        False,
        False,
    )
    assert codes(entry) == [("NextCatalogPackageMissing", "R-NXT-1")]
    assert entry.advice is not None and "no path exists" in entry.advice


def test_r_nxt_6_unbound_content_without_the_package_judges_nothing() -> None:
    assert judge(None, package(STABLE), next_ref=None) == []


def test_r_nxt_6_content_bound_to_another_source_judges_nothing() -> None:
    assert judge(package(STABLE), None, next_ref="openshift-marketplace/other") == []


def test_r_nxt_6_unknown_is_not_absent_without_the_installed_csv() -> None:
    sub = subscription("ns", "sub", package=PKG, installed="pkg.v1.0.0")
    assert next_catalog_entries([catalog(package(STABLE))], [], [sub], []) == []


def test_r_nxt_2_and_5_channel_gone_switch_to_one_in_both() -> None:
    """``fast`` is gone; ``stable`` is in both catalogs and admits 1.0.0 now by skipRange."""
    now = package({"fast": [e("1.0.0")], "stable": [e("1.1.0", skip_range="<1.1.0")]})
    nxt = package({"stable": [e("1.1.0", skip_range="<1.1.0"), e("1.2.0", "1.1.0")]})
    entry = only(judge(nxt, now, channel="fast"))
    assert codes(entry) == [("NextCatalogChannelMissing", "R-NXT-2")]
    assert entry.way_out == WayOut(
        "stable",
        True,
        "pkg.v1.1.0",
        "pkg.v1.1.0 skipRange pkg.v1.0.0",
        "pkg.v1.2.0 replaces pkg.v1.1.0",
    )
    assert entry.advice is not None
    assert "switch the Subscription to channel stable" in entry.advice


def test_r_nxt_5_a_channel_only_in_the_next_catalog_is_no_way_out() -> None:
    now = package({"fast": [e("1.0.0")]})
    nxt = package({"stable": [e("1.1.0", "1.0.0")]})
    entry = only(judge(nxt, now, channel="fast"))
    assert entry.way_out is None
    assert entry.advice is not None and "no path exists" in entry.advice


def test_r_nxt_5_without_current_content_the_next_channel_with_an_edge() -> None:
    nxt = package({"stable": [e("1.1.0", "1.0.0")]})
    entry = only(judge(nxt, None, channel="fast"))
    assert entry.way_out == WayOut(
        "stable", True, "pkg.v1.0.0", None, "pkg.v1.1.0 replaces pkg.v1.0.0"
    )


def test_r_nxt_2_empty_channel_means_the_next_default() -> None:
    nxt = package({"beta": [e("2.0.0")], "stable": [e("1.1.0", "1.0.0")]}, default="stable")
    entry = only(judge(nxt, None, channel=None))
    assert entry.ok and entry.channel is None


@pytest.mark.parametrize(
    ("prohibited", "missing"),
    [(frozenset({"pkg.v1.1.0"}), frozenset()), (frozenset(), frozenset({"pkg.v1.1.0"}))],
    ids=["olm.deprecated", "bundle missing"],
)
def test_r_nxt_4_a_channel_with_nothing_installable(
    prohibited: frozenset[str], missing: frozenset[str]
) -> None:
    nxt = package({"stable": [e("1.1.0", "1.0.0")]}, prohibited=prohibited, missing=missing)
    entry = only(judge(nxt, None))
    assert codes(entry) == [("NextCatalogNothingInstallable", "R-NXT-4")]


def test_r_nxt_3_no_edge_and_no_way_out() -> None:
    nxt = package({"stable": [e("2.0.0", skip_range=">=1.5.0 <2.0.0")]})
    entry = only(judge(nxt, package(STABLE)))
    assert codes(entry) == [("NextCatalogNoUpgradeEdge", "R-NXT-3")]
    assert entry.way_out is None


def test_r_nxt_3_and_5_upgrade_within_the_channel_first() -> None:
    now = package({"stable": [e("1.0.0"), e("1.5.0", "1.0.0")]})
    nxt = package({"stable": [e("2.0.0", skip_range=">=1.5.0 <2.0.0")]})
    entry = only(judge(nxt, now))
    assert entry.way_out == WayOut(
        "stable",
        False,
        "pkg.v1.5.0",
        "pkg.v1.5.0 replaces pkg.v1.0.0",
        "pkg.v2.0.0 skipRange pkg.v1.5.0",
    )
    assert (
        entry.advice is not None
        and "upgrade it within channel stable to pkg.v1.5.0" in entry.advice
    )


def test_r_nxt_6_v1_bound_by_name_when_the_selector_selects_it() -> None:
    nxt = Catalog("next-redhat", "next", packages={PKG: package({"stable": [e("1.0.0")]})})
    chosen = extension("ext", package=PKG, installed=("pkg.v1.0.0", "1.0.0"))
    other = extension(
        "other",
        package=PKG,
        installed=("pkg.v1.0.0", "1.0.0"),
        selector={"matchLabels": {"olm.operatorframework.io/metadata.name": "community"}},
    )
    entries = next_catalog_entries(
        [nxt], [], [], [], [chosen, other], [labelled_catalog("next-redhat")]
    )
    assert [x.object.name for x in entries] == ["ext"]
    assert entries[0].ok


def test_r_nxt_3_v1_installed_bundle_gone_with_no_successor() -> None:
    nxt = catalog(package({"stable": [e("2.0.0")]}), None)
    ext = extension("ext", package=PKG, channels=["stable"], installed=("pkg.v1.0.0", "1.0.0"))
    entry = only(next_catalog_entries([nxt], [], [], [], [ext]))
    assert codes(entry) == [("NextCatalogNoUpgradeEdge", "R-NXT-3")]
    assert entry.error is not None and 'installed version "1.0.0"' in entry.error


def test_without_next_catalog_nothing_is_judged() -> None:
    sub = subscription("ns", "sub", package=PKG, installed="pkg.v1.0.0")
    assert next_catalog_entries([], [], [sub], [csv("ns", "pkg.v1.0.0")]) == []


@pytest.mark.parametrize(
    "served", [[], ["b"], ["a", "b"]], ids=["no ClusterCatalog", "no content", "content of one"]
)
def test_r_nxt_5_v1_without_current_content_a_next_channel_from_the_installed_bundle(
    served: list[str],
) -> None:
    """A ClusterCatalog read whose content was not given is unknown, not empty."""
    nxt = catalog(package({"fast": [e("2.0.0")], "stable": [e("1.1.0", "1.0.0")]}), None)
    ext = extension("ext", package=PKG, channels=["fast"], installed=("pkg.v1.0.0", "1.0.0"))
    read = [labelled_catalog(n) for n in served]
    now = [Catalog("a", "a without the package")]  # bound to ClusterCatalog a; b unknown
    entry = only(next_catalog_entries([nxt], now, [], [], [ext], read))
    assert entry.way_out == WayOut(
        "stable", True, "pkg.v1.0.0", None, "pkg.v1.1.0 (replaces pkg.v1.0.0 in channel stable)"
    )
