"""CRD conversion webhooks pointing at a Service that does not exist (R-DOC-17): judged only
where the source holds the Services of the webhook's namespace."""

from __future__ import annotations

from typing import Any

from model_builders import crd, service

from olmtui.model.incremental.health import health_findings, services_by_namespace
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.documented.conversion_webhooks import (
    conversion_service,
    conversion_webhook_findings,
)
from olmtui.sources.cluster.live_resources import STREAMS
from olmtui.store import Store, trim


def make_crd(strategy: str = "Webhook", service: dict[str, Any] | None = None) -> dict[str, Any]:
    return crd("foos.example.com", conversion=strategy, webhook=service, review_versions=["v1"])


def make_service(ns: str, name: str) -> dict[str, Any]:
    return service(
        ns,
        name,
        labels={"a": "b"},
        spec={"ports": [{"port": 443}], "selector": {"app": "x"}, "clusterIP": "10.0.0.1"},
    )


HOOK = {"namespace": "ops", "name": "foo-webhook", "path": "/convert", "port": 443}


def test_the_service_a_webhook_calls() -> None:
    assert conversion_service(make_crd(service=HOOK)) == ("ops", "foo-webhook")
    assert conversion_service(make_crd("None")) is None
    assert conversion_service(make_crd(service=None)) is None
    # apiextensions v1beta1 spelled it webhookClientConfig
    old = make_crd()
    old["spec"]["conversion"]["webhookClientConfig"] = {"service": HOOK}
    assert conversion_service(old) == ("ops", "foo-webhook")


def test_a_missing_service_is_an_error_naming_it() -> None:
    [finding] = conversion_webhook_findings([make_crd(service=HOOK)], {"ops": {"metrics"}})
    assert (finding.severity, finding.code, finding.rule) == (
        "error",
        "ConversionWebhookServiceMissing",
        "R-DOC-17",
    )
    assert finding.related == (ObjectRef("Service", "ops", "foo-webhook"),)
    assert "ops/foo-webhook" in finding.message


def test_a_present_service_or_an_unread_namespace_is_no_finding() -> None:
    assert conversion_webhook_findings([make_crd(service=HOOK)], {"ops": {"foo-webhook"}}) == []
    assert conversion_webhook_findings([make_crd(service=HOOK)], {"other": {"foo-webhook"}}) == []
    assert conversion_webhook_findings([make_crd(service=HOOK)], {}) == []


def test_from_the_store() -> None:
    store = Store()
    store.apply_many([make_crd(service=HOOK), make_service("ops", "metrics")])
    codes = [f.code for f in health_findings(store)]
    assert codes == ["ConversionWebhookServiceMissing"]
    store.apply_many([make_service("ops", "foo-webhook")])
    assert health_findings(store) == []
    assert services_by_namespace(store.list("Service")) == {"ops": {"metrics", "foo-webhook"}}


def test_the_store_keeps_a_crds_conversion_and_a_services_identity() -> None:
    assert trim(make_crd(service=HOOK))["spec"]["conversion"]["webhook"]["clientConfig"] == {
        "service": HOOK
    }
    kept = trim(make_service("ops", "foo-webhook"))
    assert kept["metadata"] == {"name": "foo-webhook", "namespace": "ops"}
    assert kept["spec"] == {"ports": [{"port": 443}]}
    many = make_service("ops", "big")
    many["spec"]["ports"] = [{"port": p} for p in range(100)]
    assert "spec" not in trim(many)


def test_services_are_not_watched_live() -> None:
    watched = {s.resource.kind for s in STREAMS}
    assert "Service" not in watched
    assert {"ClusterVersion", "ClusterOperator"} <= watched
    assert all(s.optional for s in STREAMS if s.resource.group == "config.openshift.io")
