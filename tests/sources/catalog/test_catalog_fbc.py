"""File-based catalogs (FBC): YAML and JSON streams, bundle properties, olm.bundle.object,
olm.deprecations, bad documents. Real data from tests/data/catalogs (see SOURCES.md)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.model.records.catalog import Catalog, ChannelEntry
from olmtui.sources.catalog.catalogs import load_catalog

CATALOGS = DATA / "catalogs"
DESCHEDULER = CATALOGS / "cluster-kube-descheduler-operator"
PROD_FBC = CATALOGS / "community-operators-prod" / "catalogs" / "v4.20"
OLM_FIXTURES = CATALOGS / "operator-lifecycle-manager/test/e2e/testdata/subscription"


@pytest.fixture(scope="module")
def descheduler_416() -> Catalog:
    return load_catalog(str(DESCHEDULER / "v4.16"))


def test_fbc_json_stream_of_concatenated_objects(descheduler_416: Catalog) -> None:
    package = descheduler_416.packages["cluster-kube-descheduler-operator"]
    assert package.default_channel == "stable"
    assert {name: len(ch.entries) for name, ch in package.channels.items()} == {
        "4.13": 1,
        "stable": 31,
    }
    assert len(package.bundles) == 32
    assert descheduler_416.findings == []


def test_fbc_every_stable_entry_has_a_skip_range(descheduler_416: Catalog) -> None:
    stable = descheduler_416.packages["cluster-kube-descheduler-operator"].channels["stable"]
    head = stable.entries[0]
    assert head == ChannelEntry(
        "clusterkubedescheduleroperator.4.14.0-202310201027",
        skip_range=">=4.11.0 <4.14.0-202310201027",
    )
    assert all(e.skip_range for e in stable.entries)


def test_fbc_skips_naming_bundles_absent_from_the_catalog_are_kept(
    descheduler_416: Catalog,
) -> None:
    package = descheduler_416.packages["cluster-kube-descheduler-operator"]
    (entry,) = package.channels["4.13"].entries
    assert len(entry.skips) == 19
    assert not set(entry.skips) & set(package.bundles)


def test_fbc_bundle_object_gives_install_modes_and_crds(descheduler_416: Catalog) -> None:
    bundle = descheduler_416.packages["cluster-kube-descheduler-operator"].bundles[
        "clusterkubedescheduleroperator.4.13.0-202309181427"
    ]
    assert bundle.version == "4.13.0-202309181427"
    assert bundle.provided_apis == ("KubeDescheduler.v1.operator.openshift.io",)
    assert bundle.install_modes == ("OwnNamespace", "SingleNamespace")
    assert bundle.crds == (("kubedeschedulers.operator.openshift.io", ("v1",), "v1"),)
    assert bundle.crd_versions == (("kubedeschedulers.operator.openshift.io", ("v1",)),)
    assert bundle.has_conversion_webhook is False


def test_fbc_csv_metadata_gives_install_modes_without_bundle_objects() -> None:
    catalog = load_catalog(str(DESCHEDULER / "v4.20"))
    bundles = catalog.packages["cluster-kube-descheduler-operator"].bundles.values()
    assert all(b.install_modes for b in bundles)
    assert all(b.crds == () for b in bundles)  # v4.20 carries no olm.bundle.object


@pytest.fixture(scope="module")
def prod_fbc() -> Catalog:
    return load_catalog(str(PROD_FBC))


def test_fbc_opendatahub_entries_carry_replaces_skips_and_skip_range_together(
    prod_fbc: Catalog,
) -> None:
    package = prod_fbc.packages["opendatahub-operator"]
    assert package.default_channel == "fast-3"
    assert sorted(package.channels) == ["fast", "fast-3", "odh-2.8.z", "rolling", "stable"]
    assert len(package.bundles) == 56
    entry = next(
        e for e in package.channels["fast"].entries if e.name == "opendatahub-operator.v2.11.0"
    )
    assert entry == ChannelEntry(
        "opendatahub-operator.v2.11.0",
        replaces="opendatahub-operator.v2.10.0",
        skips=("opendatahub-operator.v2.9.0",),
        skip_range=">=1.0.0 <2.11.0",
    )


def test_fbc_infinispan_channels_and_default(prod_fbc: Catalog) -> None:
    package = prod_fbc.packages["infinispan"]
    assert package.default_channel == "stable"
    assert sorted(package.channels) == ["2.2.x", "2.3.x", "2.4.x", "stable"]
    assert len(package.bundles) == 49


def test_fbc_rabbitmq_required_package_and_gvk(prod_fbc: Catalog) -> None:
    bundles = prod_fbc.packages["rabbitmq-messaging-topology-operator"].bundles
    newest = bundles["rabbitmq-messaging-topology-operator.v1.19.2"]
    assert newest.required_packages == (("rabbitmq-cluster-operator", ">2.0.0"),)
    assert newest.required_apis == ("RabbitmqCluster.v1beta1.rabbitmq.com",)


def test_fbc_deprecations_at_package_channel_and_bundle_scope() -> None:
    catalog = load_catalog(str(OLM_FIXTURES / "example-operator.v0.2.0-deprecations.yaml"))
    package = catalog.packages["test-package"]
    assert package.deprecation == (
        "test-package has been deprecated. Please switch to another-package."
    )
    assert package.channels["stable"].deprecation == (
        'channel "stable" has been deprecated. Please switch to a different one.'
    )
    assert package.bundles["example-operator.v0.2.0"].deprecation == (
        'bundle "example-operator.v0.2.0" has been deprecated. Please switch to a different one.'
    )


def test_fbc_without_deprecations_has_none() -> None:
    catalog = load_catalog(str(OLM_FIXTURES / "example-operator.v0.2.0.yaml"))
    package = catalog.packages["test-package"]
    assert package.deprecation is None
    assert package.channels["stable"].deprecation is None
    assert package.bundles["example-operator.v0.2.0"].deprecation is None


def test_fbc_bundle_version_comes_from_the_olm_package_property() -> None:
    # The fixture's bundle is named v0.2.0 but declares version 1.0.1.
    catalog = load_catalog(str(OLM_FIXTURES / "example-operator.v0.2.0-invalid-csv.yaml"))
    assert catalog.packages["test-package"].bundles["example-operator.v0.2.0"].version == "1.0.1"


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_fbc_legacy_olm_deprecated_property_prohibits_the_bundle(tmp_path: Path) -> None:
    fbc = _write(
        tmp_path / "catalog.yaml",
        """\
schema: olm.package
name: p
---
schema: olm.bundle
name: p.v1.0.0
package: p
properties:
- {type: olm.package, value: {packageName: p, version: 1.0.0}}
- {type: olm.deprecated, value: {}}
""",
    )
    assert load_catalog(str(fbc)).packages["p"].bundles["p.v1.0.0"].prohibited is True


def test_fbc_unreadable_document_is_a_finding_with_file_and_line(tmp_path: Path) -> None:
    fbc = _write(
        tmp_path / "catalog.yaml",
        """\
schema: olm.package
name: p
defaultChannel: stable
---
schema: olm.channel
package: p
name: stable
entries: [ {name: p.v1.0.0
---
schema: olm.channel
package: p
name: beta
entries:
- name: p.v1.0.0
""",
    )
    catalog = load_catalog(str(fbc))
    (finding,) = catalog.findings
    assert (finding.severity, finding.code, finding.name) == (
        "warning",
        "UnreadableCatalogFile",
        str(fbc),
    )
    assert "line 9" in finding.message
    assert list(catalog.packages["p"].channels) == ["beta"]  # the rest still loaded


def test_fbc_broken_file_in_a_directory_does_not_stop_the_others(tmp_path: Path) -> None:
    _write(tmp_path / "a.json", '{"schema": "olm.package", "name": "p"')
    _write(
        tmp_path / "b.json",
        '{"schema": "olm.package", "name": "q"}\n'
        '{"schema": "olm.channel", "package": "q", "name": "c",'
        ' "entries": [{"name": "q.v1"}]}',
    )
    catalog = load_catalog(str(tmp_path))
    assert list(catalog.packages) == ["q"]
    assert [f.name for f in catalog.findings] == [str(tmp_path / "a.json")]


def test_fbc_crd_with_conversion_webhook_in_bundle_object(tmp_path: Path) -> None:
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "conversion": {"strategy": "Webhook"},
            "versions": [
                {"name": "v1", "served": True, "storage": True},
                {"name": "v1beta1", "served": False, "storage": False},
            ],
        },
    }
    doc = {
        "schema": "olm.bundle",
        "name": "w.v1.0.0",
        "package": "w",
        "properties": [
            {"type": "olm.package", "value": {"packageName": "w", "version": "1.0.0"}},
            {
                "type": "olm.bundle.object",
                "value": {"data": base64.b64encode(json.dumps(crd).encode()).decode()},
            },
        ],
    }
    fbc = _write(tmp_path / "catalog.json", json.dumps(doc))
    bundle = load_catalog(str(fbc)).packages["w"].bundles["w.v1.0.0"]
    assert bundle.crds == (("widgets.example.com", ("v1",), "v1"),)
    assert bundle.crd_versions == (("widgets.example.com", ("v1", "v1beta1")),)
    assert bundle.has_conversion_webhook is True


def test_fbc_undecodable_bundle_object_is_a_finding(tmp_path: Path) -> None:
    doc = {
        "schema": "olm.bundle",
        "name": "w.v1.0.0",
        "package": "w",
        "properties": [{"type": "olm.bundle.object", "value": {"data": "not base64 at all!"}}],
    }
    fbc = _write(tmp_path / "catalog.json", json.dumps(doc))
    catalog = load_catalog(str(fbc))
    assert "w.v1.0.0" in catalog.packages["w"].bundles
    assert [f.code for f in catalog.findings] == ["UnreadableCatalogFile"]
