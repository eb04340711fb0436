"""R-CUP-3..R-CUP-5: an installed ClusterExtension's bundle cap, read from catalog content in
the shape real catalogs render it (``olm.maxOpenShiftVersion`` beside ``olm.package``),
judged as cluster-olm-operator judges it (its unit tests' table: 4.23 and 5.0 one release)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA
from model_builders import clusteroperator as co
from model_builders import clusterversion as cv
from v1_objects import catalog, extension

from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.cluster_readiness.extension_caps import (
    BLOCKS,
    INVALID,
    UNKNOWN,
    extension_cap_findings,
    extension_caps,
    read_cap,
    way_out,
)
from olmtui.model.rules.cluster_readiness.olm_condition import installed_operators_upgradeable
from olmtui.model.rules.documented.cluster_upgrade import cluster_version
from olmtui.sources.catalog.catalogs import load_catalog

PACKAGE = "argocd-operator"


def bundle_doc(version: str, caps: list[Any]) -> dict[str, Any]:
    props: list[dict[str, Any]] = [
        {"type": "olm.package", "value": {"packageName": PACKAGE, "version": version}}
    ]
    props += [{"type": "olm.maxOpenShiftVersion", "value": c} for c in caps]
    return {
        "schema": "olm.bundle",
        "name": f"{PACKAGE}.v{version}",
        "package": PACKAGE,
        "image": f"quay.io/argoprojlabs/argocd-operator-bundle:v{version}",
        "properties": props,
    }


def content(tmp_path: Path, bundles: dict[str, list[Any]], ref: str | None = None) -> Catalog:
    docs: list[dict[str, Any]] = [
        {"schema": "olm.package", "name": PACKAGE, "defaultChannel": "alpha"},
        {
            "schema": "olm.channel",
            "package": PACKAGE,
            "name": "alpha",
            "entries": [{"name": f"{PACKAGE}.v{v}"} for v in bundles],
        },
        *(bundle_doc(v, caps) for v, caps in bundles.items()),
    ]
    path = tmp_path / "catalog.json"
    path.write_text("\n".join(json.dumps(d) for d in docs))
    return load_catalog(f"{ref}={path}" if ref else str(path))


def findings(caps: Any, version: str | None, operators: list[Any] = ()) -> list[Any]:  # type: ignore[assignment]
    versions = [cv(("Completed", version))] if version else []
    return extension_cap_findings(
        caps,
        cluster_version(versions),
        installed_operators_upgradeable(operators),
        openshift=True,
    )


# cluster-olm-operator's own table (incompatible_operator_controller_test.go, version_utils).
@pytest.mark.parametrize(
    ("cap", "cluster", "blocks"),
    [
        ("4.18", "4.17.3", False),
        ("4.18", "4.18.0", True),
        ("4.17", "4.18.1", True),
        ("5.0", "4.22.1", False),
        ("5.0", "4.23.0", True),  # 4.23 is 5.0: its next minor is 5.1
        ("4.23", "4.23.0", True),
        ("4.23", "5.0.2", True),
        ("5.1", "4.23.0", False),
        ("5.1", "5.0.0", False),
        (4.18, "4.18.0", True),  # a JSON number, as some catalogs write it
        (4.19, "4.18.0", False),
    ],
)
def test_the_cap_against_the_running_minor(
    tmp_path: Path, cap: Any, cluster: str, blocks: bool
) -> None:
    caps = extension_caps(
        [extension(installed=(f"{PACKAGE}.v0.6.0", "0.6.0"))],
        [catalog()],
        [content(tmp_path, {"0.6.0": [cap]})],
    )
    found = findings(caps, cluster)
    assert [f.code for f in found] == ([BLOCKS] if blocks else [])
    if blocks:
        assert found[0].rule == "R-CUP-3" and found[0].kind == "ClusterExtension"
        assert "5.1" in found[0].message if cluster[:4] in ("4.23", "5.0.") else True


def test_the_way_out_is_named_when_the_catalog_shows_one(tmp_path: Path) -> None:
    cat = content(tmp_path, {"0.6.0": ["4.18"], "0.7.0": ["4.18"], "0.8.0": ["4.19"], "0.9.0": []})
    caps = extension_caps([extension(installed=(f"{PACKAGE}.v0.6.0", "0.6.0"))], [catalog()], [cat])
    [found] = findings(caps, "4.18.4")
    assert f"Upgrade it to {PACKAGE}.v0.8.0 (version 0.8.0), whose cap allows 4.19" in found.message
    assert "or uninstall it" in found.message
    assert way_out(caps[0].content, "0.9.0", (4, 18)) is None


def test_no_way_out_in_the_catalog_is_said(tmp_path: Path) -> None:
    caps = extension_caps(
        [extension(installed=(f"{PACKAGE}.v0.6.0", "0.6.0"))],
        [catalog()],
        [content(tmp_path, {"0.6.0": ["4.18"]})],
    )
    [found] = findings(caps, "4.18.0")
    assert "the catalog content given offers none" in found.message


@pytest.mark.parametrize(
    "values",
    [["4.18", "4.19"], ["v4.18"], ["4.18.0"], ["4"], [4], [True], [{"v": 1}], ["4.18-rc.1"]],
)
def test_a_cap_cluster_olm_operator_cannot_read_holds_the_upgrade(
    tmp_path: Path, values: list[Any]
) -> None:
    caps = extension_caps(
        [extension(installed=(f"{PACKAGE}.v0.6.0", "0.6.0"))],
        [catalog()],
        [content(tmp_path, {"0.6.0": values})],
    )
    [found] = findings(caps, "4.18.0")
    assert (found.code, found.rule, found.severity) == (INVALID, "R-CUP-4", "warning")


def test_read_cap_tells_a_number_from_a_string() -> None:
    assert read_cap(['"4.18"']) == ((4, 18), None)
    assert read_cap(["4.18"]) == ((4, 18), None)
    assert read_cap(['"4.18-rc1"']) == ((4, 18), None)  # one dot: ParseTolerant reads it
    assert read_cap([]) == (None, None)
    assert read_cap(["4.1800"])[0] == (4, 1800)
    # hostile: a number beyond uint64 (and beyond int()'s 4,300 digits) is unreadable, no crash
    assert read_cap([f'"4.{"9" * 5000}"'])[1]
    assert read_cap([f"4.{'9' * 30}"])[1]


def test_unknown_without_content_is_said_as_unknown() -> None:
    caps = extension_caps([extension()], [catalog()], [])
    [found] = findings(caps, "4.18.0")
    assert (found.code, found.rule, found.severity) == (UNKNOWN, "R-CUP-5", "info")
    assert "not known" in found.message


def test_without_content_the_cluster_operator_names_the_blocker() -> None:
    message = (
        "InstalledOLMOperatorsUpgradeable: Found ClusterExtensions that require upgrades prior "
        'to upgrading cluster to version 4.19: bundle "argocd-operator.v0.6.0" for '
        'ClusterExtension "argocd".'
    )
    operators = [
        co("False", "InstalledOLMOperators_IncompatibleOperatorsInstalled", message, name="olm")
    ]
    caps = extension_caps([extension(), extension("other", package="other")], [catalog()], [])
    found = findings(caps, "4.18.0", operators)
    # named: a blocker from the cluster's word; not named: the cluster says it is clear
    assert [(f.name, f.code, f.rule) for f in found] == [("argocd", BLOCKS, "R-CUP-2")]


def test_nothing_off_openshift_or_without_an_installed_bundle(tmp_path: Path) -> None:
    caps = extension_caps([extension(installed=None)], [catalog()], [])
    assert caps == []
    caps = extension_caps([extension()], [catalog()], [])
    assert extension_cap_findings(caps, None, None, openshift=False) == []


def test_content_bound_to_another_cluster_catalog_is_still_read(tmp_path: Path) -> None:
    cat = content(tmp_path, {"0.6.0": ["4.18"]}, ref="elsewhere")
    caps = extension_caps([extension(installed=(f"{PACKAGE}.v0.6.0", "0.6.0"))], [catalog()], [cat])
    assert caps[0].catalog == "elsewhere" and caps[0].maximum == (4, 18)


def test_a_real_bundle_directory_catalog_carries_its_caps() -> None:
    """community-operators-prod's infinispan bundles up to 2.1.7 say, in their CSV's
    ``olm.properties``, ``olm.maxOpenShiftVersion`` "4.8"; 2.2.0 says none: the way out."""
    cat = load_catalog(str(DATA / "catalogs/community-operators-prod/operators/infinispan"))
    installed = extension(
        "infinispan", package="infinispan", installed=("infinispan-operator.v2.1.7", "2.1.7")
    )
    caps = extension_caps([installed], [catalog()], [cat])
    assert caps[0].maximum == (4, 8)
    [found] = findings(caps, "4.8.57")
    assert found.code == BLOCKS
    assert "Upgrade it to infinispan-operator.v2.2.0 (version 2.2.0), whose cap allows 4.9" in (
        found.message
    )
