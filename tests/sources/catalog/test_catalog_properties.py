"""``Bundle.properties`` (R-RES-6) from bundle directories and legacy package manifests: what
``opm`` would write into an FBC for the same bundle, so the resolver sees the same thing
whatever format a catalog was given in. Hand-written fixture (``catalog-properties/README.md``)
and real data (community-operators-prod bundles beside the FBCs opm rendered from them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA
from model_builders import csv

from olmtui.model.records.catalog import Bundle, Catalog
from olmtui.sources.catalog.bundle_dirs import load_bundle_dirs
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.sources.catalog.fbc import load_fbc
from olmtui.sources.catalog.properties import bundle_properties, legacy_properties

FIXTURE = DATA / "catalog-properties"
PROD = DATA / "catalogs" / "community-operators-prod"

WIDGET_V1 = ("olm.gvk", '{"group":"demo.example.com","kind":"Widget","version":"v1"}')
WIDGET_V1BETA1 = ("olm.gvk", '{"group":"demo.example.com","kind":"Widget","version":"v1beta1"}')
METER = ("olm.gvk", '{"group":"metrics.demo.example.com","kind":"Meter","version":"v1beta1"}')
GADGET = ("olm.gvk.required", '{"group":"other.example.com","kind":"Gadget","version":"v1alpha1"}')
FAST = ("olm.label", '{"label":"fast"}')
DEMO = ("olm.package", '{"packageName":"demo","version":"1.0.0"}')

BUNDLE_DIR_PROPERTIES = (
    (
        "olm.constraint",
        '{"failureMessage":"needs other",'
        '"package":{"packageName":"other","versionRange":">=1.0.0"}}',
    ),
    WIDGET_V1,
    WIDGET_V1BETA1,
    METER,
    GADGET,
    ("olm.gvk.required", '{"group":"other.example.com","kind":"Gizmo","version":"v1"}'),
    FAST,
    # opm converts only olm.package and olm.gvk dependencies; a label one keeps its type.
    ("olm.label", '{"label":"needs-x"}'),
    DEMO,
    ("olm.package.required", '{"packageName":"other","versionRange":">=1.0.0 <2.0.0"}'),
)


def only_bundle(catalog: Catalog) -> Bundle:
    assert catalog.findings == []
    return catalog.packages["demo"].bundles["demo.v1.0.0"]


def test_bundle_directory_properties_as_opm_renders_them() -> None:
    bundle = only_bundle(load_catalog(str(FIXTURE / "bundles")))
    assert bundle.properties == BUNDLE_DIR_PROPERTIES
    assert not bundle.prohibited


def test_legacy_package_properties_as_opm_converted_them() -> None:
    """No metadata files in a legacy tree: the CSV, its CRDs and its annotation only."""
    bundle = only_bundle(load_catalog(str(FIXTURE / "legacy")))
    assert bundle.properties == (WIDGET_V1, WIDGET_V1BETA1, METER, GADGET, FAST, DEMO)


def test_bundle_directory_equals_its_opm_render() -> None:
    fbc = only_bundle(load_catalog(str(FIXTURE / "fbc")))
    directory = only_bundle(load_catalog(str(FIXTURE / "bundles")))
    assert fbc.properties == directory.properties == BUNDLE_DIR_PROPERTIES


@pytest.mark.parametrize("package", ["rabbitmq-messaging-topology-operator", "infinispan"])
def test_real_bundles_equal_their_opm_render(package: str) -> None:
    """Every bundle both in the published bundle directories and in the FBC opm rendered from
    them has the same properties, but for ``olm.gvk`` (the copy keeps no CRD manifests of these
    packages). rabbitmq has ``dependencies.yaml``; infinispan an ``olm.properties`` annotation."""
    fbc = Catalog(None, "fbc")
    load_fbc([PROD / "catalogs" / "v4.20" / package / "catalog.yaml"], fbc)
    directories = Catalog(None, "dirs")
    annotations = (PROD / "operators" / package).rglob("metadata/annotations.yaml")
    load_bundle_dirs(sorted(p.parent.parent for p in annotations), directories)
    assert fbc.findings == directories.findings == []
    rendered = fbc.packages[package].bundles
    published = directories.packages[package].bundles
    shared = sorted(set(rendered) & set(published))
    assert len(shared) >= 12

    def without_gvk(bundle: Bundle) -> tuple[tuple[str, str], ...]:
        return tuple(p for p in bundle.properties if p[0] != "olm.gvk")

    assert [without_gvk(published[n]) for n in shared] == [without_gvk(rendered[n]) for n in shared]
    if package == "rabbitmq-messaging-topology-operator":
        assert any(p[0] == "olm.package.required" for p in published[shared[-1]].properties)


def make_csv(annotations: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    return csv(
        None,
        "demo.v1.0.0",
        bare=True,
        annotations=annotations or {},
        spec=spec,
        phase=None,
        reason=None,
    )


def listed(*items: tuple[str, Any]) -> list[tuple[str, str]]:
    return [(kind, json.dumps(value, separators=(",", ":"))) for kind, value in items]


def package_list(value: str) -> str:
    """An ``olm.properties`` annotation holding one ``olm.package`` with this value text."""
    return f'[{{"type":"olm.package","value":{value}}}]'


def test_package_property_last_listed_wins_and_release() -> None:
    """opm keeps one ``olm.package``: the last of properties file, annotations file, CSV
    annotation; it is rebuilt with the CSV's ``spec.release`` when there is one."""
    assert bundle_properties(make_csv(release=2), "demo", []) == (
        ("olm.package", '{"packageName":"demo","version":"1.0.0","release":"2"}'),
    )
    annotation = {"olm.properties": package_list('{"version":"9","packageName":"x"}')}
    from_file = listed(("olm.package", {"packageName": "y", "version": "8"}))
    assert bundle_properties(make_csv(annotation), "demo", [], from_file) == (
        ("olm.package", '{"packageName":"x","version":"9"}'),
    )
    assert bundle_properties(make_csv(), "demo", [], from_file) == (DEMO,)


def test_deprecated_property_prohibits_the_bundle(tmp_path: Path) -> None:
    """``olm.deprecated`` from a properties file reaches the resolver and marks the bundle as
    never newly chosen, as in an FBC (R-UPG-2)."""
    bundle_dir = tmp_path / "demo" / "1.0.0"
    for sub in ("manifests", "metadata"):
        (bundle_dir / sub).mkdir(parents=True)
        for path in (FIXTURE / "bundles" / "demo" / "1.0.0" / sub).iterdir():
            if path.name not in ("dependencies.yaml", "properties.yaml"):
                (bundle_dir / sub / path.name).write_bytes(path.read_bytes())
    (bundle_dir / "metadata" / "properties.yaml").write_text(
        "properties:\n  - type: olm.deprecated\n    value: {}\n"
    )
    bundle = only_bundle(load_catalog(str(tmp_path)))
    assert ("olm.deprecated", "{}") in bundle.properties
    assert bundle.prohibited


def test_legacy_keeps_a_listed_package_property_beside_its_own() -> None:
    """The SQLite loader always added ``{packageName, version}`` and kept the annotation's."""
    annotation = {"olm.properties": package_list('{"packageName":"x","version":"9"}')}
    assert legacy_properties(make_csv(annotation), "demo", []) == (
        DEMO,
        ("olm.package", '{"packageName":"x","version":"9"}'),
    )


def test_unparsable_annotation_and_groupless_required_crd_are_skipped() -> None:
    required = [{"name": "nogroup", "kind": "K", "version": "v1"}]
    spec = {"customresourcedefinitions": {"required": required}}
    broken = make_csv({"olm.properties": "[not json"}, **spec)
    assert bundle_properties(broken, "demo", []) == (DEMO,)
    assert legacy_properties(broken, "demo", []) == (DEMO,)
