"""R-CUP-1, R-CUP-6: one readiness of the next minor, v0 and v1 together, with the way out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from model_builders import clusteroperator as co
from model_builders import clusterversion as cv
from model_builders import csv, subscription
from v1_objects import catalog, extension

from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.cluster_readiness.extension_caps import extension_caps
from olmtui.model.rules.cluster_readiness.readiness import upgrade_readiness
from olmtui.sources.catalog.catalogs import load_catalog


def capped_csv(name: str, cap: str, version: str = "1.0.0") -> dict[str, Any]:
    props = {"properties": [{"type": "olm.maxOpenShiftVersion", "value": cap}]}
    return csv(
        "ops",
        name,
        version=version,
        annotations={"operatorframework.io/properties": json.dumps(props)},
    )


def fbc(tmp_path: Path, package: str, bundles: dict[str, str | None], ref: str | None) -> Catalog:
    docs: list[dict[str, Any]] = [{"schema": "olm.package", "name": package}]
    for version, cap in bundles.items():
        props: list[dict[str, Any]] = [
            {"type": "olm.package", "value": {"packageName": package, "version": version}}
        ]
        if cap is not None:
            props.append({"type": "olm.maxOpenShiftVersion", "value": cap})
        docs.append(
            {
                "schema": "olm.bundle",
                "name": f"{package}.v{version}",
                "package": package,
                "properties": props,
            }
        )
    path = tmp_path / f"{package}.json"
    path.write_text("\n".join(json.dumps(d) for d in docs))
    return load_catalog(f"{ref}={path}" if ref else str(path))


def readiness(
    *,
    version: str | None = "4.18.2",
    csvs: list[Any] = [],  # noqa: B006
    subs: list[Any] = [],  # noqa: B006
    extensions: list[Any] = [],  # noqa: B006
    operators: list[Any] = [],  # noqa: B006
    catalogs: list[Catalog] = [],  # noqa: B006
) -> Any:
    return upgrade_readiness(
        installed_csvs=csvs,
        subscriptions=subs,
        cluster_versions=[cv(("Completed", version))] if version else [],
        cluster_operators=operators,
        caps=extension_caps(extensions, [catalog()], catalogs),
        catalogs=catalogs,
    )


def test_v0_and_v1_blockers_side_by_side_with_their_way_out(tmp_path: Path) -> None:
    v0_content = fbc(
        tmp_path, "foo", {"1.0.0": "4.18", "1.1.0": "4.19"}, "openshift-marketplace/cat"
    )
    v1_content = fbc(tmp_path, "argocd-operator", {"0.6.0": "4.18", "0.7.0": None}, None)
    found = readiness(
        csvs=[capped_csv("foo.v1.0.0", "4.18")],
        subs=[subscription("ops", "foo", package="foo", installed="foo.v1.0.0")],
        extensions=[extension(installed=("argocd-operator.v0.6.0", "0.6.0"))],
        catalogs=[v0_content, v1_content],
    )
    assert (found.current_version, found.next_minor) == ("4.18.2", "4.19")
    assert [
        (b.source, b.object.kind, b.object.name, b.max_openshift_version) for b in found.blockers
    ] == [
        ("v0", "ClusterServiceVersion", "foo.v1.0.0", "4.18"),
        ("v1", "ClusterExtension", "argocd", "4.18"),
    ]
    assert (
        "Upgrade it to foo.v1.1.0 (version 1.1.0), whose cap allows 4.19"
        in found.blockers[0].message
    )
    assert "Upgrade it to argocd-operator.v0.7.0 (version 0.7.0)" in found.blockers[1].message
    assert found.unknown == ()


def test_4_23_and_5_0_are_one_release(tmp_path: Path) -> None:
    for version in ("4.23.1", "5.0.0"):
        found = readiness(
            version=version,
            csvs=[capped_csv("a.v1", "5.0"), capped_csv("b.v1", "5.1")],
            extensions=[extension(installed=("argocd-operator.v0.6.0", "0.6.0"))],
            catalogs=[fbc(tmp_path, "argocd-operator", {"0.6.0": "4.23"}, None)],
        )
        assert found.next_minor == "5.1"
        assert [(b.source, b.object.name) for b in found.blockers] == [
            ("v0", "a.v1"),
            ("v1", "argocd"),
        ]


def test_an_extension_without_content_is_unknown_not_clear() -> None:
    found = readiness(extensions=[extension()])
    assert found.blockers == ()
    assert [r.name for r in found.unknown] == ["argocd"]


def test_a_cluster_operator_no_blocker_read_here_explains_is_a_blocker() -> None:
    v1_says = (
        "InstalledOLMOperatorsUpgradeable: Found ClusterExtensions that require upgrades prior "
        'to upgrading cluster to version 4.19: bundle "x.v1" for ClusterExtension "gone".'
    )
    found = readiness(
        operators=[
            co(
                "False", "InstalledOLMOperators_IncompatibleOperatorsInstalled", v1_says, name="olm"
            ),
            co("False", "IncompatibleOperatorsInstalled", "ClusterServiceVersions blocking"),
            co("True", "AsExpected", "", name="operator-lifecycle-manager-catalog"),
        ]
    )
    assert [(b.source, b.object.name) for b in found.blockers] == [
        ("clusteroperator", "olm"),
        ("clusteroperator", "operator-lifecycle-manager"),
    ]
    assert all(b.max_openshift_version is None for b in found.blockers)


def test_a_cluster_operator_its_own_blockers_explain_is_not_listed_twice(tmp_path: Path) -> None:
    found = readiness(
        csvs=[capped_csv("foo.v1.0.0", "4.18")],
        operators=[co("False", "IncompatibleOperatorsInstalled", "ops/foo.v1.0.0 is 4.18")],
    )
    assert [b.source for b in found.blockers] == ["v0"]


def test_without_the_cluster_version_nothing_is_said_to_block(tmp_path: Path) -> None:
    found = readiness(
        version=None,
        csvs=[capped_csv("foo.v1.0.0", "4.18")],
        extensions=[extension(installed=("argocd-operator.v0.6.0", "0.6.0"))],
        catalogs=[fbc(tmp_path, "argocd-operator", {"0.6.0": "4.18"}, None)],
    )
    assert (found.current_version, found.next_minor, found.blockers) == (None, None, ())
    assert [r.name for r in found.unknown] == ["argocd"]
