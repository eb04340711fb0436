"""OLM v1 records (R-V1-2..R-V1-7): a ClusterExtension and a ClusterCatalog decoded as
operator-controller and catalogd write them, and the dashboard state of R-V1-5, quirk
included: Progressing=True/Succeeded is settled, not stuck."""

from __future__ import annotations

import pytest
from v1_objects import BUNDLE_IMAGE, CATALOG_DIGEST, catalog, condition, extension

from olmtui.model.rules.v1.catalogs import NAME_LABEL, decode_catalog
from olmtui.model.rules.v1.extensions import Condition, InstalledBundle, decode_extension


def test_r_v1_2_spec_defaults_when_unset() -> None:
    ext = decode_extension(extension())
    assert ext.name == "argocd"
    assert ext.namespace == "argocd"
    assert ext.package == "argocd-operator"
    assert ext.service_account is None
    assert ext.version_range is None
    assert ext.channels == ()
    assert ext.upgrade_constraint_policy == "CatalogProvided"
    assert ext.selector is None
    assert ext.watch_namespace is None


def test_r_v1_2_spec_as_given() -> None:
    obj = extension(
        version=">=0.6.0, <1.0.0",
        channels=["alpha", "stable"],
        policy="SelfCertified",
        selector={"matchLabels": {"example.com/support": "true"}},
        service_account="argocd-installer",
    )
    obj["spec"]["config"] = {"configType": "Inline", "inline": {"watchNamespace": "team-a"}}
    ext = decode_extension(obj)
    assert ext.version_range == ">=0.6.0, <1.0.0"
    assert ext.channels == ("alpha", "stable")
    assert ext.upgrade_constraint_policy == "SelfCertified"
    assert ext.selector == {"matchLabels": {"example.com/support": "true"}}
    assert ext.service_account == "argocd-installer"
    assert ext.watch_namespace == "team-a"


def test_r_v1_2_empty_version_is_no_range() -> None:
    assert decode_extension(extension(version="")).version_range is None


def test_r_v1_3_installed_bundle_and_conditions_as_observed() -> None:
    ext = decode_extension(extension())
    assert ext.installed == InstalledBundle("argocd-operator.v0.6.0", "0.6.0")
    assert ext.conditions["Installed"] == Condition(
        "Installed", "True", "Succeeded", f"Installed bundle {BUNDLE_IMAGE} successfully"
    )
    assert set(ext.conditions) == {
        "Installed",
        "Progressing",
        "Deprecated",
        "PackageDeprecated",
        "ChannelDeprecated",
        "BundleDeprecated",
    }


def test_r_v1_3_no_install_status_is_nothing_installed() -> None:
    assert decode_extension(extension(installed=None)).installed is None


def test_r_v1_5_progressing_succeeded_is_settled_not_stuck() -> None:
    state = decode_extension(extension()).state
    assert (state.label, state.settled) == ("Installed", True)


@pytest.mark.parametrize(
    ("conditions", "installed", "label", "settled"),
    [
        (
            [
                condition("Installed", "False", "Failed", "No bundle installed"),
                condition("Progressing", "True", "Retrying", 'no bundles found for package "x"'),
            ],
            None,
            "Retrying",
            False,
        ),
        (
            [
                condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
                condition("Progressing", "True", "Retrying", "error walking catalogs: ..."),
            ],
            ("x.v1.0.0", "1.0.0"),
            "Installed, retrying",
            False,
        ),
        (
            [condition("Progressing", "False", "InvalidConfiguration", "bad config")],
            None,
            "InvalidConfiguration",
            False,
        ),
        (
            [
                condition("Installed", "False", "Absent", "No bundle installed"),
                condition("Progressing", "True", "Succeeded", "Desired state reached"),
            ],
            None,
            "Installing",
            False,
        ),
        ([], None, "Unknown", False),
        (
            [condition("Installed", "Unknown", "Failed", "could not get revisions")],
            None,
            "Unknown",
            False,
        ),
    ],
)
def test_r_v1_5_state_summary(conditions, installed, label, settled) -> None:
    state = decode_extension(extension(conditions=conditions, installed=installed)).state
    assert (state.label, state.settled) == (label, settled)


def test_r_v1_6_catalog_record() -> None:
    cat = decode_catalog(catalog())
    assert cat.name == "operatorhubio"
    assert cat.priority == 0
    assert cat.availability_mode == "Available"
    assert cat.serving is True
    assert cat.ref == "quay.io/operatorhubio/catalog:latest"
    assert cat.resolved_ref == CATALOG_DIGEST
    assert cat.last_unpacked == "2024-11-13T15:11:18Z"
    assert cat.base_url == "https://catalogd-service.olmv1-system.svc/catalogs/operatorhubio"


def test_r_v1_6_defaults_and_the_implicit_name_label() -> None:
    obj = catalog("mine", priority=None, unpacked=False)
    del obj["metadata"]["labels"]
    del obj["spec"]["availabilityMode"]
    cat = decode_catalog(obj)
    assert cat.priority == 0
    assert cat.availability_mode == "Available"
    assert cat.labels == {NAME_LABEL: "mine"}
    assert (cat.resolved_ref, cat.last_unpacked, cat.base_url) == (None, None, None)


@pytest.mark.parametrize(
    ("serving", "expected"),
    [
        (("True", "Available", "Serving desired content from resolved source"), True),
        (("False", "Unavailable", "content not available"), False),
        (("Unknown", "Unavailable", ""), False),
        (None, None),
    ],
)
def test_r_v1_7_serving(serving, expected) -> None:
    assert decode_catalog(catalog(serving=serving)).serving is expected
