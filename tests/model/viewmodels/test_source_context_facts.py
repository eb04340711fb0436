"""The OLM version the input shows, and what each CatalogSource is."""

from __future__ import annotations

from model_builders import catalog_source, clusteroperator, csv

from olmtui.model.viewmodels.catalog_identity import catalog_identity
from olmtui.model.viewmodels.source_facts import olm_version


def test_olm_version_comes_from_olms_cluster_operator_first():
    co = clusteroperator(
        "True",
        None,
        "",
        versions=[("operator", "4.16.3"), ("operator-lifecycle-manager", "0.28.0")],
    )
    server = csv("olm", "packageserver", version="0.27.0")
    assert olm_version([co], [server]) == "0.28.0"


def test_olm_version_falls_back_to_the_release_then_the_packageserver_csv():
    release_only = clusteroperator("True", None, "", versions=[("operator", "4.16.3")])
    assert olm_version([release_only], []) == "4.16.3"
    other = clusteroperator("True", None, "", name="dns", versions=[("operator", "4.16.3")])
    assert olm_version([other], [csv("olm", "packageserver", version="0.27.0")]) == "0.27.0"


def test_olm_version_is_unknown_rather_than_guessed():
    placeholder = csv(
        "openshift-operator-lifecycle-manager", "packageserver", version="0.0.1-snapshot"
    )
    assert olm_version([clusteroperator("True", None, "")], [placeholder]) is None
    assert olm_version([], []) is None


def test_a_grpc_image_catalog():
    found = catalog_identity(
        catalog_source(
            "openshift-marketplace",
            "redhat-operators",
            priority=-100,
            spec={"publisher": "Red Hat", "updateStrategy": {"registryPoll": {"interval": "10m"}}},
        )
    )
    assert (found.kind, found.image, found.address) == ("grpc image", "quay.io/x/index:v1", None)
    assert (found.priority, found.publisher, found.polling) == (-100, "Red Hat", "10m")
    assert found.state == "READY" and not found.test_catalog and found.pods == ()


def test_an_address_catalog_a_configmap_catalog_and_the_default_priority():
    address = catalog_identity(catalog_source(spec={"image": None, "address": "reg:50051"}))
    assert (address.kind, address.image, address.address) == ("grpc address", None, "reg:50051")
    assert address.priority == 0 and address.polling is None
    configmap = catalog_identity(
        catalog_source(spec={"sourceType": "configmap", "image": None, "configMap": "cm"})
    )
    assert (configmap.kind, configmap.configmap) == ("configmap", "cm")


def test_an_operator_sdk_run_bundle_catalog_is_a_test_catalog():
    found = catalog_identity(
        catalog_source(
            "team-a",
            "etcd-catalog",
            annotations={"operators.operatorframework.io/index-image": "quay.io/x/index:v1"},
        )
    )
    assert found.test_catalog and found.kind == "run bundle test catalog"
