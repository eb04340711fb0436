"""A namespace's timeline read through the indexes (the model's CSVs, Subscriptions and
OperatorGroups by namespace, the cache's other kinds by namespace) equals the timeline of
the same namespace read by a pass over every kind, as it was first made (R-EVD-11): on the
demo and on a real must-gather, for every namespace."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.demo import scenario as s
from olmtui.kinds import EVENT, NAMESPACE, PACKAGE_MANIFEST, POD
from olmtui.model.incremental.engine import Model
from olmtui.model.viewmodels.timeline import Timeline, timeline
from olmtui.model.viewmodels.timeline_objects import namespace_timeline
from olmtui.objects import is_copied_csv
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import CLUSTER_SCOPED, KINDS, Obj, Store

#: A real must-gather (OLM's objects of a CI cluster), and one with Events and OLM's logs.
MUST_GATHERS = (
    DATA / "must-gather/must-gather-clean/must-gather-azure",
    DATA / "logs/must-gather-logs",
)


def _scanned_objects(store: Store, namespace: str) -> Iterator[Obj]:
    """The namespace's objects as the first timeline gathered them: every namespaced kind
    read whole and filtered by namespace."""
    own = store.get(NAMESPACE, "", namespace)
    if own is not None:
        yield own
    for kind in KINDS:
        if kind in (PACKAGE_MANIFEST, EVENT) or kind in CLUSTER_SCOPED:
            continue
        for (ns, _), obj in store.slots(kind):
            if ns == namespace and not is_copied_csv(obj):
                yield obj
    yield from (obj for (ns, _), obj in store.slots(EVENT) if ns == namespace)


def _namespaces(store: Store) -> set[str]:
    found = {name for (_, name), _ in store.slots(NAMESPACE)}
    for kind in KINDS:
        if kind not in CLUSTER_SCOPED:
            found |= {ns for (ns, _), _ in store.slots(kind)}
    return found | {"absent"}


def _same_for_every_namespace(store: Store, model: Model) -> int:
    entries = 0
    for namespace in sorted(_namespaces(store)):
        for limit in (500, 10):
            indexed = namespace_timeline(store, namespace, limit, indexes=model)
            scanned: Timeline = timeline(_scanned_objects(store, namespace), limit)
            assert indexed == scanned, namespace
            entries += len(indexed.entries)
    return entries


def test_the_demo_timelines_equal_a_pass_over_every_kind() -> None:
    store = Store()
    model = Model(store)
    store.apply_many(s.build_scenario("2026-11-21T22:00:00Z").objects)
    assert store.count(POD) > 0
    assert _same_for_every_namespace(store, model) > 0


@pytest.mark.parametrize("root", MUST_GATHERS, ids=lambda p: p.name)
def test_a_must_gather_timelines_equal_a_pass_over_every_kind(root: Path) -> None:
    store = Store()
    model = Model(store)
    load_snapshot([root], store)
    assert _same_for_every_namespace(store, model) > 0


def test_a_namespace_timeline_makes_no_pass_over_a_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """``t`` on a namespace and ``explain NS`` read that namespace's objects only: no kind is
    walked whole (a must-gather's 100,000 Events), so the cost is what the namespace holds."""
    store = Store()
    model = Model(store)
    store.apply_many(s.build_scenario("2026-11-21T22:00:00Z").objects)
    namespace = s.TEAM_B_OPERATORS
    expected = timeline(_scanned_objects(store, namespace), 500)

    def no_pass(*_: object) -> None:
        raise AssertionError("a pass over a whole kind")

    monkeypatch.setattr(store, "slots", no_pass)
    monkeypatch.setattr(store, "items", no_pass)
    assert namespace_timeline(store, namespace, 500, indexes=model) == expected
    assert expected.entries
