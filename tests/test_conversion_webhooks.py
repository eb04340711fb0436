"""CRD conversion webhooks pointing at a Service that does not exist (R-DOC-17): judged only
where the source holds the Services of the webhook's namespace."""

from __future__ import annotations

from typing import Any

from olmtui.model.incremental.health import health_findings, services_by_namespace
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.documented.conversion_webhooks import (
    conversion_service,
    conversion_webhook_findings,
)
from olmtui.sources.cluster.live_resources import STREAMS
from olmtui.store import Store, trim


def crd(strategy: str = "Webhook", service: dict[str, Any] | None = None) -> dict[str, Any]:
    conversion: dict[str, Any] = {"strategy": strategy}
    if service is not None:
        conversion["webhook"] = {
            "clientConfig": {"service": service},
            "conversionReviewVersions": ["v1"],
        }
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "conversion": conversion},
    }


def service(ns: str, name: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "namespace": ns, "labels": {"a": "b"}},
        "spec": {"ports": [{"port": 443}], "selector": {"app": "x"}, "clusterIP": "10.0.0.1"},
    }


HOOK = {"namespace": "ops", "name": "foo-webhook", "path": "/convert", "port": 443}


def test_the_service_a_webhook_calls() -> None:
    assert conversion_service(crd(service=HOOK)) == ("ops", "foo-webhook")
    assert conversion_service(crd("None")) is None
    assert conversion_service(crd(service=None)) is None
    # apiextensions v1beta1 spelled it webhookClientConfig
    old = crd()
    old["spec"]["conversion"]["webhookClientConfig"] = {"service": HOOK}
    assert conversion_service(old) == ("ops", "foo-webhook")


def test_a_missing_service_is_an_error_naming_it() -> None:
    [finding] = conversion_webhook_findings([crd(service=HOOK)], {"ops": {"metrics"}})
    assert (finding.severity, finding.code, finding.rule) == (
        "error",
        "ConversionWebhookServiceMissing",
        "R-DOC-17",
    )
    assert finding.related == (ObjectRef("Service", "ops", "foo-webhook"),)
    assert "ops/foo-webhook" in finding.message


def test_a_present_service_or_an_unread_namespace_is_no_finding() -> None:
    assert conversion_webhook_findings([crd(service=HOOK)], {"ops": {"foo-webhook"}}) == []
    assert conversion_webhook_findings([crd(service=HOOK)], {"other": {"foo-webhook"}}) == []
    assert conversion_webhook_findings([crd(service=HOOK)], {}) == []


def test_from_the_store() -> None:
    store = Store()
    store.apply_many([crd(service=HOOK), service("ops", "metrics")])
    codes = [f.code for f in health_findings(store)]
    assert codes == ["ConversionWebhookServiceMissing"]
    store.apply_many([service("ops", "foo-webhook")])
    assert health_findings(store) == []
    assert services_by_namespace(store.list("Service")) == {"ops": {"metrics", "foo-webhook"}}


def test_the_store_keeps_a_crds_conversion_and_a_services_identity() -> None:
    assert trim(crd(service=HOOK))["spec"]["conversion"]["webhook"]["clientConfig"] == {
        "service": HOOK
    }
    kept = trim(service("ops", "foo-webhook"))
    assert kept["metadata"] == {"name": "foo-webhook", "namespace": "ops"}
    assert kept["spec"] == {"ports": [{"port": 443}]}
    many = service("ops", "big")
    many["spec"]["ports"] = [{"port": p} for p in range(100)]
    assert "spec" not in trim(many)


def test_services_are_not_watched_live() -> None:
    watched = {s.resource.kind for s in STREAMS}
    assert "Service" not in watched
    assert {"ClusterVersion", "ClusterOperator"} <= watched
    assert all(s.optional for s in STREAMS if s.resource.group == "config.openshift.io")
