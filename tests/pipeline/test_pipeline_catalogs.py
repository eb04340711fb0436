"""The pipeline's catalogs: ``--catalog`` content first, then the store's PackageManifests,
re-derived when they change, so that the Model's upgrade graphs follow them."""

from __future__ import annotations

from packageserver_objects import MARKETPLACE, SUBSCRIPTION, package_manifest

from olmtui.model.incremental.engine import Model
from olmtui.model.records.catalog import Catalog
from olmtui.pipeline.catalogs import CatalogSet
from olmtui.store import Store

COMMUNITY = f"{MARKETPLACE}/community"


def test_loaded_content_comes_before_the_packagemanifests() -> None:
    store = Store()
    store.apply("ADDED", package_manifest("etcdoperator.v0.9.4"))
    loaded = Catalog(COMMUNITY, "catalog.yaml")
    assert [(c.ref, c.origin) for c in CatalogSet(store, [loaded]).current()] == [
        (COMMUNITY, "catalog.yaml"),
        (COMMUNITY, "packagemanifests"),
    ]


def test_the_models_head_follows_the_packagemanifests_as_they_change() -> None:
    store = Store()
    catalogs = CatalogSet(store)
    model = Model(store, upgrades=catalogs.resolve)
    store.apply("ADDED", SUBSCRIPTION)
    assert model.subscriptions()[0].upgrade.graph == "none"
    store.apply("ADDED", package_manifest("etcdoperator.v0.9.4"))
    assert model.subscriptions()[0].upgrade.head == "etcdoperator.v0.9.4"
    store.apply("MODIFIED", package_manifest("etcdoperator.v0.9.5"))
    assert model.subscriptions()[0].upgrade.head == "etcdoperator.v0.9.5"
    assert [c.ref for c in catalogs.current()] == [COMMUNITY]
    store.apply("DELETED", package_manifest("etcdoperator.v0.9.5"))
    assert model.subscriptions()[0].upgrade.graph == "none"
    assert catalogs.current() == []


def _missing_package_findings(listed_live: bool) -> list[tuple[str, str]]:
    """A Subscription to a package its CatalogSource's PackageManifests do not hold."""
    from olmtui.model.rules.upgrades.graph import upgrade_findings

    store = Store()
    store.apply("ADDED", package_manifest("etcdoperator.v0.9.4"))
    catalogs = CatalogSet(store, listed_live=listed_live)
    other = {**SUBSCRIPTION, "spec": {**SUBSCRIPTION["spec"], "name": "not-there"}}
    found = upgrade_findings(catalogs.current(), [other], {})
    return [(f.code, f.severity) for f in found]


def test_r_doc_8_packagemanifests_listed_live_are_the_whole_catalog() -> None:
    """The packageserver lists every package a served CatalogSource holds: a package it
    does not list is one OLM will not find either."""
    assert _missing_package_findings(listed_live=True) == [("NoOperatorsFound", "error")]


def test_r_doc_8_packagemanifests_in_a_snapshot_prove_nothing_missing() -> None:
    """A saved file may hold any subset of the PackageManifests (one `kubectl get
    packagemanifest X -o yaml`): a package it lacks is only not in the content given."""
    assert _missing_package_findings(listed_live=False) == [("NotInCatalogContent", "info")]
