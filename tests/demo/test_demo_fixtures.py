"""The demo's fixtures are real: its CSVs are the published ones minus the icon, and its
catalog is the published graph of each package, written as a file-based catalog.

The functions here also (re)generate the fixtures from tests/data:
``python -c "import sys; sys.path[:0] = ['tests', 'tests/demo']; import test_demo_fixtures as t;
t.write_fixtures()"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from data_paths import DATA

from olmtui.demo.bundles import CATALOG_PATH, CSV_DIR, PACKAGES, fixture_csv
from olmtui.model.records.catalog import Catalog, Package
from olmtui.sources.catalog.catalogs import load_catalog

PROD = DATA / "catalogs/community-operators-prod"
#: Where each package's real graph comes from. rabbitmq's bundle directories disagree with
#: each other (two heads, see SOURCES.md); its rendered v4.20 FBC is the graph OLM serves.
SOURCES: dict[str, Path] = {
    "cert-manager": PROD / "operators" / "cert-manager",
    "etcd": PROD / "operators" / "etcd",
    "keycloak-operator": PROD / "operators" / "keycloak-operator",
    "node-healthcheck-operator": PROD / "operators" / "node-healthcheck-operator",
    "rabbitmq-messaging-topology-operator": PROD
    / "catalogs"
    / "v4.20"
    / "rabbitmq-messaging-topology-operator",
}
#: The published CSV each fixture copies: (package directory, version directory).
CSV_SOURCES: dict[str, tuple[str, str]] = {
    "cert-manager.v1.16.5": ("cert-manager", "1.16.5"),
    "node-healthcheck-operator.v0.12.0": ("node-healthcheck-operator", "0.12.0"),
    "etcdoperator.v0.9.4": ("etcd", "0.9.4"),
    "etcdoperator.v0.9.4-clusterwide": ("etcd", "0.9.4-clusterwide"),
    "keycloak-operator.v26.6.2": ("keycloak-operator", "26.6.2"),
    "keycloak-operator.v26.6.3": ("keycloak-operator", "26.6.3"),
    "keycloak-operator.v26.7.1": ("keycloak-operator", "26.7.1"),
    "rabbitmq-messaging-topology-operator.v1.19.3": (
        "rabbitmq-messaging-topology-operator",
        "1.19.3",
    ),
}


def published_csv(name: str) -> dict[str, Any]:
    package, version = CSV_SOURCES[name]
    path = next(
        (PROD / "operators" / package / version / "manifests").glob("*.clusterserviceversion.yaml")
    )
    return yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)


def without_icon(csv: dict[str, Any]) -> dict[str, Any]:
    return {**csv, "spec": {k: v for k, v in csv["spec"].items() if k != "icon"}}


def _properties(package: Package, name: str) -> list[dict[str, Any]]:
    bundle = package.bundles[name]
    props: list[dict[str, Any]] = [
        {"type": "olm.package", "value": {"packageName": package.name, "version": bundle.version}}
    ]
    for key, kind in ((a, "olm.gvk") for a in bundle.provided_apis):
        api_kind, version, group = key.split(".", 2)
        props.append(
            {"type": kind, "value": {"group": group, "kind": api_kind, "version": version}}
        )
    for key in bundle.required_apis:
        api_kind, version, group = key.split(".", 2)
        props.append(
            {
                "type": "olm.gvk.required",
                "value": {"group": group, "kind": api_kind, "version": version},
            }
        )
    for required, version_range in bundle.required_packages:
        props.append(
            {
                "type": "olm.package.required",
                "value": {"packageName": required, "versionRange": version_range},
            }
        )
    props.append(
        {
            "type": "olm.csv.metadata",
            "value": {
                "installModes": [{"type": mode, "supported": True} for mode in bundle.install_modes]
            },
        }
    )
    return props


def fbc_documents(package: Package) -> list[dict[str, Any]]:
    """One package as ``opm render`` writes it: package, channels (with their edges), bundles."""
    docs: list[dict[str, Any]] = [
        {"schema": "olm.package", "name": package.name, "defaultChannel": package.default_channel}
    ]
    for channel in sorted(package.channels.values(), key=lambda c: c.name):
        entries = []
        for entry in channel.entries:
            item: dict[str, Any] = {"name": entry.name}
            if entry.replaces:
                item["replaces"] = entry.replaces
            if entry.skips:
                item["skips"] = list(entry.skips)
            if entry.skip_range:
                item["skipRange"] = entry.skip_range
            entries.append(item)
        docs.append(
            {
                "schema": "olm.channel",
                "package": package.name,
                "name": channel.name,
                "entries": entries,
            }
        )
    for name in sorted(package.bundles):
        docs.append(
            {
                "schema": "olm.bundle",
                "name": name,
                "package": package.name,
                "properties": _properties(package, name),
            }
        )
    return docs


def published_catalog(package: str) -> Catalog:
    return load_catalog(str(SOURCES[package]))


def write_fixtures() -> None:
    """Regenerate ``olmtui/demo/fixtures`` from tests/data (its whole CSVs and its graphs)."""
    CSV_DIR.mkdir(parents=True, exist_ok=True)
    for name in CSV_SOURCES:
        (CSV_DIR / f"{name}.yaml").write_text(
            yaml.safe_dump(without_icon(published_csv(name)), sort_keys=False, width=100)
        )
    docs = [d for p in PACKAGES for d in fbc_documents(published_catalog(p).packages[p])]
    CATALOG_PATH.write_text(yaml.safe_dump_all(docs, sort_keys=False, width=100))


def _graph(package: Package) -> dict[str, Any]:
    return {
        "default": package.default_channel,
        "channels": {n: c.entries for n, c in package.channels.items()},
        "bundles": {
            n: (b.version, b.provided_apis, b.required_apis, b.required_packages, b.install_modes)
            for n, b in package.bundles.items()
        },
    }


def test_fixture_csvs_are_the_published_csvs_without_icon() -> None:
    for name in CSV_SOURCES:
        assert fixture_csv(name) == without_icon(published_csv(name)), name


def test_fixture_catalog_holds_each_packages_published_graph() -> None:
    shipped = load_catalog(str(CATALOG_PATH))
    assert sorted(shipped.packages) == sorted(PACKAGES)
    assert shipped.findings == []
    for name in PACKAGES:
        assert _graph(shipped.packages[name]) == _graph(published_catalog(name).packages[name])
