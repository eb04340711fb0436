"""R-DOC-8: pieces of catalog content given for one CatalogSource are one catalog."""

from __future__ import annotations

from model_builders import subscription

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.rules.catalog.merge import merge_catalogs
from olmtui.model.rules.upgrades.graph import upgrade_findings

E = ChannelEntry


def pkg(name: str, *entries: ChannelEntry, channel: str = "stable") -> Package:
    return Package(
        name,
        channel,
        {channel: Channel(name, channel, entries)},
        {e.name: Bundle(e.name, name, e.name.partition(".v")[2]) for e in entries},
    )


def piece(origin: str, *packages: Package, ref: str | None = "olm/cat") -> Catalog:
    return Catalog(ref, origin, packages={p.name: p for p in packages})


def sub(package: str) -> dict[str, object]:
    return subscription("ns", f"{package}-sub", package=package, source_ns="olm")


def test_two_packages_for_one_source_are_one_catalog() -> None:
    a, b = piece("dir-a", pkg("a", E("a.v1"))), piece("dir-b", pkg("b", E("b.v1")))
    [merged] = merge_catalogs([a, b])
    assert sorted(merged.packages) == ["a", "b"]
    assert merged.origin == "dir-a + dir-b"
    assert sorted(a.packages) == ["a"]  # the pieces are left as given
    found = upgrade_findings([merged], [sub("a"), sub("b")], {})
    assert not [f for f in found if f.code in ("NoOperatorsFound", "NotInCatalogContent")]


def test_other_sources_and_graph_kinds_stay_apart() -> None:
    a = piece("dir-a", pkg("a", E("a.v1")))
    other = piece("dir-b", pkg("b", E("b.v1")), ref="olm/other")
    anywhere = piece("dir-c", pkg("c", E("c.v1")), ref=None)
    assert merge_catalogs([a, other, anywhere]) == [a, other, anywhere]


def test_same_package_twice_merges_channels_and_bundles() -> None:
    first = piece("v1", pkg("a", E("a.v1")))
    second = piece("v2", pkg("a", E("a.v2", "a.v1"), E("a.v1")))
    second.packages["a"].channels["fast"] = Channel("a", "fast", (E("a.v2"),))
    [merged] = merge_catalogs([first, second])
    package = merged.packages["a"]
    assert [e.name for e in package.channels["stable"].entries] == ["a.v1", "a.v2"]
    assert sorted(package.channels) == ["fast", "stable"]
    assert sorted(package.bundles) == ["a.v1", "a.v2"]
    assert merged.findings == []


def test_disagreeing_pieces_are_a_finding_and_the_first_is_kept() -> None:
    first = piece("dir-a", pkg("a", E("a.v2", "a.v1"), E("a.v1")))
    second = piece("dir-b", pkg("a", E("a.v2", "a.v0"), E("a.v1")))
    [merged] = merge_catalogs([first, second])
    assert merged.packages["a"].channels["stable"].entries[0] == E("a.v2", "a.v1")
    [f] = merged.findings
    assert (f.severity, f.code, f.rule) == ("warning", "CatalogContentConflict", "R-DOC-8")
    assert (f.kind, f.namespace, f.name) == ("CatalogSource", "olm", "cat")
    assert "entry a.v2 of channel stable has other edges" in f.message
    assert "dir-b" in f.message


def test_r_v1_22_pieces_for_a_cluster_catalog_conflict_on_the_cluster_catalog() -> None:
    """``--catalog NAME=PATH`` content is for a ClusterCatalog: a conflict names that kind."""
    first = piece("dir-a", pkg("a", E("a.v2", "a.v1"), E("a.v1")), ref="cat")
    second = piece("dir-b", pkg("a", E("a.v2", "a.v0"), E("a.v1")), ref="cat")
    [merged] = merge_catalogs([first, second])
    [f] = merged.findings
    assert (f.kind, f.namespace, f.name) == ("ClusterCatalog", "", "cat")
    assert "once per ClusterCatalog" in f.message


def test_r_v1_22_content_for_a_cluster_catalog_serves_no_catalog_source() -> None:
    """Content bound to ClusterCatalog ``cat`` is not CatalogSource ``olm/cat``'s: the
    Subscription finds neither it nor unbound content, as with no content at all."""
    from olmtui.model.rules.resolution.resolve import CatalogContent

    v1 = piece("dir-a", pkg("a", E("a.v1")), ref="cat")
    assert CatalogContent([v1]).find("olm/cat") is None
    with_v1 = upgrade_findings([v1], [sub("a")], {})
    without = upgrade_findings([], [sub("a")], {})
    assert [(f.code, f.message) for f in with_v1] == [(f.code, f.message) for f in without]
