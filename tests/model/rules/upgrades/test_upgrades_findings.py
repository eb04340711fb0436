"""``upgrade_findings``: what a person should hear about each Subscription's upgrade."""

from __future__ import annotations

from typing import Any

from data_paths import DATA
from model_builders import subscription

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.upgrades.graph import resolve_upgrade, upgrade_findings
from olmtui.sources.catalog.catalogs import load_catalog

E = ChannelEntry
OLM_FIXTURES = DATA / "catalogs/operator-lifecycle-manager/test/e2e/testdata/subscription"


def package(
    entries: tuple[ChannelEntry, ...], prohibited: tuple[str, ...] = (), channel: str = "stable"
) -> Package:
    names = {e.name for e in entries}
    return Package(
        "op",
        channel,
        {channel: Channel("op", channel, entries)},
        {n: Bundle(n, "op", n.partition(".v")[2], prohibited=n in prohibited) for n in names},
    )


def catalog(pkg: Package, ref: str | None = "olm/cat") -> Catalog:
    return Catalog(ref, "test", packages={pkg.name: pkg})


def sub(
    installed: str | None = None,
    channel: str | None = "stable",
    name: str = "op-sub",
    namespace: str = "ns",
    approval: str | None = None,
    starting: str | None = None,
    package_name: str = "op",
    source: str = "cat",
) -> dict[str, Any]:
    return subscription(
        namespace,
        name,
        package=package_name,
        channel=channel,
        source=source,
        source_ns="olm",
        approval=approval,
        starting=starting,
        installed=installed,
    )


def csvs(
    *items: tuple[str, str | None], namespace: str = "ns", replaces: str | None = None
) -> dict[str, dict[str, Any]]:
    out = {}
    for name, version in items:
        spec: dict[str, Any] = {"version": version} if version else {}
        if replaces:
            spec["replaces"] = replaces
        out[name] = {"metadata": {"namespace": namespace, "name": name}, "spec": spec}
    return {namespace: out}


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


CHAIN = (E("op.v1.2.0", "op.v1.1.0"), E("op.v1.1.0", "op.v1.0.0"), E("op.v1.0.0"))


def test_r_upg_5_upgrade_available_counts_hops_and_names_the_path() -> None:
    [f] = upgrade_findings(
        [catalog(package(CHAIN))], [sub("op.v1.0.0")], csvs(("op.v1.0.0", "1.0.0"), replaces=None)
    )
    assert (f.severity, f.code, f.kind, f.namespace, f.name, f.rule) == (
        "info",
        "UpgradeAvailable",
        "Subscription",
        "ns",
        "op-sub",
        "R-UPG-5",
    )
    assert "2 hop(s) in all: op.v1.0.0 -> op.v1.1.0 -> op.v1.2.0" in f.message
    assert "Manual" not in f.message
    assert f.related == (ObjectRef("CatalogSource", "olm", "cat"),)


def test_r_sub_4_manual_approval_anywhere_in_the_namespace_is_mentioned() -> None:
    subs = [sub("op.v1.0.0"), sub(name="other", package_name="else", approval="Manual")]
    found = upgrade_findings([catalog(package(CHAIN))], subs, csvs(("op.v1.0.0", "1.0.0")))
    [f] = [f for f in found if f.code == "UpgradeAvailable"]
    assert "every hop waits for its InstallPlan to be approved" in f.message


def test_at_the_head_nothing_is_reported() -> None:
    assert (
        upgrade_findings(
            [catalog(package(CHAIN))], [sub("op.v1.2.0")], csvs(("op.v1.2.0", "1.2.0"))
        )
        == []
    )


def test_r_upg_2_no_upgrade_edge_when_nothing_admits_the_installed_csv() -> None:
    found = upgrade_findings(
        [catalog(package(CHAIN))], [sub("op.v0.9.0")], csvs(("op.v0.9.0", "0.9.0"))
    )
    assert codes(found) == ["NoUpgradeEdge"]
    assert found[0].severity == "warning"
    assert "OLM will never upgrade op.v0.9.0" in found[0].message
    assert "not in the channel" in found[0].message


def test_r_upg_2_no_upgrade_edge_when_only_deprecated_bundles_admit_it() -> None:
    pkg = package(CHAIN, prohibited=("op.v1.1.0",))
    found = upgrade_findings([catalog(pkg)], [sub("op.v1.0.0")], csvs(("op.v1.0.0", "1.0.0")))
    assert codes(found) == ["NoUpgradeEdge"]
    assert "deprecated bundles (olm.deprecated)" in found[0].message


def test_r_upg_1_channel_graph_error_carries_olms_text() -> None:
    pkg = package((E("op.v1.1.0"), E("op.v1.0.0")))
    found = upgrade_findings([catalog(pkg)], [sub("op.v1.0.0")], csvs(("op.v1.0.0", "1.0.0")))
    # Resolution fails on the channel: there is no next, so no NoUpgradeEdge guess either.
    assert codes(found) == ["ChannelGraphError"]
    assert found[0].severity == "error"
    assert "there is no next bundle" in found[0].message
    newest = upgrade_findings([catalog(pkg)], [sub("op.v1.1.0")], csvs(("op.v1.1.0", "1.1.0")))
    assert codes(newest) == ["ChannelGraphError"]
    assert (
        '"a unique replacement chain within a channel is required to determine the '
        "relative order between channel entries, but 2 replacement chains were found in "
        'channel "stable" of package "op": op.v1.1.0, op.v1.0.0"'
    ) in found[0].message


def test_r_upg_7_stranded_bundles_and_invalid_skip_range_are_warnings() -> None:
    pkg = package(
        (
            E("op.v1.2.0", "op.v1.1.0", skips=("op.v1.0.5",), skip_range=">v1.0.0"),
            E("op.v1.1.0"),
            E("op.v1.0.5", "op.v1.0.0"),
            E("op.v1.0.0"),
        )
    )
    found = upgrade_findings([catalog(pkg)], [sub("op.v1.2.0")], csvs(("op.v1.2.0", "1.2.0")))
    assert codes(found) == ["InvalidSkipRange", "StrandedBundles"]
    assert "channel contains one or more stranded bundles: op.v1.0.0" in found[1].message
    assert "'>v1.0.0'" in found[0].message


def test_r_upg_1_skipped_bundle_installed_is_explained() -> None:
    pkg = package(
        (
            E("op.v1.2.0", "op.v1.0.0", skips=("op.v1.1.0",)),
            E("op.v1.1.0", "op.v1.0.0"),
            E("op.v1.0.0"),
        )
    )
    found = upgrade_findings([catalog(pkg)], [sub("op.v1.1.0")], csvs(("op.v1.1.0", "1.1.0")))
    assert codes(found) == ["SkippedBundleInstalled", "UpgradeAvailable"]
    assert "listed in skips of op.v1.2.0 (channel stable)" in found[0].message


def test_r_upg_6_missing_channel_package_and_starting_csv_use_olms_text() -> None:
    # A whole catalog (as the source's PackageManifests are) shows what OLM finds (R-DOC-8).
    cat = catalog(package(CHAIN))
    cat.whole = True
    [f] = upgrade_findings([cat], [sub(channel="beta")], {})
    assert (f.code, f.severity) == ("NoOperatorsFound", "error")
    assert f.message.startswith(
        "no operators found in channel beta of package op in the "
        "catalog referenced by subscription op-sub."
    )
    [f] = upgrade_findings([cat], [sub(package_name="nope")], {})
    assert f.message.startswith(
        "no operators found in package nope in the catalog referenced by subscription op-sub."
    )
    [f] = upgrade_findings([cat], [sub(starting="op.v9.9.9")], {})
    assert f.message.startswith(
        "no operators found with name op.v9.9.9 in channel stable of "
        "package op in the catalog referenced by subscription op-sub."
    )
    [f] = upgrade_findings([Catalog("olm/cat", "empty", whole=True)], [sub()], {})
    assert f.message.startswith(
        "no operators found from catalog cat in namespace olm referenced by subscription op-sub."
    )


def test_r_doc_8_partial_content_says_not_in_the_content_given() -> None:
    """Content that is not the whole catalog (any --catalog PATH) shows nothing missing."""
    cat = catalog(package(CHAIN))
    for missing in (sub(channel="beta"), sub(package_name="nope"), sub(starting="op.v9.9.9")):
        [f] = upgrade_findings([cat], [missing], {})
        assert (f.code, f.severity, f.rule) == ("NotInCatalogContent", "info", "R-DOC-8")
        assert "not the whole catalog" in f.message
    [f] = upgrade_findings([cat], [sub(package_name="nope")], {})
    assert "not in the catalog content given (test)" in f.message


def test_r_doc_8_partial_content_falls_back_to_the_sources_packagemanifests() -> None:
    pm = Package(
        "other",
        "stable",
        {"stable": Channel("other", "stable", (E("o.v1"),), reported_head="o.v1")},
    )
    manifests = Catalog("olm/cat", "packagemanifests", "packagemanifest", {"other": pm}, whole=True)
    found = upgrade_findings([catalog(package(CHAIN)), manifests], [sub(package_name="other")], {})
    assert "NotInCatalogContent" not in codes(found)
    assert "NoOperatorsFound" not in codes(found)
    # ... and a package neither holds is missing from the whole catalog: OLM finds none.
    found = upgrade_findings([catalog(package(CHAIN)), manifests], [sub(package_name="x")], {})
    assert [(f.code, f.severity) for f in found] == [("NoOperatorsFound", "error")]


def test_r_upg_6_catalog_without_ref_says_nothing_about_missing_packages() -> None:
    assert (
        upgrade_findings([catalog(package(CHAIN), ref=None)], [sub(package_name="nope")], {}) == []
    )


def test_r_upg_4_rewritten_replaces_is_reported() -> None:
    found = upgrade_findings(
        [catalog(package(CHAIN))],
        [sub("op.v1.2.0")],
        csvs(("op.v1.2.0", "1.2.0"), replaces="op.v1.0.0"),
    )
    assert codes(found) == ["ReplacesRewritten"]
    assert "spec.replaces op.v1.0.0, the catalog says op.v1.1.0" in found[0].message


def test_r_upg_9_packagemanifest_unknown_path_is_an_info() -> None:
    pm = Package(
        "op",
        "stable",
        {
            "stable": Channel(
                "op",
                "stable",
                (E("op.v1.2.0", skip_range=">=1.1.0 <1.2.0"), E("op.v1.1.0")),
                reported_head="op.v1.2.0",
            )
        },
    )
    cat = Catalog("olm/cat", "packagemanifests", "packagemanifest", {"op": pm})
    [f] = upgrade_findings([cat], [sub("op.v1.0.0")], csvs(("op.v1.0.0", "1.0.0")))
    assert (f.code, f.severity, f.rule) == ("UpgradePathUnknown", "info", "R-UPG-9")
    assert upgrade_findings([cat], [sub("op.v1.1.0")], csvs(("op.v1.1.0", "1.1.0"))) == []


def test_r_sub_10_deprecations_from_the_olm_e2e_catalog() -> None:
    cat = load_catalog(f"olm/cat={OLM_FIXTURES / 'example-operator.v0.2.0-deprecations.yaml'}")
    installed = csvs(("example-operator.v0.2.0", "1.0.1"))
    found = upgrade_findings(
        [cat], [sub("example-operator.v0.2.0", package_name="test-package")], installed
    )
    assert codes(found) == ["BundleDeprecated", "ChannelDeprecated", "PackageDeprecated"]
    by_code = {f.code: f.message for f in found}
    assert by_code["PackageDeprecated"].endswith(
        "test-package has been deprecated. Please switch to another-package."
    )
    assert by_code["ChannelDeprecated"].endswith(
        'channel "stable" has been deprecated. Please switch to a different one.'
    )
    assert by_code["BundleDeprecated"].endswith(
        'bundle "example-operator.v0.2.0" has been deprecated. Please switch to a different one.'
    )
    # ChannelDeprecated is not applied when spec.channel is empty.
    found = upgrade_findings(
        [cat],
        [sub("example-operator.v0.2.0", channel=None, package_name="test-package")],
        installed,
    )
    assert codes(found) == ["BundleDeprecated", "PackageDeprecated"]


def test_r_upg_1_unorderable_channel_has_no_next_and_no_upgrade_available() -> None:
    """Two replaces chains: OLM cannot order the channel, so it picks nothing next."""
    pkg = package((E("op.v1.2.0", "op.v1.0.0"), E("op.v1.1.0"), E("op.v1.0.0")))
    cat = catalog(pkg)
    upgrade = resolve_upgrade(
        [cat], sub("op.v1.0.0"), csvs(("op.v1.0.0", "1.0.0"))["ns"]["op.v1.0.0"]
    )
    assert (upgrade.graph, upgrade.head, upgrade.next, upgrade.path) == ("catalog", None, None, ())
    fresh = resolve_upgrade([cat], sub(None), None)
    assert (fresh.head, fresh.next) == (None, None)
    found = upgrade_findings([cat], [sub("op.v1.0.0")], csvs(("op.v1.0.0", "1.0.0")))
    assert codes(found) == ["ChannelGraphError"]
