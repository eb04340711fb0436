"""PackageManifests as catalogs (R-UPG-9): one Catalog per CatalogSource, heads and the
head's skipRange known, no edges. Data: the OpenShift console's PackageManifest fixtures
(tests/data/cluster, tests/data/SOURCES.md) plus small hand-made objects for what they lack."""

from __future__ import annotations

import pytest
import yaml
from data_paths import DATA
from model_builders import package_manifest

from olmtui.model.records.catalog import Catalog, ChannelEntry
from olmtui.sources.catalog.catalogs import catalog_from_packagemanifests

MOCKS = (
    DATA
    / "cluster/openshift-console/frontend/packages/operator-lifecycle-manager"
    / "mocks.packagemanifests.yaml"
)


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    objs = list(yaml.safe_load_all(MOCKS.read_text()))
    return {c.ref: c for c in catalog_from_packagemanifests(objs)}


def test_one_catalog_per_catalog_source_label_pair(catalogs: dict[str, Catalog]) -> None:
    assert sorted(catalogs) == [
        "openshift-operator-lifecycle-manager/dummy-operators",
        "openshift-operator-lifecycle-manager/rh-operators",
        "tectonic-system/test-catalog",  # no labels: taken from status.catalogSource*
    ]
    assert sorted(catalogs["openshift-operator-lifecycle-manager/rh-operators"].packages) == [
        "amq-streams",
        "etcd",
        "federationv2",
        "prometheus",
    ]
    assert all(c.graph == "packagemanifest" for c in catalogs.values())


def test_channel_reports_head_and_entries_without_edges(catalogs: dict[str, Catalog]) -> None:
    package = catalogs["openshift-operator-lifecycle-manager/rh-operators"].packages["amq-streams"]
    channel = package.channels["preview"]
    assert channel.reported_head == "amqstreams.v1.0.0.beta"
    assert channel.entries == (
        ChannelEntry("amqstreams.v1.0.0.beta"),
        ChannelEntry("version TestOwnedResource"),
    )
    assert package.bundles["amqstreams.v1.0.0.beta"].version == "1.0.0-Beta"


def test_deprecations_at_package_channel_and_entry(catalogs: dict[str, Catalog]) -> None:
    package = catalogs["openshift-operator-lifecycle-manager/rh-operators"].packages["amq-streams"]
    assert package.deprecation == "This package is deprecated"
    assert package.channels["preview"].deprecation == "This channel is deprecated"
    assert package.bundles["version TestOwnedResource"].deprecation == ("The version is deprecated")


def test_get_default_channel_empty_default_with_one_channel_is_that_channel(
    catalogs: dict[str, Catalog],
) -> None:
    dummy = catalogs["openshift-operator-lifecycle-manager/dummy-operators"].packages["dummy"]
    assert dummy.default_channel == "alpha"


def manifest(channels: list[dict], default: str | None = None) -> dict:
    return package_manifest(
        "cs", "olm", "p", channels=channels, default=default, source_fields=False
    )


HEAD_DESC = {
    "version": "2.0.0",
    "annotations": {"olm.skipRange": ">=1.0.0 <2.0.0"},
    "installModes": [
        {"type": "OwnNamespace", "supported": True},
        {"type": "AllNamespaces", "supported": False},
    ],
    "customresourcedefinitions": {
        "owned": [{"name": "widgets.example.com", "kind": "Widget", "version": "v1"}],
        "required": [{"name": "gadgets.example.com", "kind": "Gadget", "version": "v1"}],
    },
}


def test_head_skip_range_goes_on_the_head_entry_only() -> None:
    (catalog,) = catalog_from_packagemanifests(
        [
            manifest(
                [
                    {
                        "name": "stable",
                        "currentCSV": "p.v2.0.0",
                        "currentCSVDesc": HEAD_DESC,
                        "entries": [
                            {"name": "p.v2.0.0", "version": "2.0.0"},
                            {"name": "p.v1.0.0", "version": "1.0.0"},
                        ],
                    }
                ]
            )
        ]
    )
    package = catalog.packages["p"]
    assert package.channels["stable"].entries == (
        ChannelEntry("p.v2.0.0", skip_range=">=1.0.0 <2.0.0"),
        ChannelEntry("p.v1.0.0"),
    )
    head = package.bundles["p.v2.0.0"]
    assert head.provided_apis == ("Widget.v1.example.com",)
    assert head.required_apis == ("Gadget.v1.example.com",)
    assert head.install_modes == ("OwnNamespace",)
    assert package.bundles["p.v1.0.0"].version == "1.0.0"


def test_get_default_channel_none_when_several_channels_and_no_default() -> None:
    (catalog,) = catalog_from_packagemanifests(
        [manifest([{"name": "a", "currentCSV": "p.v1"}, {"name": "b", "currentCSV": "p.v2"}])]
    )
    assert catalog.packages["p"].default_channel is None


def test_explicit_default_channel_wins() -> None:
    (catalog,) = catalog_from_packagemanifests(
        [manifest([{"name": "a", "currentCSV": "p.v1"}, {"name": "b", "currentCSV": "p.v2"}], "b")]
    )
    assert catalog.packages["p"].default_channel == "b"


def test_catalog_ref_filter_and_other_kinds_ignored() -> None:
    objs = [manifest([{"name": "a", "currentCSV": "p.v1"}]), {"kind": "ConfigMap"}]
    assert [c.ref for c in catalog_from_packagemanifests(objs, "olm/cs")] == ["olm/cs"]
    assert catalog_from_packagemanifests(objs, "olm/other") == []
