"""An operator every migration rule passes (R-MIG-1..11), for the migration tests to vary: an
AllNamespaces OperatorGroup, a Succeeded CSV, a Subscription at its latest, its grpc image
CatalogSource, and a serving ClusterCatalog whose content holds the package."""

from __future__ import annotations

from typing import Any

from model_builders import catalog_source, csv, operator_group, subscription
from v1_objects import catalog

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.rules.migration.checks import OperatorInputs
from olmtui.model.rules.v1.catalogs import decode_catalog

NS = "operators"
CSV_NAME = "pkg.v1.0.0"
CLUSTER_CATALOG = "operatorhubio"


def content(
    *, package: str = "pkg", channels: tuple[str, ...] = ("stable",), version: str = "1.0.0"
) -> Catalog:
    """ClusterCatalog content serving ``package`` at ``version`` in ``channels`` (the first
    its default)."""
    bundle = f"{package}.v{version}"
    served = Package(
        package,
        channels[0],
        {c: Channel(package, c, (ChannelEntry(bundle),)) for c in channels},
        {bundle: Bundle(bundle, package, version)},
    )
    return Catalog(CLUSTER_CATALOG, "test", "catalog", {package: served})


def healthy_subscription(**kwargs: Any) -> dict[str, Any]:
    """The Subscription of the eligible operator; ``kwargs`` go to ``subscription``."""
    fields: dict[str, Any] = {
        "installed": CSV_NAME,
        "current": CSV_NAME,
        "state": "AtLatestKnown",
        **kwargs,
    }
    return subscription(NS, "pkg", **fields)


def eligible(**changes: Any) -> OperatorInputs:
    """The eligible operator's inputs, with ``changes`` to its fields."""
    source = catalog_source("openshift-marketplace", "cat")
    fields: dict[str, Any] = {
        "subscription": healthy_subscription(),
        "groups": [operator_group(NS, "og", status=[""])],
        "csv": csv(NS, CSV_NAME),
        "condition": None,
        "catalog_sources": {("openshift-marketplace", "cat"): source},
        "install_plan": None,
        "cluster_catalogs": [decode_catalog(catalog(CLUSTER_CATALOG))],
        "content": {CLUSTER_CATALOG: content()},
    }
    fields.update(changes)
    return OperatorInputs(**fields)
