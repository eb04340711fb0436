"""CatalogSource health and Subscriptions whose catalog is missing or unhealthy (R-SUB-8)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from data_paths import TESTS
from model_builders import catalog_source

from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.catalog.health import (
    catalog_findings,
    catalog_health,
    catalog_health_findings,
    health_of,
    subscription_source_findings,
)

DATA = TESTS / "data" / "health"


def load_all(name: str) -> list[dict[str, Any]]:
    return [d for d in yaml.load_all((DATA / name).read_bytes(), Loader=yaml.CSafeLoader) if d]


def catalog(
    state: str | None = "READY", reason: str | None = None, message: str | None = None
) -> dict[str, Any]:
    return catalog_source(state=state, reason=reason, message=message, address="cat.olm.svc:50051")


def test_r_sub_8_real_catalogs_are_ready_and_healthy() -> None:
    healths = catalog_health(load_all("metal-catalogsources.yaml"))
    assert [h.ref for h in healths] == [
        "cfe-test-namespace/image-caching-operator-catalog",
        "cfe-test-namespace/projectrequestlimits-catalog",
        "openshift-marketplace/certified-operators",
        "openshift-marketplace/community-operators",
        "openshift-marketplace/redhat-marketplace",
        "openshift-marketplace/redhat-operators",
    ]
    assert all(h.healthy and h.state == "READY" for h in healths)
    certified = healths[2]
    assert certified.registry_service == "openshift-marketplace/certified-operators:50051"
    assert certified.last_poll == "2021-09-14T14:35:55Z"
    assert certified.source_type == "grpc"
    assert catalog_health_findings(healths) == []


@pytest.mark.parametrize(
    ("state", "reason", "healthy", "findings"),
    [
        ("READY", None, True, []),
        ("TRANSIENT_FAILURE", None, False, [("error", "CatalogSourceNotReady")]),
        ("SHUTDOWN", None, False, [("error", "CatalogSourceNotReady")]),
        ("CONNECTING", None, False, [("warning", "CatalogSourceNotReady")]),
        ("IDLE", None, False, [("warning", "CatalogSourceNotReady")]),
        (None, None, False, [("warning", "CatalogSourceNotReady")]),
        (None, "SpecInvalidError", False, [("error", "SpecInvalidError")]),
        ("READY", "SpecInvalidError", False, [("error", "SpecInvalidError")]),
        (None, "ConfigMapError", False, [("error", "ConfigMapError")]),
        (None, "RegistryServerError", False, [("error", "RegistryServerError")]),
        ("READY", "InvalidIntervalError", True, [("warning", "InvalidIntervalError")]),
    ],
)
def test_r_sub_8_catalog_state_and_reason_table(
    state: str | None,
    reason: str | None,
    healthy: bool,
    findings: list[tuple[str, str]],
) -> None:
    health = health_of(catalog(state, reason, "details here"))
    assert (health.state, health.reason, health.healthy) == (state, reason, healthy)
    found = catalog_health_findings([health])
    assert [(f.severity, f.code) for f in found] == findings
    for f in found:
        assert (f.kind, f.namespace, f.name, f.rule) == ("CatalogSource", "olm", "cat", "R-SUB-8")
        assert "details here" in f.message


def test_r_sub_8_real_subscriptions_find_their_catalogs() -> None:
    subs = [
        load_all("metal-sub-image-caching.yaml")[0],
        load_all("metal-sub-projectrequestlimits.yaml")[0],
    ]
    healths = catalog_health(load_all("metal-catalogsources.yaml"))
    assert subscription_source_findings(subs, healths) == []


def test_r_sub_8_subscription_whose_catalog_is_missing() -> None:
    subs = [load_all("metal-sub-image-caching.yaml")[0]]
    healths = [
        h
        for h in catalog_health(load_all("metal-catalogsources.yaml"))
        if h.name != "image-caching-operator-catalog"
    ]
    (finding,) = subscription_source_findings(subs, healths)
    assert (finding.severity, finding.code, finding.kind, finding.name) == (
        "error",
        "CatalogSourceMissing",
        "Subscription",
        "image-caching-operator-v0-0-1-sub",
    )
    assert (
        "targeted catalogsource cfe-test-namespace/image-caching-operator-catalog missing"
        in finding.message
    )
    assert finding.related == (
        ObjectRef("CatalogSource", "cfe-test-namespace", "image-caching-operator-catalog"),
    )


def test_r_sub_8_subscription_whose_catalog_is_unhealthy() -> None:
    sub = copy.deepcopy(load_all("metal-sub-image-caching.yaml")[0])
    sub["spec"].update(source="cat", sourceNamespace="olm")
    (finding,) = subscription_source_findings([sub], [health_of(catalog("TRANSIENT_FAILURE"))])
    assert (finding.severity, finding.code) == ("warning", "TargetedCatalogSourceUnhealthy")
    assert "state TRANSIENT_FAILURE" in finding.message


def test_r_sub_8_cluster_catalog_findings_sorted_by_severity() -> None:
    real = load_all("metal-catalogsources.yaml")
    subs = [load_all("metal-sub-image-caching.yaml")[0]]
    assert catalog_findings(real, subs) == []
    broken = catalog(None, "SpecInvalidError", "image is empty")
    sub = copy.deepcopy(subs[0])
    sub["spec"].update(source="cat", sourceNamespace="olm")
    findings = catalog_findings([*real, broken], [sub])
    assert [(f.severity, f.code, f.kind) for f in findings] == [
        ("error", "SpecInvalidError", "CatalogSource"),
        ("warning", "TargetedCatalogSourceUnhealthy", "Subscription"),
    ]
