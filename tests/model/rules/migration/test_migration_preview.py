"""The ClusterExtension a conversion would create (R-MIG-13): mapped as upstream's field table
says (library-olm requirements R4/R7, validation V3.1..V3.5, V3.12) and valid against
operator-controller's ClusterExtension CRD (``tests/data/migration/``, see SOURCES.md)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
import yaml
from data_paths import DATA
from migration_support import CSV_NAME, NS, content, eligible, healthy_subscription
from model_builders import csv, load_yaml, operator_group

from olmtui.model.rules.migration.checks import OperatorInputs, rule_results
from olmtui.model.rules.migration.preview import MIGRATED_FROM, cluster_extension, preview_yaml

CRDS = DATA / "migration"


def _schema(flavour: str) -> dict[str, Any]:
    crd = load_yaml(CRDS / f"clusterextensions-{flavour}.yaml")
    (version,) = crd["spec"]["versions"]
    schema: dict[str, Any] = version["schema"]["openAPIV3Schema"]
    return schema


def _pruned(value: Any, schema: dict[str, Any], path: str = "") -> list[str]:
    """The fields of ``value`` the API server would prune: absent from ``properties`` where
    the schema neither lists ``additionalProperties`` nor keeps unknown fields."""
    if isinstance(value, dict):
        if schema.get("x-kubernetes-preserve-unknown-fields") or "additionalProperties" in schema:
            return []
        known = schema.get("properties") or {}
        out = [f"{path}.{k}" for k in value if k not in known]
        for key, item in value.items():
            if key in known:
                out += _pruned(item, known[key], f"{path}.{key}")
        return out
    if isinstance(value, list) and "items" in schema:
        return [p for item in value for p in _pruned(item, schema["items"], f"{path}[]")]
    return []


def _preview(inputs: OperatorInputs) -> dict[str, Any]:
    results, match = rule_results(inputs)
    assert all(r.ok for r in results), [r for r in results if not r.ok]
    return cluster_extension(inputs, match)


def _valid(extension: dict[str, Any], flavour: str) -> None:
    schema = _schema(flavour)
    body = {k: v for k, v in extension.items() if k not in ("apiVersion", "kind", "metadata")}
    jsonschema.validate(body, schema)
    assert _pruned(body, schema) == []


CONFIG = {
    "env": [{"name": "LOG_LEVEL", "value": "debug"}],
    "resources": {"limits": {"memory": "512Mi"}},
    "nodeSelector": {"kubernetes.io/os": "linux"},
    "tolerations": [{"key": "infra", "operator": "Exists", "effect": "NoSchedule"}],
    "selector": {"matchLabels": {"never": "honoured"}},
}


def test_an_automatic_subscription_maps_to_an_unpinned_extension_on_its_channel() -> None:
    extension = _preview(eligible())
    assert extension["metadata"] == {
        "name": "pkg",
        "annotations": {MIGRATED_FROM: f"{NS}/pkg"},
    }
    assert extension["spec"] == {
        "namespace": NS,
        "source": {
            "sourceType": "Catalog",
            "catalog": {
                "packageName": "pkg",
                "channels": ["stable"],
                "selector": {
                    "matchLabels": {"olm.operatorframework.io/metadata.name": "operatorhubio"}
                },
                "upgradeConstraintPolicy": "CatalogProvided",
            },
        },
    }
    assert "serviceAccount" not in extension["spec"]  # V3.5: deprecated and ignored
    _valid(extension, "standard")


def test_manual_approval_pins_the_installed_version() -> None:
    sub = healthy_subscription(approval="Manual")
    extension = _preview(eligible(subscription=sub, csv=csv(NS, CSV_NAME, version="1.0.0")))
    assert extension["spec"]["source"]["catalog"]["version"] == "1.0.0"
    _valid(extension, "standard")


def test_no_channel_becomes_the_packages_default_channel_explicitly() -> None:
    inputs = eligible(
        subscription=healthy_subscription(channel=None),
        content={"operatorhubio": content(channels=("fast", "stable"))},
    )
    extension = _preview(inputs)
    assert extension["spec"]["source"]["catalog"]["channels"] == ["fast"]
    assert "# channels: the package's default channel" in preview_yaml(extension, inputs)


def test_the_subscription_config_maps_to_deployment_config_without_its_selector() -> None:
    inputs = eligible(subscription=healthy_subscription(config=CONFIG))
    extension = _preview(inputs)
    assert extension["spec"]["config"] == {
        "configType": "Inline",
        "inline": {"deploymentConfig": {k: v for k, v in CONFIG.items() if k != "selector"}},
    }
    _valid(extension, "experimental")
    # the standard CRD has no spec.config: the preview says which feature it needs
    assert _pruned(extension["spec"], _schema("standard")["properties"]["spec"]) == [".config"]
    text = preview_yaml(extension, inputs)
    assert "NewOLMConfigAPI" in text and "selector is dropped" in text


def test_the_yaml_reads_back_as_the_extension() -> None:
    inputs = eligible(subscription=healthy_subscription(config=CONFIG, approval="Manual"))
    extension = _preview(inputs)
    assert yaml.safe_load(preview_yaml(extension, inputs)) == extension


def test_the_schema_check_catches_a_wrong_field() -> None:
    """The validator is not vacuous: a bad enum, a missing required field, an unknown field."""
    extension = _preview(eligible())
    bad = {**extension["spec"], "source": {"sourceType": "Git", "catalog": {"packageName": "p"}}}
    with pytest.raises(jsonschema.ValidationError):
        _valid({**extension, "spec": bad}, "standard")
    with pytest.raises(jsonschema.ValidationError):
        _valid({**extension, "spec": {"source": extension["spec"]["source"]}}, "standard")
    assert _pruned({"spec": {**extension["spec"], "scope": 1}}, _schema("standard")) == [
        ".spec.scope"
    ]


def test_a_group_that_watched_all_namespaces_adds_nothing() -> None:
    extension = _preview(eligible(groups=[operator_group(NS, "og")]))
    assert set(extension["spec"]) == {"namespace", "source"}
