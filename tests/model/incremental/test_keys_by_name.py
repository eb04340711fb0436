"""``KeysByName``: the model's reverse lookups from a namespace to the groups mentioning it,
a lone key held without a set (``check`` stays under 1 GB on any input of 100 MB
or less), and the shared empty API set of groups that claim nothing."""

from __future__ import annotations

import tracemalloc

from olmtui.model.incremental.keys_by_name import KeysByName
from olmtui.model.rules.apis.reconcile import parse_provided_apis


def test_keys_come_and_go_by_name() -> None:
    index = KeysByName()
    assert index.get("a") == frozenset()
    index.add("a", ("ns", "one"))
    index.add("a", ("ns", "one"))
    assert index.get("a") == {("ns", "one")}
    index.add("a", ("ns", "two"))
    index.add("b", ("ns", "two"))
    assert index.get("a") == {("ns", "one"), ("ns", "two")}
    index.discard("a", ("ns", "one"))
    assert index.get("a") == {("ns", "two")}
    index.discard("a", ("ns", "two"))
    index.discard("a", ("ns", "two"))
    index.discard("c", ("ns", "two"))
    assert index.get("a") == frozenset()
    assert index.get("b") == {("ns", "two")}
    index.discard("b", ("ns", "one"))
    assert index.get("b") == {("ns", "two")}
    index.discard("b", ("ns", "two"))
    assert index.get("b") == frozenset()


def test_a_name_mentioned_once_costs_no_set() -> None:
    keys = [(f"ns-{i}", "og") for i in range(10_000)]
    names = [k[0] for k in keys]
    index = KeysByName()
    tracemalloc.start()
    try:
        for name, key in zip(names, keys, strict=True):
            index.add(name, key)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the dict's own table only: a set of one per name would add 2 MB
    assert held < 1_000_000


def test_groups_claiming_no_apis_share_one_empty_set() -> None:
    assert parse_provided_apis(None) is parse_provided_apis("")
    assert parse_provided_apis("x") is parse_provided_apis(None)
    assert parse_provided_apis("Kind.v1.group") == {"Kind.v1.group"}
