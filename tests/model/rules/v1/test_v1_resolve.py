"""OLM v1 resolution (R-V1-8..R-V1-19): operator-controller's resolver tests translated — the
same catalogs (tests/data/v1-resolution, see its README), ClusterExtension spec and installed
bundle, the same expected bundle or exact error — plus olmtui's offline choices (R-V1-9)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from data_paths import DATA
from v1_objects import foo_extension, labelled_catalog

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.rules.v1.resolve import V1Resolution, content_by_catalog, resolve_extension
from olmtui.sources.catalog.catalogs import load_catalog

CASES = DATA / "v1-resolution"
PKG = "foo"
Obj = dict[str, Any]


def gen_package() -> Catalog:
    """operator-controller's ``genPackage``: channels alpha/beta/gamma, six bundles, 1.0.0 and
    1.0.1 deprecated."""
    return load_catalog(str(CASES / "gen-package" / "catalog.json"))


EMPTY = Catalog(None, "empty")


def abc() -> tuple[list[Obj], dict[str, Catalog]]:
    """The walker most tests use: catalogs a and b empty, c holding ``genPackage``."""
    return (
        [labelled_catalog(n) for n in "abc"],
        {"a": EMPTY, "b": EMPTY, "c": gen_package()},
    )


def picked(result: V1Resolution) -> tuple[str | None, str | None, str | None]:
    assert result.error is None, result.error
    assert result.unknown is None
    return result.bundle, result.version, result.catalog


def resolve_abc(**kwargs: Any) -> V1Resolution:
    catalogs, content = abc()
    return resolve_extension(foo_extension(**kwargs), catalogs, content)


# --- catalog_test.go -------------------------------------------------------------------------


def test_r_v1_8_invalid_cluster_extension_version_range() -> None:
    """TestInvalidClusterExtensionVersionRange."""
    result = resolve_extension(foo_extension(version="foobar"), [], {})
    assert result == V1Resolution(
        error='desired version range "foobar" is invalid: improper constraint: "foobar"'
    )


def test_r_v1_9_error_getting_package_is_a_catalog_not_served() -> None:
    """TestErrorGettingPackage: a catalog that cannot give the package fails the walk; offline,
    that is a ClusterCatalog whose Serving condition is not True."""
    result = resolve_extension(
        foo_extension(), [labelled_catalog("a", serving=False)], {"a": EMPTY}
    )
    assert result.error == (
        'error walking catalogs: error getting package "foo" from catalog "a": '
        'catalog "a" is not being served'
    )


def test_r_v1_18_package_does_not_exist() -> None:
    """TestPackageDoesNotExist."""
    catalogs = [labelled_catalog(n) for n in "abc"]
    result = resolve_extension(foo_extension(), catalogs, {n: EMPTY for n in "abc"})
    assert result.error == 'no bundles found for package "foo"'


def test_r_v1_17_package_exists() -> None:
    """TestPackageExists: the highest version of the package."""
    assert picked(resolve_abc()) == ("foo.v3.0.0", "3.0.0", "c")


def test_r_v1_19_validation_failed() -> None:
    """TestValidationFailed, with operator-controller's real validation: the winner declares a
    dependency, so the whole resolution fails (no fallback to the next candidate)."""
    bundle = Bundle(
        "foo.v2.0.0",
        PKG,
        "2.0.0",
        properties=(
            ("olm.package", '{"packageName":"foo","version":"2.0.0"}'),
            ("olm.gvk.required", '{"group":"example.com","kind":"Bar","version":"v1"}'),
        ),
    )
    older = Bundle("foo.v1.0.0", PKG, "1.0.0", properties=(("olm.package", '{"version":"1.0.0"}'),))
    content = Catalog(
        None, "x", packages={PKG: Package(PKG, None, {}, {b.name: b for b in (older, bundle)})}
    )
    result = resolve_extension(foo_extension(), [labelled_catalog("c")], {"c": content})
    assert result == V1Resolution(
        error='validating bundle "foo.v2.0.0": bundle "foo.v2.0.0" has a dependency declared '
        'via property "olm.gvk.required" which is currently not supported'
    )


def test_r_v1_18_version_does_not_exist() -> None:
    """TestVersionDoesNotExist."""
    result = resolve_abc(version="4.0.0")
    assert result.error == 'no bundles found for package "foo" matching version "4.0.0"'


def test_r_v1_14_version_exists() -> None:
    """TestVersionExists."""
    assert picked(resolve_abc(version=">=1.0.0 <2.0.0")) == ("foo.v1.0.2", "1.0.2", "c")


def test_r_v1_18_channel_does_not_exist() -> None:
    """TestChannelDoesNotExist."""
    result = resolve_abc(channels=("stable",))
    assert result.error == 'no bundles found for package "foo" in channels [stable]'


def test_r_v1_13_channel_exists() -> None:
    """TestChannelExists."""
    assert picked(resolve_abc(channels=("beta",))) == ("foo.v1.0.2", "1.0.2", "c")


def test_r_v1_18_channel_exists_but_not_version() -> None:
    """TestChannelExistsButNotVersion."""
    result = resolve_abc(channels=("beta",), version="3.0.0")
    assert result.error == (
        'no bundles found for package "foo" matching version "3.0.0" in channels [beta]'
    )


def test_r_v1_18_version_exists_but_not_channel() -> None:
    """TestVersionExistsButNotChannel."""
    result = resolve_abc(channels=("stable",), version="1.0.0")
    assert result.error == (
        'no bundles found for package "foo" matching version "1.0.0" in channels [stable]'
    )


def test_r_v1_13_channel_and_version_exist() -> None:
    """TestChannelAndVersionExist."""
    assert picked(resolve_abc(channels=("alpha",), version="0.1.0")) == ("foo.v0.1.0", "0.1.0", "c")


def test_r_v1_17_prefer_non_deprecated() -> None:
    """TestPreferNonDeprecated: 1.0.0 is deprecated, so 0.1.0 wins over it."""
    result = resolve_abc(version=">=0.1.0 <=1.0.0")
    assert picked(result) == ("foo.v0.1.0", "0.1.0", "c")
    assert result.deprecations == ()


def test_r_v1_17_accept_deprecated() -> None:
    """TestAcceptDeprecated: only deprecated candidates: the highest of them."""
    result = resolve_abc(version=">=1.0.0 <=1.0.1")
    assert picked(result) == ("foo.v1.0.1", "1.0.1", "c")
    assert result.deprecations == ("bundle foo.v1.0.1 is deprecated",)


def variations() -> tuple[list[Obj], dict[str, Catalog]]:
    """TestPackageVariationsBetweenCatalogs' catalogs a..f (channel-less bundles)."""
    content = {n: load_catalog(str(CASES / "package-variations" / f"{n}.json")) for n in "bcdef"}
    content["a"] = EMPTY
    return [labelled_catalog(n) for n in "abcdef"], content


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        # deprecated in all but one catalog: the only non-deprecated one
        (">=1.0.0 <=1.0.3", ("foo.v1.0.2", "1.0.2", "d")),
        # found and deprecated in several catalogs: no decision
        (">=1.0.0 <=1.0.1", "in multiple catalogs with the same priority [b c]"),
        # found and not deprecated in several catalogs: no decision
        (">=1.0.0 <=1.0.4", "in multiple catalogs with the same priority [d f]"),
        # all candidates in one catalog: the highest
        (">=1.0.4 <=1.0.5", ("foo.v1.0.5", "1.0.5", "f")),
    ],
)
def test_r_v1_17_package_variations_between_catalogs(version: str, expected: Any) -> None:
    """TestPackageVariationsBetweenCatalogs (its four sub-tests)."""
    catalogs, content = variations()
    result = resolve_extension(foo_extension(version=version), catalogs, content)
    if isinstance(expected, tuple):
        assert picked(result) == expected
    else:
        assert result.bundle is None
        assert result.error == (
            f'found bundles for package "foo" matching version "{version}" {expected}'
        )


def test_r_v1_15_upgrade_found_legacy() -> None:
    """TestUpgradeFoundLegacy: 0.1.0 -> 1.0.2 by its skipRange (no semver rule)."""
    result = resolve_abc(installed="0.1.0")
    assert picked(result) == ("foo.v1.0.2", "1.0.2", "c")
    assert result.via == "skipRange '<1.0.2' in channel alpha"


def test_r_v1_15_upgrade_not_found_legacy() -> None:
    """TestUpgradeNotFoundLegacy."""
    result = resolve_abc(version="<1.0.0 >=2.0.0", installed="0.1.0")
    assert result.error == (
        'error upgrading from currently installed version "0.1.0": no bundles found for '
        'package "foo" matching version "<1.0.0 >=2.0.0"'
    )


def test_r_v1_16_downgrade_found() -> None:
    """TestDowngradeFound: SelfCertified allows 1.0.2 -> 0.1.0 (1.0.0/1.0.1 deprecated)."""
    result = resolve_abc(version="<1.0.2", policy="SelfCertified", installed="1.0.2")
    assert picked(result) == ("foo.v0.1.0", "0.1.0", "c")
    assert result.via == "SelfCertified"


def test_r_v1_16_downgrade_not_found() -> None:
    """TestDowngradeNotFound."""
    result = resolve_abc(version=">0.1.0 <1.0.0", policy="SelfCertified", installed="1.0.2")
    assert result.error == (
        'error upgrading from currently installed version "1.0.2": no bundles found for '
        'package "foo" matching version ">0.1.0 <1.0.0"'
    )


def test_r_v1_8_invalid_catalog_match_expressions() -> None:
    """TestInvalidClusterExtensionCatalogMatchExpressions."""
    selector = {"matchExpressions": [{"key": "name", "operator": "bad", "values": ["value"]}]}
    result = resolve_extension(foo_extension(selector=selector), [], {})
    assert result.error == (
        'desired catalog selector is invalid: "bad" is not a valid label selector operator'
    )


def test_r_v1_8_invalid_catalog_match_labels_name() -> None:
    """TestInvalidClusterExtensionCatalogMatchLabelsName."""
    result = resolve_extension(
        foo_extension(selector={"matchLabels": {"": "value"}}),
        [labelled_catalog("a")],
        {"a": gen_package()},
    )
    assert result.error is not None
    assert result.error.startswith("desired catalog selector is invalid: key: Invalid value:")
    assert result.error == (
        'desired catalog selector is invalid: key: Invalid value: "": name part must be '
        "non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
    )


def test_r_v1_8_invalid_catalog_match_labels_value() -> None:
    """TestInvalidClusterExtensionCatalogMatchLabelsValue."""
    result = resolve_extension(
        foo_extension(selector={"matchLabels": {"name": "&value"}}),
        [labelled_catalog("a")],
        {"a": gen_package()},
    )
    assert result.error is not None
    assert result.error.startswith(
        "desired catalog selector is invalid: values[0][name]: Invalid value:"
    )


def test_r_v1_9_cluster_extension_match_label() -> None:
    """TestClusterExtensionMatchLabel: the selector picks catalog b of two equal ones."""
    selector = {"matchLabels": {"olm.operatorframework.io/metadata.name": "b"}}
    result = resolve_extension(
        foo_extension(selector=selector),
        [labelled_catalog("a"), labelled_catalog("b")],
        {"a": gen_package(), "b": gen_package()},
    )
    assert picked(result) == ("foo.v3.0.0", "3.0.0", "b")


def test_r_v1_9_cluster_extension_no_match_label() -> None:
    """TestClusterExtensionNoMatchLabel."""
    selector = {"matchLabels": {"olm.operatorframework.io/metadata.name": "a"}}
    result = resolve_extension(
        foo_extension(selector=selector),
        [labelled_catalog("a"), labelled_catalog("b")],
        {"a": EMPTY, "b": gen_package()},
    )
    assert result.error == 'no bundles found for package "foo"'


def test_r_v1_9_the_name_label_is_implicit() -> None:
    """R-V1-9: a snapshot ClusterCatalog without the name label still matches it."""
    selector = {"matchLabels": {"olm.operatorframework.io/metadata.name": "b"}}
    b = labelled_catalog("b")
    del b["metadata"]["labels"]
    result = resolve_extension(foo_extension(selector=selector), [b], {"b": gen_package()})
    assert picked(result) == ("foo.v3.0.0", "3.0.0", "b")


def test_r_v1_17_unequal_priority() -> None:
    """TestUnequalPriority: the higher priority wins over the higher version."""
    content = {n: load_catalog(str(CASES / "unequal-priority" / f"{n}.json")) for n in "ab"}
    catalogs = [labelled_catalog("a", priority=1), labelled_catalog("b", priority=0)]
    assert picked(resolve_extension(foo_extension(), catalogs, content)) == (
        "foo.v1.0.0",
        "1.0.0",
        "a",
    )


def test_r_v1_18_multiple_priority() -> None:
    """TestMultiplePriority: a tie on the top priority names every catalog left, b too."""
    catalogs = [
        labelled_catalog("a", priority=1),
        labelled_catalog("b", priority=0),
        labelled_catalog("c", priority=1),
    ]
    content = {n: gen_package() for n in "abc"}
    result = resolve_extension(foo_extension(version=">=1.0.0 <=1.0.1"), catalogs, content)
    assert result.error == (
        'found bundles for package "foo" matching version ">=1.0.0 <=1.0.1" in multiple '
        "catalogs with the same priority [a b c]"
    )


def test_r_v1_13_multiple_channels() -> None:
    """TestMultipleChannels: channel order in the spec does not matter."""
    assert picked(resolve_abc(channels=("beta", "alpha"))) == ("foo.v2.0.0", "2.0.0", "c")


def test_r_v1_9_all_catalogs_disabled() -> None:
    """TestAllCatalogsDisabled: Unavailable catalogs do not exist (their content unread)."""
    catalogs = [labelled_catalog(n, unavailable=True) for n in ("x", "y")]
    result = resolve_extension(foo_extension(version=">=1.0.0"), catalogs, {})
    assert result.error == 'no bundles found for package "foo" matching version ">=1.0.0"'


def test_r_v1_9_some_catalogs_disabled() -> None:
    """TestSomeCatalogsDisabled."""
    catalogs = [
        labelled_catalog("enabledCatalog", priority=1),
        labelled_catalog("disabledCatalog", unavailable=True),
    ]
    content = {"enabledCatalog": gen_package(), "disabledCatalog": gen_package()}
    result = resolve_extension(foo_extension(version=">=1.0.0"), catalogs, content)
    assert picked(result) == ("foo.v3.0.0", "3.0.0", "enabledCatalog")


# --- filter/successors_test.go: TestSuccessorsPredicate ---------------------------------------


def successors_catalog() -> Catalog:
    """TestSuccessorsPredicate's channel ``stable`` and bundles (package test-package)."""
    pkg = "test-package"
    entries = (
        ChannelEntry(f"{pkg}.v2.0.0"),
        ChannelEntry(f"{pkg}.v2.1.0", replaces=f"{pkg}.v2.0.0"),
        ChannelEntry(f"{pkg}.v2.2.0", replaces=f"{pkg}.v2.1.0", skips=(f"{pkg}.v2.0.0+1",)),
        ChannelEntry(f"{pkg}.v2.2.1"),
        ChannelEntry(f"{pkg}.v2.3.0", replaces=f"{pkg}.v2.2.0", skips=(f"{pkg}.v2.2.1",)),
        ChannelEntry(f"{pkg}.v2.4.0", skip_range=">=2.3.0 <2.4.0"),
    )
    versions = ("2.0.0", "2.0.0+1", "2.1.0", "2.2.0", "2.2.1", "2.3.0", "2.4.0")
    bundles = {
        f"{pkg}.v{v}": Bundle(
            f"{pkg}.v{v}",
            pkg,
            v,
            properties=(("olm.package", json.dumps({"packageName": pkg, "version": v})),),
        )
        for v in versions
    }
    package = Package(pkg, "stable", {"stable": Channel(pkg, "stable", entries)}, bundles)
    return Catalog(None, "successors", packages={pkg: package})


@pytest.mark.parametrize(
    ("installed", "expected"),
    [
        # replaces: 2.1.0 (and 2.0.0 itself may stay)
        ("2.0.0", ("test-package.v2.1.0", "replaces test-package.v2.0.0 in channel stable")),
        # replaces + skips: 2.3.0
        ("2.2.1", ("test-package.v2.3.0", "skips test-package.v2.2.1 in channel stable")),
        # skipRange: 2.4.0
        ("2.3.0", ("test-package.v2.4.0", "skipRange '>=2.3.0 <2.4.0' in channel stable")),
        # "installed bundle matcher is exact": 2.0.0+1 is skipped by 2.2.0, not replaced by 2.1.0
        ("2.0.0+1", ("test-package.v2.2.0", "skips test-package.v2.0.0+1 in channel stable")),
        # the head: nothing newer, the installed bundle stays
        ("2.4.0", ("test-package.v2.4.0", "installed")),
    ],
)
def test_r_v1_15_successors(installed: str, expected: tuple[str, str]) -> None:
    """TestSuccessorsPredicate: direct successors by replaces/skips/skipRange of the installed
    name or version, or the installed version itself; the highest wins."""
    ext = foo_extension(package="test-package", installed=f"test-package.v{installed}")
    result = resolve_extension(ext, [labelled_catalog("c")], {"c": successors_catalog()})
    assert (result.bundle, result.via) == expected


def test_r_v1_15_installed_bundle_not_found() -> None:
    """TestSuccessorsPredicate "installed bundle not found": no edge names 9.0.0."""
    ext = foo_extension(package="test-package", installed="test-package.v9.0.0")
    result = resolve_extension(ext, [labelled_catalog("c")], {"c": successors_catalog()})
    assert result.error == (
        'error upgrading from currently installed version "9.0.0": no bundles found for '
        'package "test-package"'
    )


def test_r_v1_15_unparsable_installed_version_fails_the_walk() -> None:
    ext = foo_extension(package="test-package", installed="test-package.vlatest")
    result = resolve_extension(ext, [labelled_catalog("c")], {"c": successors_catalog()})
    assert result.error == (
        "error walking catalogs: error finding upgrade edges: failed to get version and release "
        "of installed bundle: No Major.Minor.Patch elements found"
    )


def test_r_v1_11_by_version_and_release() -> None:
    """compare_test.go TestByVersionAndRelease: 1.0.0 > 1.0.0-alpha+2 > 1.0.0-alpha+1 > 0.0.1 >
    bundles without a (valid) version."""
    versions = ("0.0.1", "1.0.0-alpha+1", None, "1.0.0", "1.0.0-alpha+2")
    bundles = {}
    for i, v in enumerate(versions):
        value = {"packageName": PKG} if v is None else {"packageName": PKG, "version": v}
        name = f"b{i}"
        bundles[name] = Bundle(name, PKG, v, properties=(("olm.package", json.dumps(value)),))
    content = Catalog(None, "x", packages={PKG: Package(PKG, None, {}, dict(bundles))})
    order = []
    while content.packages[PKG].bundles:
        result = resolve_extension(foo_extension(), [labelled_catalog("c")], {"c": content})
        if result.bundle is None:
            order.append(result.error)
            break
        order.append(result.version)
        del content.packages[PKG].bundles[result.bundle]
    assert order == [
        "1.0.0",
        "1.0.0-alpha+2",
        "1.0.0-alpha+1",
        "0.0.1",
        'error getting resolved bundle version for bundle "b2": Version string empty',
    ]


# --- olmtui's offline choices (R-V1-9, R-V1-22) ----------------------------------------------


def test_r_v1_9_a_catalog_without_content_makes_the_result_unknown() -> None:
    catalogs, content = abc()
    del content["a"]
    result = resolve_extension(foo_extension(), catalogs, content)
    assert result.bundle is None and result.error is None
    assert result.unknown is not None and "ClusterCatalog a" in result.unknown


def test_r_v1_9_a_known_failure_wins_over_an_unread_catalog() -> None:
    """Catalog b is not served: that fails the walk whatever a (unread) holds."""
    catalogs = [labelled_catalog("a"), labelled_catalog("b", serving=False)]
    result = resolve_extension(foo_extension(), catalogs, {"b": gen_package()})
    assert result.error is not None and result.error.endswith('catalog "b" is not being served')


def test_r_v1_9_no_status_with_content_counts_as_serving() -> None:
    result = resolve_extension(
        foo_extension(), [labelled_catalog("c", serving=None)], {"c": gen_package()}
    )
    assert picked(result) == ("foo.v3.0.0", "3.0.0", "c")


def test_r_v1_22_content_by_catalog_binds_by_name_else_unbound() -> None:
    bound = Catalog("c", "bound.json")
    v0 = Catalog("olm/c", "v0.json")
    anywhere = Catalog(None, "all.json")
    catalogs = [labelled_catalog("c"), labelled_catalog("d")]
    assert content_by_catalog([v0, bound, anywhere], catalogs) == {"c": bound, "d": anywhere}
    assert content_by_catalog([v0, bound], catalogs) == {"c": bound}


def test_no_clustercatalog_read_is_unknown_not_no_bundles() -> None:
    """R-V1-9 (olmtui): a snapshot without ClusterCatalogs may simply not hold them; the input
    checks still speak, since they need no catalog."""
    assert resolve_extension(foo_extension(), [], {}) == V1Resolution(
        unknown="no ClusterCatalog among the objects read"
    )
    broken = resolve_extension(foo_extension(version="foobar"), [], {})
    assert broken.error == (
        'desired version range "foobar" is invalid: improper constraint: "foobar"'
    )
