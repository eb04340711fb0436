"""The migration tool's rules C1..C10 (R-MIG-1..11): each passes on the eligible operator of
``migration_support`` and fails (or is unknown) on the variation upstream's validation matrix
names for it (library-olm ``specs/20260821-migration-v0-to-v1/validation.md``, V2.1..V2.11)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from migration_support import CSV_NAME, NS, content, eligible, healthy_subscription
from model_builders import catalog_source, csv, install_plan, operator_condition, operator_group
from v1_objects import catalog

from olmtui.kinds import CATALOG_SOURCE, OPERATOR_CONDITION
from olmtui.model.rules.migration.checks import OperatorInputs, RuleResult, rule_results
from olmtui.model.rules.v1.catalogs import decode_catalog


def _rule(inputs: OperatorInputs, rule: str) -> RuleResult:
    results, _ = rule_results(inputs)
    return next(r for r in results if r.id == rule)


def _permissions(*rules: dict[str, Any], field: str = "clusterPermissions") -> dict[str, Any]:
    return {"install": {"strategy": "deployment", "spec": {field: [{"rules": list(rules)}]}}}


def _grant(group: str, *resources: str) -> dict[str, Any]:
    return {"apiGroups": [group], "resources": list(resources), "verbs": ["get", "list"]}


def _properties(*types: str) -> dict[str, str]:
    listed = [{"type": t, "value": {}} for t in types]
    return {"operatorframework.io/properties": json.dumps({"properties": listed})}


def test_every_rule_passes_on_the_eligible_operator() -> None:
    results, match = rule_results(eligible())
    assert [r.id for r in results] == [
        "C1", "C1a", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"
    ]  # fmt: skip
    assert [r.id for r in results if not r.ok] == []
    assert match.catalog == "operatorhubio"


FAILING: list[tuple[str, str, Callable[[], OperatorInputs], str]] = [
    # V2.1: a scoped OperatorGroup (targets, selector, one watched namespace, none, two)
    (
        "C1",
        "targets",
        lambda: eligible(groups=[operator_group(NS, "og", targets=[NS])]),
        "targets namespaces operators",
    ),
    (
        "C1",
        "selector",
        lambda: eligible(groups=[operator_group(NS, "og", selector={"matchLabels": {"a": "b"}})]),
        "selects namespaces by label",
    ),
    (
        "C1",
        "one watched namespace",
        lambda: eligible(groups=[operator_group(NS, "og", status=["team"])]),
        "watches namespace team only",
    ),
    ("C1", "no group", lambda: eligible(groups=[]), "no OperatorGroup in namespace operators"),
    (
        "C1",
        "two groups",
        lambda: eligible(groups=[operator_group(NS, "a"), operator_group(NS, "b")]),
        "2 OperatorGroups in namespace (a, b)",
    ),
    # V2.1a: the CSV does not support AllNamespaces
    (
        "C1a",
        "own namespace only",
        lambda: eligible(csv=csv(NS, CSV_NAME, modes=("OwnNamespace",))),
        "does not declare AllNamespaces supported",
    ),
    # V2.2, V2.3: dependencies
    (
        "C2",
        "olm.package.required",
        lambda: eligible(csv=csv(NS, CSV_NAME, annotations=_properties("olm.package.required"))),
        "olm.package.required",
    ),
    (
        "C2",
        "olm.gvk.required",
        lambda: eligible(csv=csv(NS, CSV_NAME, annotations=_properties("olm.gvk.required"))),
        "olm.gvk.required",
    ),
    (
        "C2",
        "a required CRD",
        lambda: eligible(csv=csv(NS, CSV_NAME, required=(("Db", "v1", "dbs.example.com"),))),
        "1 required API(s)",
    ),
    # V2.4: owned APIServices
    (
        "C3",
        "owned APIService",
        lambda: eligible(csv=csv(NS, CSV_NAME, apiservices=(("Metric", "v1", "m.example"),))),
        "owns 1 APIService definition(s)",
    ),
    # V2.5: an OperatorCondition in use
    (
        "C4",
        "status conditions",
        lambda: eligible(condition=operator_condition(CSV_NAME, "False", ns=NS)),
        "has status conditions (Upgradeable)",
    ),
    # V2.6: OLM v0 API RBAC without OLM v1's
    (
        "C5",
        "clusterPermissions on subscriptions",
        lambda: eligible(
            csv=csv(
                NS, CSV_NAME, spec=_permissions(_grant("operators.coreos.com", "subscriptions"))
            )
        ),
        "grants OLM v0 APIs (subscriptions) and no OLM v1 API",
    ),
    (
        "C5",
        "permissions on every resource",
        lambda: eligible(
            csv=csv(
                NS,
                CSV_NAME,
                spec=_permissions(_grant("operators.coreos.com", "*"), field="permissions"),
            )
        ),
        "grants OLM v0 APIs (*)",
    ),
    # V2.7: a scoped ServiceAccount
    (
        "C6",
        "serviceAccountName",
        lambda: eligible(groups=[operator_group(NS, "og", service_account="installer")]),
        "installs as ServiceAccount installer",
    ),
    # V2.8: no ClusterCatalog serves the package
    ("C7", "no ClusterCatalog", lambda: eligible(cluster_catalogs=[]), "no serving ClusterCatalog"),
    (
        "C7",
        "another package",
        lambda: eligible(content={"operatorhubio": content(package="other")}),
        "no serving ClusterCatalog serves pkg 1.0.0 in channel stable",
    ),
    (
        "C7",
        "not the installed version",
        lambda: eligible(content={"operatorhubio": content(version="2.0.0")}),
        "no serving ClusterCatalog serves pkg 1.0.0",
    ),
    (
        "C7",
        "not the channel",
        lambda: eligible(content={"operatorhubio": content(channels=("fast",))}),
        "no serving ClusterCatalog serves pkg 1.0.0 in channel stable",
    ),
    (
        "C7",
        "not serving",
        lambda: eligible(
            cluster_catalogs=[decode_catalog(catalog(serving=("False", "Unavailable", "x")))]
        ),
        "no serving ClusterCatalog",
    ),
    # V2.9: not at steady state
    (
        "C8",
        "CSV installing",
        lambda: eligible(csv=csv(NS, CSV_NAME, phase="Installing")),
        "CSV Installing, Subscription AtLatestKnown",
    ),
    (
        "C8",
        "Subscription upgrading",
        lambda: eligible(subscription=healthy_subscription(state="UpgradeAvailable")),
        "Subscription UpgradeAvailable",
    ),
    # V2.10: a dependency OLM v0 installed
    (
        "C9",
        "olm.generated-by",
        lambda: eligible(
            subscription=healthy_subscription(annotations={"olm.generated-by": "install-abc"})
        ),
        "olm.generated-by: install-abc",
    ),
    # V2.11: CatalogSources not image-backed
    (
        "C10",
        "configmap",
        lambda: eligible(
            catalog_sources={
                ("openshift-marketplace", "cat"): catalog_source(
                    "openshift-marketplace", "cat", spec={"sourceType": "configmap", "image": None}
                )
            }
        ),
        "CatalogSource openshift-marketplace/cat is configmap, not grpc",
    ),
    (
        "C10",
        "address only",
        lambda: eligible(
            catalog_sources={
                ("openshift-marketplace", "cat"): catalog_source(
                    "openshift-marketplace", "cat", spec={"image": None, "address": "x:50051"}
                )
            }
        ),
        "has no spec.image (address only)",
    ),
    (
        "C10",
        "missing",
        lambda: eligible(catalog_sources={("olm", "other"): catalog_source()}),
        "the Subscription's CatalogSource openshift-marketplace/cat is not in the input",
    ),
    (
        "C10",
        "a bundle lookup took a configmap catalog",
        lambda: eligible(
            install_plan=install_plan(NS, "install-1", csvs=[(CSV_NAME, None)]),
            catalog_sources={
                ("openshift-marketplace", "cat"): catalog_source("openshift-marketplace", "cat"),
                ("olm", "cat"): catalog_source(spec={"sourceType": "configmap", "image": None}),
            },
        ),
        "a bundle lookup's CatalogSource olm/cat is configmap, not grpc",
    ),
]


@pytest.mark.parametrize(
    ("rule", "inputs", "detail"),
    [(rule, inputs, detail) for rule, _, inputs, detail in FAILING],
    ids=[f"{rule}-{case}" for rule, case, _, _ in FAILING],
)
def test_each_rule_fails_on_its_case(
    rule: str, inputs: Callable[[], OperatorInputs], detail: str
) -> None:
    result = _rule(inputs(), rule)
    assert (result.ok, result.known) == (False, True)
    assert detail in result.detail
    others = {r.id for r in rule_results(inputs())[0] if not r.ok and r.id != rule}
    assert others <= ({"C6"} if rule == "C1" else set()), "only the rule under test fails"


PASSING: list[tuple[str, str, Callable[[], OperatorInputs]]] = [
    ("C1", "empty selector", lambda: eligible(groups=[operator_group(NS, "og", selector={})])),
    (
        "C1a",
        "AllNamespaces among others",
        lambda: eligible(csv=csv(NS, CSV_NAME, modes=("OwnNamespace", "AllNamespaces"))),
    ),
    (
        "C2",
        "other properties",
        lambda: eligible(csv=csv(NS, CSV_NAME, annotations=_properties("olm.maxOpenShiftVersion"))),
    ),
    ("C3", "no APIServices", lambda: eligible(csv=csv(NS, CSV_NAME, apiservices=()))),
    # V4.5: an OperatorCondition without status conditions is no use of it
    (
        "C4",
        "empty OperatorCondition",
        lambda: eligible(condition=operator_condition(CSV_NAME, None, ns=NS)),
    ),
    (
        "C5",
        "v0 and v1 API access",
        lambda: eligible(
            csv=csv(
                NS,
                CSV_NAME,
                spec=_permissions(
                    _grant("operators.coreos.com", "subscriptions"),
                    _grant("olm.operatorframework.io", "clusterextensions"),
                ),
            )
        ),
    ),
    (
        "C5",
        "operatorconditions only",
        lambda: eligible(
            csv=csv(
                NS,
                CSV_NAME,
                spec=_permissions(_grant("operators.coreos.com", "operatorconditions")),
            )
        ),
    ),
    ("C6", "no serviceAccountName", lambda: eligible(groups=[operator_group(NS, "og")])),
    (
        "C7",
        "another channel when the Subscription names none",
        lambda: eligible(
            subscription=healthy_subscription(channel=None),
            content={"operatorhubio": content(channels=("fast",))},
        ),
    ),
    (
        "C8",
        "upgrade pending",
        lambda: eligible(subscription=healthy_subscription(state="UpgradePending")),
    ),
    ("C9", "no annotation", lambda: eligible(subscription=healthy_subscription(annotations={}))),
    (
        "C10",
        "bundle lookup of an image catalog",
        lambda: eligible(
            install_plan=install_plan(NS, "install-1", csvs=[(CSV_NAME, None)]),
            catalog_sources={
                ("openshift-marketplace", "cat"): catalog_source("openshift-marketplace", "cat"),
                ("olm", "cat"): catalog_source(),
            },
        ),
    ),
]


@pytest.mark.parametrize(
    ("rule", "inputs"),
    [(rule, inputs) for rule, _, inputs in PASSING],
    ids=[f"{rule}-{case}" for rule, case, _ in PASSING],
)
def test_each_rule_passes_on_its_case(rule: str, inputs: Callable[[], OperatorInputs]) -> None:
    result = _rule(inputs(), rule)
    assert (result.ok, result.known) == (True, True), result.detail


UNKNOWN: list[tuple[str, Callable[[], OperatorInputs], str]] = [
    ("C1a", lambda: eligible(csv=None), "CSV pkg.v1.0.0 is not in the input"),
    ("C7", lambda: eligible(content={}), "content of ClusterCatalog operatorhubio not read"),
    (
        "C4",
        lambda: eligible(unreadable=frozenset({OPERATOR_CONDITION})),
        "OperatorConditions could not be read",
    ),
    (
        "C4",
        lambda: eligible(conditions_read=False),
        "the input holds no OperatorCondition at all",
    ),
    ("C10", lambda: eligible(catalog_sources=None), "is not in the input"),
    ("C10", lambda: eligible(unreadable=frozenset({CATALOG_SOURCE})), "could not be read"),
    (
        "C10",
        lambda: eligible(catalog_sources={}, read_namespaces=frozenset({NS})),
        "is not in the input",
    ),
]


@pytest.mark.parametrize(("rule", "inputs", "detail"), UNKNOWN)
def test_what_the_input_does_not_show_is_unknown_and_never_passes(
    rule: str, inputs: Callable[[], OperatorInputs], detail: str
) -> None:
    result = _rule(inputs(), rule)
    assert (result.ok, result.known) == (False, False)
    assert result.detail.startswith("unknown: ") and detail in result.detail


def test_the_soft_rules_name_the_flag_that_overrides_them_and_the_hard_ones_none() -> None:
    results, _ = rule_results(eligible())
    soft = {r.id: r.soft for r in results if r.soft}
    assert soft == {
        "C1": "--acknowledge-watch-scope-change",
        "C4": "--acknowledge-operator-condition",
        "C5": "--acknowledge-olmv0-api-access",
        "C6": "--acknowledge-scoped-serviceaccount",
        "C8": "--acknowledge-not-steady-state",
    }


def test_of_two_serving_catalogs_the_higher_priority_one_is_matched() -> None:
    low, high = catalog("low", priority=-5), catalog("high", priority=10)
    inputs = eligible(
        cluster_catalogs=[decode_catalog(low), decode_catalog(high)],
        content={"low": content(), "high": content()},
    )
    assert rule_results(inputs)[1].catalog == "high"
