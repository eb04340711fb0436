"""``GroupIndex``: OperatorGroups by namespace, a namespace's lone group held as its name
alone and every group read from where it is kept, never held (``check`` stays under 1 GB on
any input of 100 MB or less)."""

from __future__ import annotations

import tracemalloc

from model_builders import operator_group

from olmtui.model.incremental.group_index import GroupIndex
from olmtui.objects import Obj


def group(namespace: str, name: str, *targets: str) -> Obj:
    return operator_group(namespace, name, targets=list(targets) or None)


def test_groups_come_and_go_in_their_namespace() -> None:
    kept: dict[tuple[str, str], Obj] = {}
    index = GroupIndex(lambda namespace, name: kept.get((namespace, name)))
    one, two = group("a", "one", "a"), group("a", "two", "b")
    kept["a", "one"], kept["a", "two"] = one, two
    index.add(("a", "one"), one)
    assert index.in_namespace("a") == {"one": one}
    assert index.get(("a", "one")) is one and index.get(("a", "two")) is None
    replaced = kept["a", "one"] = group("a", "one", "c")
    index.remove(("a", "one"), one)
    index.add(("a", "one"), replaced)
    assert index.in_namespace("a") == {"one": replaced}
    index.add(("a", "two"), two)
    assert index.in_namespace("a") == {"one": replaced, "two": two}
    assert index.listing("b") == {("a", "two")} and index.listing("c") == {("a", "one")}
    index.remove(("a", "one"), replaced)
    assert index.in_namespace("a") == {"two": two} and index.listing("c") == frozenset()
    index.remove(("a", "two"), two)
    index.remove(("a", "two"), two)
    assert index.in_namespace("a") == {} and index.get(("a", "two")) is None
    kept["b", "x"] = group("b", "x")
    index.add(("b", "x"), kept["b", "x"])
    index.remove(("b", "y"), None)
    assert list(index.in_namespace("b")) == ["x"]


def test_a_namespace_of_one_group_costs_no_dict() -> None:
    keys = [(f"ns-{i}", "og") for i in range(10_000)]
    groups = [group(*key, key[0]) for key in keys]
    index = GroupIndex(lambda namespace, name: None)
    tracemalloc.start()
    try:
        for key, og in zip(keys, groups, strict=True):
            index.add(key, og)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the index's own tables and a small record a group (~1.6 MB): a dict of one a namespace
    # adds 1.3 MB, sets of one a listed name 2 MB more
    assert held < 2_200_000
