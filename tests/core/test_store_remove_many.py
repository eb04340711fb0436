"""``Store.remove_many``: many removals published as one batch (a replay's time cursor moving
back), each as ``_remove`` makes it, and keys the cache does not hold or keep ignored."""

from __future__ import annotations

from model_builders import catalog_source, csv, namespace

from olmtui.kinds import CATALOG_SOURCE, CSV, NAMESPACE
from olmtui.store import ACCESS, Change, Key, Store


def test_removals_are_one_batch_and_unknown_keys_are_ignored() -> None:
    store = Store()
    store.apply_many([namespace("a"), csv("a", "x.v1"), catalog_source("a", "cat")])
    batches: list[list[Change]] = []
    store.subscribe(batches.append)
    gone = [
        Key(CSV, "a", "x.v1"),
        Key(NAMESPACE, "", "a"),
        Key(CSV, "a", "not-there"),
        Key(ACCESS, "", "Subscription"),  # not an object kind: not the store's to remove
    ]
    changes = store.remove_many(gone)
    assert [(c.type, c.key) for c in changes] == [
        ("DELETED", Key(CSV, "a", "x.v1")),
        ("DELETED", Key(NAMESPACE, "", "a")),
    ]
    assert batches == [changes]
    assert list(store.list(CATALOG_SOURCE, "a")) and store.get(CSV, "a", "x.v1") is None
    assert store.remove_many([]) == [] and len(batches) == 1  # nothing removed: nothing said
