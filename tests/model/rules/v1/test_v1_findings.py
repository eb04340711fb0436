"""OLM v1 findings (R-V1-2, R-V1-4, R-V1-5, R-V1-7, R-V1-9, R-V1-20): what the conditions
show, quoted, with the remedy their text calls for; the quirk (Progressing=True/Succeeded)
never reported; and the findings drawn from a resolution (a stand-in resolver until the real
one lands)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from v1_objects import catalog, condition, extension, not_deprecated

from olmtui.model.incremental.health import health_findings
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.v1 import resolve as v1_resolve
from olmtui.model.rules.v1.extensions import decode_extension
from olmtui.model.rules.v1.findings import catalog_findings, condition_findings, v1_findings
from olmtui.model.rules.v1.resolve import V1Resolution
from olmtui.store import Store

NO_BUNDLES = 'no bundles found for package "argocd-operator" matching version "9.9.9"'
NOT_SERVED = (
    'error walking catalogs: error getting package "argocd-operator" from catalog '
    '"operatorhubio": catalog "operatorhubio" is not being served'
)


def codes(found: Sequence[Finding]) -> set[str]:
    return {f.code for f in found}


def observed(
    extensions: Sequence[dict[str, Any]], catalogs: Sequence[dict[str, Any]], content: Any
) -> list[Finding]:
    """The findings from what the objects show (conditions, spec), not from a resolution:
    what these tests are about, whatever the resolver answers."""
    found = [f for c in catalogs for f in catalog_findings(c, extensions)]
    return found + [f for e in extensions for f in condition_findings(decode_extension(e))]


def test_healthy_extension_with_progressing_succeeded_has_no_finding() -> None:
    # R-V1-5: Progressing=True/Succeeded after the install is the steady state.
    assert observed([extension()], [catalog()], []) == []
    assert not [f for f in v1_findings([extension()], [catalog()], []) if f.severity != "info"]


def test_a_cluster_without_olm_v1_has_no_v1_finding() -> None:
    assert v1_findings([], [], []) == []
    assert health_findings(Store()) == []


def test_r_v1_5_resolution_error_without_install_is_an_error_quoting_it() -> None:
    conditions = [
        *not_deprecated(),
        condition("Installed", "False", "Failed", "No bundle installed"),
        condition("Progressing", "True", "Retrying", NO_BUNDLES),
    ]
    (found,) = observed([extension(installed=None, conditions=conditions)], [catalog()], [])
    assert (found.severity, found.code, found.kind, found.name) == (
        "error",
        "ClusterExtensionRetrying",
        "ClusterExtension",
        "argocd",
    )
    assert NO_BUNDLES in found.message
    assert "nothing is installed" in found.message
    assert "packageName, version and channels" in found.message
    assert found.rule == "R-V1-5"


def test_r_v1_5_retrying_with_a_bundle_installed_is_a_warning() -> None:
    message = f"failed to resolve bundle, retrying: {NOT_SERVED}"
    conditions = [
        *not_deprecated(),
        condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
        condition("Progressing", "True", "Retrying", message),
    ]
    (found,) = observed([extension(conditions=conditions)], [], [])
    assert found.severity == "warning"
    assert "argocd-operator.v0.6.0 keeps running" in found.message
    assert "Serving condition" in found.message


@pytest.mark.parametrize(
    ("message", "remedy"),
    [
        (
            'found bundles for package "foo" in multiple catalogs with the same priority [a b]',
            "higher spec.priority",
        ),
        ('desired version range "foobar" is invalid: improper constraint: "foobar"', "fix spec"),
        (
            'validating bundle "x.v1": bundle "x.v1" has a dependency declared via property '
            '"olm.package.required" which is currently not supported',
            "cannot install a bundle with dependencies",
        ),
        (
            'error upgrading from currently installed version "0.1.0": no bundles found for '
            'package "foo"',
            "no successor of the installed bundle",
        ),
    ],
)
def test_r_v1_5_remedy_fits_the_error(message: str, remedy: str) -> None:
    conditions = [condition("Progressing", "True", "Retrying", message)]
    (found,) = observed([extension(installed=None, conditions=conditions)], [], [])
    assert remedy in found.message


def test_r_v1_4_progressing_false_is_blocked() -> None:
    conditions = [condition("Progressing", "False", "Blocked", "terminal: bundle is invalid")]
    (found,) = observed([extension(installed=None, conditions=conditions)], [], [])
    assert (found.severity, found.code) == ("error", "ClusterExtensionBlocked")
    assert "'terminal: bundle is invalid'" in found.message


def test_r_v1_4_deprecations_are_warnings_quoting_the_catalog() -> None:
    conditions = [
        condition("Deprecated", "True", "Deprecated", "argocd-operator.v0.6.0 is deprecated"),
        condition("PackageDeprecated", "False", "NotDeprecated", "package not deprecated"),
        condition("ChannelDeprecated", "False", "NotDeprecated", "channel not deprecated"),
        condition("BundleDeprecated", "True", "Deprecated", "argocd-operator.v0.6.0 is deprecated"),
        condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
        condition("Progressing", "True", "Succeeded", "Desired state reached"),
    ]
    (found,) = observed([extension(conditions=conditions)], [catalog()], [])
    assert (found.severity, found.code, found.rule) == (
        "warning",
        "ClusterExtensionBundleDeprecated",
        "R-V1-4",
    )
    assert "argocd-operator.v0.6.0 is deprecated" in found.message


def test_r_v1_2_service_account_is_info_deprecated_and_ignored() -> None:
    (found,) = observed([extension(service_account="argocd-installer")], [catalog()], [])
    assert (found.severity, found.code) == ("info", "ClusterExtensionServiceAccountIgnored")
    assert "ignores it" in found.message and "argocd-installer" in found.message


def test_r_v1_9_catalog_not_serving_names_the_extensions_it_fails() -> None:
    down = catalog(serving=("False", "Unavailable", "no content yet"))
    other = extension("other", selector={"matchLabels": {NAME: "elsewhere"}})
    found = observed([extension(), other], [down], [])
    (not_serving,) = [f for f in found if f.code == "ClusterCatalogNotServing"]
    assert (not_serving.kind, not_serving.name, not_serving.severity) == (
        "ClusterCatalog",
        "operatorhubio",
        "warning",
    )
    assert "ClusterExtension argocd fails" in not_serving.message
    assert not_serving.related == (ObjectRef("ClusterExtension", "", "argocd"),)


def test_r_v1_9_not_serving_names_the_extensions_the_resolver_would_fail() -> None:
    """The extensions named are those the resolver's own selector takes: a matchLabels value
    written as a number (a snapshot's YAML) is read as its text, as by the resolver."""
    down = catalog(serving=("False", "Unavailable", "no content yet"), labels={"tier": "1"})
    numeric = extension(selector={"matchLabels": {"tier": 1}})
    (not_serving,) = [f for f in observed([numeric], [down], []) if f.code.endswith("Serving")]
    assert not_serving.related == (ObjectRef("ClusterExtension", "", "argocd"),)
    resolution = v1_resolve.resolve_extension(numeric, [down], {})
    assert resolution.error is not None and resolution.error.endswith("is not being served")


NAME = "olm.operatorframework.io/metadata.name"


def test_r_v1_9_a_catalog_set_unavailable_by_its_owner_is_no_finding() -> None:
    off = catalog(
        mode="Unavailable",
        serving=(
            "False",
            "UserSpecifiedUnavailable",
            "Catalog availability mode is set to Unavailable",
        ),
        progressing=("True", "Succeeded", "Catalog availability mode is set to Unavailable"),
    )
    assert observed([extension()], [off], []) == []


def test_r_v1_7_catalogd_retrying_is_quoted() -> None:
    retrying = catalog(progressing=("True", "Retrying", "source catalog content: pull failed"))
    (found,) = observed([], [retrying], [])
    assert (found.code, found.severity) == ("ClusterCatalogRetrying", "warning")
    assert "pull failed" in found.message and "previous content" in found.message


# -- R-V1-20: findings from a resolution (stand-in for resolve_extension) -------------------


def with_resolution(monkeypatch: pytest.MonkeyPatch, resolution: V1Resolution) -> None:
    def stand_in(
        ext: dict[str, Any], catalogs: Sequence[dict[str, Any]], content: Mapping[str, Catalog]
    ) -> V1Resolution:
        return resolution

    monkeypatch.setattr(v1_resolve, "resolve_extension", stand_in)


def test_r_v1_20_at_latest_allowed_is_info(monkeypatch: pytest.MonkeyPatch) -> None:
    with_resolution(monkeypatch, V1Resolution("argocd-operator.v0.6.0", "0.6.0", "operatorhubio"))
    (found,) = v1_findings([extension()], [catalog()], [])
    assert (found.severity, found.code) == ("info", "ClusterExtensionAtLatest")


def test_r_v1_20_upgrade_available_names_both_and_the_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_resolution(monkeypatch, V1Resolution("argocd-operator.v0.7.0", "0.7.0", "operatorhubio"))
    (found,) = v1_findings([extension()], [catalog()], [])
    assert (found.severity, found.code) == ("info", "ClusterExtensionUpgradeAvailable")
    assert "argocd-operator.v0.6.0 (0.6.0) to argocd-operator.v0.7.0 (0.7.0)" in found.message
    assert "replaces/skips/skipRange" in found.message
    (found,) = v1_findings([extension(policy="SelfCertified")], [catalog()], [])
    assert "SelfCertified" in found.message


def test_r_v1_20_deprecated_pick_warns_with_the_message(monkeypatch: pytest.MonkeyPatch) -> None:
    with_resolution(
        monkeypatch,
        V1Resolution(
            "argocd-operator.v0.7.0",
            "0.7.0",
            "operatorhubio",
            deprecations=("channel alpha is no longer maintained",),
        ),
    )
    found = {f.code: f for f in v1_findings([extension()], [catalog()], [])}
    pick = found["ClusterExtensionDeprecatedPick"]
    assert pick.severity == "warning"
    assert "channel alpha is no longer maintained" in pick.message


def test_r_v1_9_unknown_resolution_names_the_catalog_without_content(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_resolution(monkeypatch, V1Resolution(unknown="operatorhubio"))
    (found,) = v1_findings([extension()], [catalog(), catalog("off", mode="Unavailable")], [])
    assert (found.severity, found.code) == ("info", "ClusterExtensionResolutionUnknown")
    assert "ClusterCatalog operatorhubio" in found.message
    assert found.related == (ObjectRef("ClusterCatalog", "", "operatorhubio"),)


def test_r_v1_18_error_already_in_progressing_is_not_repeated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_resolution(monkeypatch, V1Resolution(error=NO_BUNDLES))
    conditions = [condition("Progressing", "True", "Retrying", NO_BUNDLES)]
    found = v1_findings([extension(installed=None, conditions=conditions)], [catalog()], [])
    assert codes(found) == {"ClusterExtensionRetrying"}
    (would,) = v1_findings([extension()], [catalog()], [])
    assert (would.code, would.severity) == ("ClusterExtensionWouldNotResolve", "warning")
    assert NO_BUNDLES in would.message


def test_r_v1_18_an_error_read_from_no_content_does_not_claim_content() -> None:
    """A catalog not serving fails the resolution with no content given at all: the finding
    says what it rests on, not "the catalog content given"."""
    down = catalog(serving=("False", "Unavailable", "no content yet"))
    found = {f.code: f for f in v1_findings([extension()], [down], [])}
    would = found["ClusterExtensionWouldNotResolve"]
    assert would.message.startswith("as the objects read stand, operator-controller would fail")
    assert "content given" not in would.message
    assert "ClusterCatalogNotServing" in found


def test_r_v1_18_an_error_from_content_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    with_resolution(monkeypatch, V1Resolution(error=NO_BUNDLES))
    (would,) = v1_findings([extension()], [catalog()], [])
    assert would.message.startswith("with the catalog content given, operator-controller")


def test_health_findings_read_v1_from_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    with_resolution(monkeypatch, V1Resolution(error=NO_BUNDLES))
    store = Store()
    store.apply_many([extension(service_account="sa"), catalog()])
    assert codes(health_findings(store)) == {
        "ClusterExtensionServiceAccountIgnored",
        "ClusterExtensionWouldNotResolve",
    }
