"""``Store.copy``: a cache holding the same objects, whose changes leave the original as it
was and reach only the copy's subscribers (the simulation's copy, pipeline/simulation.py)."""

from __future__ import annotations

from model_builders import namespace, operator_group, subscription

from olmtui.store import Store


def test_a_copy_changes_alone() -> None:
    store = Store()
    store.apply_many([namespace("team"), operator_group("team", "og"), subscription("team", "s")])
    store.read_namespaces = frozenset({"team"})
    heard: list[object] = []
    store.subscribe(heard.append)
    other = store.copy()
    assert other.get("OperatorGroup", "team", "og") is store.get("OperatorGroup", "team", "og")
    assert other.read_namespaces == store.read_namespaces
    other.apply("DELETED", other.get("Subscription", "team", "s") or {})
    other.apply("ADDED", operator_group("team", "second"))
    other.apply("DELETED", other.get("Namespace", "", "team") or {})
    assert store.get("Subscription", "team", "s") is not None
    assert store.get("OperatorGroup", "team", "second") is None
    assert store.get("Namespace", "", "team") is not None
    assert len(store) == 3 and len(other) == 2
    assert heard == []  # the original's subscribers hear nothing of the copy
