"""The cache's names by namespace (``store.NAMESPACE_INDEXED``, and the OperatorGroups'
compact index): listing one namespace of an indexed kind gives what a pass over the kind
gives, in the same order, after any sequence of adds, changes, deletions, relists, Events let
go of for the cap, and copies of the cache."""

from __future__ import annotations

import random

from model_builders import catalog_source, cluster_event, install_plan, job, operator_group, pod

from olmtui.kinds import (
    CSV,
    EVENT,
    OPERATOR_GROUP,
    PACKAGE_MANIFEST,
    POD,
    SUBSCRIPTION,
)
from olmtui.store import CLUSTER_SCOPED, KINDS, NAMESPACE_INDEXED, Obj, Store
from olmtui.store_evidence import EVENTS_PER_OBJECT

NAMESPACES = ("a", "b", "c")


def _scanned(store: Store, kind: str, namespace: str) -> list[Obj]:
    """One namespace of a kind as a pass over the whole kind finds it (the reference)."""
    return [obj for (ns, _), obj in store.slots(kind) if ns == namespace]


def _same_as_a_scan(store: Store) -> None:
    for kind in (*NAMESPACE_INDEXED, OPERATOR_GROUP):
        for namespace in (*NAMESPACES, "", "elsewhere"):
            assert list(store.list(kind, namespace)) == _scanned(store, kind, namespace)


def _some_object(rng: random.Random, step: int) -> Obj:
    namespace = rng.choice(NAMESPACES)
    name = f"o{rng.randrange(6)}"
    made = rng.randrange(6)
    if made == 5:  # bare (kept as its targets) or not, one namespace holding several
        return operator_group(namespace, name, targets=[namespace], bare=step % 2 == 0)
    if made == 0:
        return pod(namespace, name, restarts=step)
    if made == 1:
        return job(namespace, name, failed="BackoffLimitExceeded" if step % 2 else None)
    if made == 2:
        return install_plan(namespace, name, csvs=[(f"x.v{step}", None)])
    if made == 3:
        return catalog_source(namespace, name)
    return cluster_event(
        namespace,
        f"e{rng.randrange(40)}",
        kind=POD,
        obj_name=f"o{rng.randrange(2)}",
        reason="BackOff",
        last=f"2026-05-01T10:{rng.randrange(60):02}:00Z",
    )


def test_the_kinds_a_namespace_is_read_of_are_each_indexed_once() -> None:
    """Every namespaced kind is listed per namespace from an index: the cache's, or the
    model's (CSVs, Subscriptions, OperatorGroups); PackageManifests are catalog content."""
    namespaced = {k for k in KINDS if k not in CLUSTER_SCOPED}
    by_model = {CSV, SUBSCRIPTION, OPERATOR_GROUP}
    assert not NAMESPACE_INDEXED & by_model
    assert namespaced == NAMESPACE_INDEXED | by_model | {PACKAGE_MANIFEST}


def test_random_changes_keep_the_index_equal_to_a_scan() -> None:
    rng = random.Random(27)
    store = Store()
    for step in range(600):
        action = rng.randrange(10)
        if action < 6:
            store.apply("ADDED", _some_object(rng, step))
        elif action < 8:
            store.apply("DELETED", _some_object(rng, step))
        elif action == 8:
            kind = rng.choice([POD, EVENT, OPERATOR_GROUP])
            objects = [_some_object(rng, step) for _ in range(8)]
            store.replace(kind, [o for o in objects if o["kind"] == kind], [rng.choice(NAMESPACES)])
        else:
            store = store.copy()
        if step % 25 == 0:
            _same_as_a_scan(store)
    _same_as_a_scan(store)
    assert store.count(EVENT) > 0 and store.count(POD) > 0 and store.count(OPERATOR_GROUP) > 0


def test_events_let_go_of_for_the_cap_leave_the_index() -> None:
    store = Store()
    events = [
        cluster_event(
            "a",
            f"e{i:02}",
            kind=POD,
            obj_name="p",
            reason="BackOff",
            last=f"2026-05-01T10:{i:02}:00Z",
        )
        for i in range(EVENTS_PER_OBJECT + 5)
    ]
    store.apply_many(events)
    listed = list(store.list(EVENT, "a"))
    assert len(listed) == EVENTS_PER_OBJECT
    assert listed == _scanned(store, EVENT, "a")
    assert {e["metadata"]["name"] for e in listed} == {f"e{i:02}" for i in range(5, 25)}


def test_a_copy_of_the_cache_indexes_on_its_own() -> None:
    store = Store()
    store.apply_many([pod("a", "p1"), pod("a", "p2")])
    trial = store.copy()
    trial.apply("DELETED", pod("a", "p1"))
    trial.apply("ADDED", pod("b", "p3"))
    assert [p["metadata"]["name"] for p in store.list(POD, "a")] == ["p1", "p2"]
    assert list(store.list(POD, "b")) == []
    assert [p["metadata"]["name"] for p in trial.list(POD, "a")] == ["p2"]
    assert [p["metadata"]["name"] for p in trial.list(POD, "b")] == ["p3"]
