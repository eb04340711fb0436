"""X-ray says "no access" where the user may not read the kind (R-SRC-3), and "not in the
cache" where the input simply does not hold the object: both unknown, never missing."""

from __future__ import annotations

from model_builders import csv, model_of

from olmtui.model.viewmodels.xray import CopyFacts, csv_node

NS = "ops"


def _deployment_labels(unreadable: frozenset[str]) -> list[str]:
    the_csv = csv(NS, "foo.v1", owned=(("Foo", "v1", "foos.example.com"),))
    the_csv["spec"]["install"] = {"spec": {"deployments": [{"name": "foo-operator"}]}}
    model, store = model_of(the_csv)
    node = csv_node(model.csv(NS, "foo.v1"), store.get, {}, CopyFacts(), unreadable=unreadable)
    return [leaf.label for child in node.children[:2] for leaf in child.children]


def test_an_unreadable_kind_is_no_access_not_absent() -> None:
    assert _deployment_labels(frozenset()) == [
        "Deployment foo-operator: not in the cache",
        "CRD foos.example.com: not in the cache",
    ]
    assert _deployment_labels(frozenset({"Deployment"})) == [
        "Deployment foo-operator: no access",
        "CRD foos.example.com: not in the cache",
    ]
