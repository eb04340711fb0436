"""R-UPG-2 (candidates, next bundle), R-UPG-5 (path), R-UPG-4 and R-UPG-9 on hand-made catalogs."""

from __future__ import annotations

from typing import Any

from model_builders import csv, subscription

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.types import UpgradeEdge, UpgradeInfo
from olmtui.model.rules.upgrades.graph import (
    UpgradeGraph,
    replaces_rewrite,
    resolve_upgrade,
    unknowable_reason,
    upgrade_hook,
)


def E(
    name: str,
    replaces: str | None = None,
    skips: tuple[str, ...] = (),
    skip_range: str | None = None,
) -> ChannelEntry:
    return ChannelEntry(name, replaces, skips, skip_range)


def package(
    channels: dict[str, tuple[ChannelEntry, ...]],
    default: str | None = None,
    prohibited: tuple[str, ...] = (),
    name: str = "op",
) -> Package:
    """Bundles are named ``op.v<version>`` so the version comes from the name."""
    names = {e.name for entries in channels.values() for e in entries}
    return Package(
        name,
        default or next(iter(channels)),
        {c: Channel(name, c, entries) for c, entries in channels.items()},
        {n: Bundle(n, name, n.partition(".v")[2], prohibited=n in prohibited) for n in names},
    )


def sub(
    channel: str | None = "stable",
    source: str = "cat",
    installed: str | None = None,
    starting: str | None = None,
    package_name: str = "op",
) -> dict[str, Any]:
    return subscription(
        "ns",
        "op-sub",
        package=package_name,
        channel=channel,
        source=source,
        source_ns="olm",
        starting=starting,
        installed=installed,
    )


def make_csv(name: str, version: str | None = None, replaces: str | None = None) -> dict[str, Any]:
    return csv("ns", name, bare=True, version=version, replaces=replaces, phase=None, reason=None)


CHAIN = (
    E("op.v1.3.0", "op.v1.2.0", skip_range=">=1.0.0 <1.2.0"),
    E("op.v1.2.0", "op.v1.1.0"),
    E("op.v1.1.0", "op.v1.0.0"),
    E("op.v1.0.0"),
)


def catalog(pkg: Package, ref: str | None = "olm/cat", graph: str = "catalog") -> Catalog:
    return Catalog(ref, "test", graph, {pkg.name: pkg})  # type: ignore[arg-type]


def test_r_upg_2_nearest_the_head_wins_whatever_the_edge_type() -> None:
    # v1.1.0 is admitted by v1.2.0 (replaces) and by v1.3.0 (skipRange): v1.3.0 is nearer.
    info = resolve_upgrade(
        [catalog(package({"stable": CHAIN}))],
        sub(installed="op.v1.1.0"),
        make_csv("op.v1.1.0", "1.1.0"),
    )
    assert info == UpgradeInfo(
        "catalog",
        "op.v1.3.0",
        "op.v1.3.0",
        ("op.v1.3.0",),
        (UpgradeEdge("op.v1.1.0", "op.v1.3.0", "skipRange"),),
    )


def test_r_upg_5_path_repeats_the_choice_from_each_step() -> None:
    info = resolve_upgrade(
        [catalog(package({"stable": CHAIN}))],
        sub(installed="op.v1.0.0"),
        make_csv("op.v1.0.0", "1.0.0"),
    )
    assert info.next == "op.v1.3.0"  # 1.0.0 is in v1.3.0's skipRange too
    info = resolve_upgrade(
        [catalog(package({"stable": CHAIN}))],
        sub(installed="op.v1.0.0"),
        make_csv("op.v1.0.0", "0.9.0"),
    )  # a version outside the range
    assert info.path == ("op.v1.1.0", "op.v1.3.0")
    assert info.edges == (
        UpgradeEdge("op.v1.0.0", "op.v1.1.0", "replaces"),
        UpgradeEdge("op.v1.1.0", "op.v1.3.0", "skipRange"),
    )


def test_r_upg_2_label_prefers_replaces_then_skips_then_skip_range() -> None:
    pkg = package(
        {"stable": (E("op.v2.0.0", "op.v1.0.0", ("op.v1.0.0",), ">=1.0.0 <2.0.0"), E("op.v1.0.0"))}
    )
    info = resolve_upgrade(
        [catalog(pkg)], sub(installed="op.v1.0.0"), make_csv("op.v1.0.0", "1.0.0")
    )
    assert info.edges == (UpgradeEdge("op.v1.0.0", "op.v2.0.0", "replaces"),)
    pkg = package(
        {"stable": (E("op.v2.0.0", None, ("op.v1.0.0",), ">=1.0.0 <2.0.0"), E("op.v1.0.0"))}
    )
    info = resolve_upgrade(
        [catalog(pkg)], sub(installed="op.v1.0.0"), make_csv("op.v1.0.0", "1.0.0")
    )
    assert info.edges[0].via == "skips"


def test_r_upg_2_installed_version_absent_is_0_0_0() -> None:
    pkg = package({"stable": (E("op.v2.0.0", skip_range="<1.0.0"),)})
    info = resolve_upgrade([catalog(pkg)], sub(installed="old"), make_csv("old"))
    assert info.next == "op.v2.0.0"
    info = resolve_upgrade([catalog(pkg)], sub(installed="old"), make_csv("old", "1.0.0"))
    assert info.next is None


def test_r_sem_7_unparsable_skip_range_admits_nothing() -> None:
    pkg = package({"stable": (E("op.v2.0.0", skip_range=">=v1.0.0 <2.0.0"),)})
    info = resolve_upgrade([catalog(pkg)], sub(installed="old"), make_csv("old", "1.5.0"))
    assert (info.head, info.next, info.path) == ("op.v2.0.0", None, ())


def test_r_upg_2_prohibited_bundle_is_never_chosen() -> None:
    pkg = package({"stable": CHAIN}, prohibited=("op.v1.3.0",))
    info = resolve_upgrade(
        [catalog(pkg)], sub(installed="op.v1.1.0"), make_csv("op.v1.1.0", "1.1.0")
    )
    assert (info.next, info.path) == ("op.v1.2.0", ("op.v1.2.0",))
    fresh = resolve_upgrade([catalog(pkg)], sub(), None)
    assert fresh.next == "op.v1.2.0"


def test_r_upg_1_skipped_bundle_is_never_a_candidate() -> None:
    pkg = package(
        {
            "stable": (
                E("op.v3.0.0", "op.v2.0.0", ("op.v2.0.0",)),
                E("op.v2.0.0", "op.v1.0.0"),
                E("op.v1.0.0"),
            )
        }
    )
    info = resolve_upgrade(
        [catalog(pkg)], sub(installed="op.v1.0.0"), make_csv("op.v1.0.0", "1.0.0")
    )
    assert info.next is None  # only the skipped v2.0.0 replaces v1.0.0
    info = resolve_upgrade(
        [catalog(pkg)], sub(installed="op.v2.0.0"), make_csv("op.v2.0.0", "2.0.0")
    )
    assert info.edges == (UpgradeEdge("op.v2.0.0", "op.v3.0.0", "replaces"),)


def test_r_upg_2_own_skip_range_containing_itself_means_stay() -> None:
    pkg = package(
        {
            "stable": (
                E("op.v1.5.0", "op.v1.4.0", skip_range=">=1.0.0 <2.0.0"),
                E("op.v1.4.0", skip_range=">=1.0.0 <1.9.0"),
            )
        }
    )
    info = resolve_upgrade(
        [catalog(pkg)], sub(installed="op.v1.5.0"), make_csv("op.v1.5.0", "1.5.0")
    )
    assert (info.next, info.path) == (None, ())
    graph = UpgradeGraph(pkg, [pkg.channels["stable"]])
    assert [(h.target, h.via) for h in graph.path("op.v1.4.0", None)] == [("op.v1.5.0", "replaces")]
    assert [h.target for h in graph.path("op.v1.4.0", graph.version("op.v1.4.0"))] == ["op.v1.5.0"]


def test_r_upg_2_fresh_subscription_gets_the_head_and_walks_nothing() -> None:
    info = resolve_upgrade([catalog(package({"stable": CHAIN}))], sub(), None)
    assert info == UpgradeInfo("catalog", "op.v1.3.0", "op.v1.3.0", ("op.v1.3.0",), ())


def test_r_upg_2_starting_csv_is_next_and_the_path_continues_from_it() -> None:
    info = resolve_upgrade([catalog(package({"stable": CHAIN}))], sub(starting="op.v1.1.0"), None)
    assert info.next == "op.v1.1.0"
    assert info.path == ("op.v1.1.0", "op.v1.3.0")
    assert info.edges == (UpgradeEdge("op.v1.1.0", "op.v1.3.0", "skipRange"),)


def test_r_upg_2_starting_csv_not_in_channel_gives_no_next() -> None:
    info = resolve_upgrade([catalog(package({"stable": CHAIN}))], sub(starting="op.v9.0.0"), None)
    assert (info.graph, info.head, info.next, info.path) == ("catalog", "op.v1.3.0", None, ())


def test_r_upg_2_installed_csv_missing_counts_as_not_installed() -> None:
    info = resolve_upgrade(
        [catalog(package({"stable": CHAIN}))],
        sub(installed="op.v1.0.0", starting="op.v1.2.0"),
        None,
    )
    assert info.next == "op.v1.2.0"


def test_r_upg_2_starting_csv_may_be_a_skipped_entry() -> None:
    pkg = package(
        {
            "stable": (
                E("op.v3.0.0", "op.v2.0.0", ("op.v2.0.0",)),
                E("op.v2.0.0", "op.v1.0.0"),
                E("op.v1.0.0"),
            )
        }
    )
    info = resolve_upgrade([catalog(pkg)], sub(starting="op.v2.0.0"), None)
    assert info.path == ("op.v2.0.0", "op.v3.0.0")


def test_r_upg_2_empty_channel_uses_default_channel_first_then_by_name() -> None:
    pkg = package(
        {
            "alpha": (E("op.v3.0.0", "op.v1.0.0"), E("op.v1.0.0")),
            "stable": (E("op.v2.0.0", "op.v1.0.0"), E("op.v1.0.0")),
            "beta": (E("op.v2.5.0", "op.v1.0.0"), E("op.v1.0.0")),
        },
        default="stable",
    )
    info = resolve_upgrade(
        [catalog(pkg)], sub(channel=None, installed="op.v1.0.0"), make_csv("op.v1.0.0", "1.0.0")
    )
    assert (info.head, info.next) == ("op.v2.0.0", "op.v2.0.0")
    no_default = package(
        {c: pkg.channels[c].entries for c in ("stable", "beta", "alpha")}, default="gone"
    )
    info = resolve_upgrade(
        [catalog(no_default)],
        sub(channel="", installed="op.v1.0.0"),
        make_csv("op.v1.0.0", "1.0.0"),
    )
    assert (info.head, info.next) == ("op.v3.0.0", "op.v3.0.0")  # "alpha" sorts first


def test_r_upg_2_scope_is_only_the_subscriptions_catalog_source() -> None:
    other = catalog(package({"stable": CHAIN}), ref="olm/other")
    assert (
        resolve_upgrade([other], sub(installed="op.v1.0.0"), make_csv("op.v1.0.0")) == UpgradeInfo()
    )
    anywhere = catalog(package({"stable": (E("op.v9.0.0", "op.v1.0.0"),)}), ref=None)
    mine = catalog(package({"stable": CHAIN}))
    info = resolve_upgrade(
        [anywhere, mine], sub(installed="op.v1.2.0"), make_csv("op.v1.2.0", "1.2.0")
    )
    assert info.next == "op.v1.3.0"  # the exact CatalogSource wins over a catch-all catalog
    info = resolve_upgrade(
        [other, anywhere], sub(installed="op.v1.0.0"), make_csv("op.v1.0.0", "1.0.0")
    )
    assert info.next == "op.v9.0.0"  # a catalog without ref serves every CatalogSource


def test_r_upg_2_unknown_channel_gives_no_upgrade() -> None:
    info = resolve_upgrade([catalog(package({"stable": CHAIN}))], sub(channel="nope"), None)
    assert info == UpgradeInfo()


def test_r_upg_1_unorderable_channel_has_no_next() -> None:
    # Semver-mode bundles without replaces: OLM's order fails, so resolution fails and
    # nothing is next, even where a skipRange would admit the installed version.
    pkg = package(
        {
            "stable": (
                E("op.v1.1.0", skip_range=">=1.0.0 <1.1.0"),
                E("op.v1.2.0", skip_range=">=1.0.0 <1.2.0"),
                E("op.v1.0.0"),
            )
        }
    )
    info = resolve_upgrade(
        [catalog(pkg)], sub(installed="op.v1.0.0"), make_csv("op.v1.0.0", "1.0.0")
    )
    assert (info.graph, info.head, info.next, info.path) == ("catalog", None, None, ())


def test_s11_packagemanifest_head_admits_installed_by_skip_range() -> None:
    pm = Package(
        "op",
        "stable",
        {
            "stable": Channel(
                "op",
                "stable",
                (E("op.v1.3.0", skip_range=">=1.0.0 <1.3.0"), E("op.v1.2.0")),
                reported_head="op.v1.3.0",
            )
        },
    )
    cats = [catalog(pm, graph="packagemanifest")]
    info = resolve_upgrade(cats, sub(installed="op.v1.1.0"), make_csv("op.v1.1.0", "1.1.0"))
    assert info == UpgradeInfo(
        "packagemanifest",
        "op.v1.3.0",
        "op.v1.3.0",
        ("op.v1.3.0",),
        (UpgradeEdge("op.v1.1.0", "op.v1.3.0", "skipRange"),),
    )
    assert unknowable_reason(info, "op.v1.1.0") == ""
    info = resolve_upgrade(cats, sub(installed="op.v0.9.0"), make_csv("op.v0.9.0", "0.9.0"))
    assert info == UpgradeInfo("packagemanifest", "op.v1.3.0")
    assert "does not admit op.v0.9.0" in unknowable_reason(info, "op.v0.9.0")
    fresh = resolve_upgrade(cats, sub(starting="op.v1.2.0"), None)
    assert (fresh.next, fresh.path) == ("op.v1.2.0", ("op.v1.2.0",))
    assert "After op.v1.2.0 is installed" in unknowable_reason(fresh, None)
    at_head = resolve_upgrade(cats, sub(installed="op.v1.3.0"), make_csv("op.v1.3.0", "1.3.0"))
    assert at_head.next is None and unknowable_reason(at_head, "op.v1.3.0") == ""


def test_unknowable_reason_without_catalog_and_with_full_catalog() -> None:
    assert "No catalog content" in unknowable_reason(UpgradeInfo(), "x")
    assert unknowable_reason(UpgradeInfo("catalog", "h"), "x") == ""


def test_r_upg_4_on_cluster_replaces_differs_from_the_catalog() -> None:
    cats = [catalog(package({"stable": CHAIN}))]
    upgraded = make_csv("op.v1.3.0", "1.3.0", replaces="op.v1.1.0")  # came via the skipRange
    assert replaces_rewrite(cats, sub(installed="op.v1.3.0"), upgraded) == (
        "op.v1.1.0",
        "op.v1.2.0",
    )
    fresh = make_csv("op.v1.3.0", "1.3.0", replaces="op.v1.2.0")
    assert replaces_rewrite(cats, sub(installed="op.v1.3.0"), fresh) is None
    # No spec.replaces on the cluster: the bundle's own CSV had none, nothing was rewritten.
    assert (
        replaces_rewrite(cats, sub(installed="op.v1.3.0"), make_csv("op.v1.3.0", "1.3.0")) is None
    )
    unknown = make_csv("op.v7.0.0", "7.0.0", replaces="op.v1.2.0")
    assert replaces_rewrite(cats, sub(installed="op.v7.0.0"), unknown) is None


def test_upgrade_hook_reads_the_installed_csv_from_the_store() -> None:
    from olmtui.store import Store

    store = Store()
    store.apply(
        "ADDED",
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "ClusterServiceVersion",
            **make_csv("op.v1.1.0", "1.1.0"),
        },
    )
    hook = upgrade_hook([catalog(package({"stable": CHAIN}))])
    assert hook(sub(installed="op.v1.1.0"), store).path == ("op.v1.3.0",)
    # Not in the store: not installed yet, so the head is next.
    assert hook(sub(installed="op.v1.0.0"), store).path == ("op.v1.3.0",)
    assert hook(sub(installed="op.v1.0.0", starting="op.v1.2.0"), store).path == (
        "op.v1.2.0",
        "op.v1.3.0",
    )


def test_r_upg_2_catalog_content_beats_packagemanifests_of_the_same_source() -> None:
    pm = Package(
        "op",
        "stable",
        {"stable": Channel("op", "stable", (E("op.v1.3.0"),), reported_head="op.v1.3.0")},
    )
    manifests = catalog(pm, graph="packagemanifest")
    content = catalog(package({"stable": CHAIN}), ref=None)
    info = resolve_upgrade(
        [manifests, content], sub(installed="op.v1.1.0"), make_csv("op.v1.1.0", "1.1.0")
    )
    assert info.graph == "catalog"
    exact_without_package = Catalog("olm/cat", "x", packages={"other": Package("other")})
    info = resolve_upgrade(
        [exact_without_package, content], sub(installed="op.v1.1.0"), make_csv("op.v1.1.0", "1.1.0")
    )
    assert info == UpgradeInfo()  # that CatalogSource does not serve the package at all
