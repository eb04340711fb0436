"""What a million small objects cost (``check`` under 1 GB on any input of
100 MB or less): the cache, the model's first build and the YAML split, measured with
``tracemalloc`` on a few thousand objects (``bench/bench_hostile_rss.py`` measures the real
runs). The bounds are bytes per object, each well between what the fix costs and what the
code before it did (noted in each test), so a small change of CPython's sizes moves neither.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from data_paths import ROOT, TESTS
from hostile_text import namespaces_yaml

from olmtui.model.incremental import engine
from olmtui.model.incremental.engine import Model
from olmtui.pipeline.build import sample_session, snapshot_session
from olmtui.pipeline.session import Session
from olmtui.report import dumps
from olmtui.sources.snapshots import parallel_load, snapshot, snapshot_documents
from olmtui.sources.snapshots.snapshot_documents import parse_documents
from olmtui.sources.snapshots.snapshot_objects import objects_in
from olmtui.store import Store

sys.path.insert(0, str(ROOT / "bench"))
from gen_snapshot import Sizes, generate

DATA = TESTS / "data"
#: Objects measured: enough that per-object costs drown the fixed ones.
COUNT = 20_000


def _objects(data: bytes) -> Iterator[object]:
    return (document.value for document in parse_documents(data, json_format=False))


@pytest.fixture
def traced() -> Iterator[None]:
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()


def test_a_yaml_stream_is_split_as_its_documents_are_taken(traced: None) -> None:
    """Where every document starts was a list of ints made before the first one was
    parsed: 64 MB beside the cache for 1,600,000 Namespaces (~40 bytes a document)."""
    data = namespaces_yaml(COUNT)
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    documents = parse_documents(data, json_format=False)
    first = next(documents)
    assert first.value["metadata"]["name"] == "ns-0000000"
    assert tracemalloc.get_traced_memory()[1] - before < COUNT * 5
    assert sum(1 for _ in documents) == COUNT - 1


def test_a_large_yaml_stream_lets_go_of_the_documents_taken(
    traced: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 100 MB of a stream of 1,600,000 Namespaces were held until its last document was
    cached: a large stream gives back its bytes as its documents are taken."""
    monkeypatch.setattr(snapshot_documents, "RELEASED_BYTES", 0)
    size = len(namespaces_yaml(COUNT))
    before = tracemalloc.get_traced_memory()[0]
    documents = parse_documents(namespaces_yaml(COUNT), json_format=False)
    for _ in range(COUNT - 100):
        next(documents)
    assert tracemalloc.get_traced_memory()[0] - before < size / 4
    assert sum(1 for _ in documents) == 100


def test_a_cached_namespace_costs_its_object_and_name_only(traced: None) -> None:
    """A cluster-scoped object is kept under its name, not a ``("", name)`` tuple: ~450
    bytes a Namespace (its two maps and its name), ~530 with the tuple."""
    data = namespaces_yaml(COUNT)
    store = Store()
    before = tracemalloc.get_traced_memory()[0]
    store.apply_many(_objects(data))
    assert store.count("Namespace") == COUNT
    assert (tracemalloc.get_traced_memory()[0] - before) / COUNT < 490


def test_the_first_build_holds_one_batch_at_a_time(
    traced: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model's first build made a change record for every cached object at once, and
    marked them all to recompute in one set: ~260 bytes an object beside the cache while it
    ran (~20 with batches). It keeps nothing of a Namespace: it reads the labels from the
    cache, where an index of them, with a copy of each, was ~100 bytes a Namespace."""
    monkeypatch.setattr(engine, "INITIAL_BATCH", 1000)
    store = Store()
    store.apply_many(_objects(namespaces_yaml(COUNT)))
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    model = Model(store)
    kept, peak = tracemalloc.get_traced_memory()
    assert len(model.namespaces()) == COUNT
    assert (kept - before) / COUNT < 20
    assert (peak - kept) / COUNT < 60


def _reports(sessions: list[Session]) -> list[str]:
    return [dumps(session.analysis.report()) for session in sessions]


@pytest.mark.parametrize("batch", [1, 7])
def test_the_first_build_in_batches_derives_what_one_batch_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """A snapshot of more objects than a batch is derived batch by batch, as a live list
    feeds the model: the report is the same, copies, groups and findings alike."""
    sizes = Sizes(namespaces=30, global_operators=2, single_operators=6, subscriptions=12)
    generate(tmp_path, sizes)
    must_gather = DATA / "must-gather/must-gather-clean/must-gather-aws"
    paths = [[str(tmp_path)], [str(must_gather)], [str(DATA / "model/qa")]]

    def sessions() -> list[Session]:
        return [sample_session(), *(snapshot_session(p) for p in paths)]

    whole = _reports(sessions())
    monkeypatch.setattr(engine, "INITIAL_BATCH", batch)
    assert _reports(sessions()) == whole


def _json_list(count: int, kind: str = "List") -> bytes:
    item = b'{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n%07d"}}'
    items = b",".join(item % index for index in range(count))
    return b'{"apiVersion":"v1","kind":"%s","items":[%s]}\n' % (kind.encode(), items)


def test_a_large_json_list_is_decoded_as_its_items_are_taken(traced: None) -> None:
    """A 98 MB List of 1,400,000 Namespaces was ~700 MB of objects at once beside the cache
    filled from them: ~540 bytes an item held once the first is taken, ~280 at half way.
    Its items are decoded as they are taken, each one's bytes given back then."""
    before = tracemalloc.get_traced_memory()[0]
    (document,) = parse_documents(_json_list(COUNT), json_format=True, lazy_lists=True)
    found = objects_in(document.value, release=True)
    assert next(found)["metadata"]["name"] == "n0000000"  # type: ignore[index]
    assert (tracemalloc.get_traced_memory()[0] - before) / COUNT < 200
    for _ in range(COUNT // 2):
        next(found)
    assert (tracemalloc.get_traced_memory()[0] - before) / COUNT < 100
    assert sum(1 for _ in found) == COUNT - 1 - COUNT // 2


_ITEM = '{"metadata":{"name":"a","namespace":"x"},"spec":{"n":%s}}'
_SURROGATE_ITEM = _ITEM % '"\\ud800"'


@pytest.mark.parametrize(
    "text",
    [
        # a typed list names its items' kind and apiVersion once
        '{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersionList",'
        f'"metadata":{{"resourceVersion":"1"}},"items":[{_ITEM % 1},{_ITEM % 2}, null, 3]}}',
        # what msgspec refuses in an item (NaN, a lone surrogate): the whole file as before
        f'{{"kind":"List","items":[{_ITEM % 1},{_ITEM % "NaN"}]}}',
        f'{{"kind":"List","items":[{_ITEM % 1},{_SURROGATE_ITEM}]}}',
        '{"kind":"List","items":{"a":1}}',
        '{"kind":"List","items":null}',
        '{"kind":"List"}',
        '{"kind":"Namespace","items":[1]}',
        '[{"kind":"List","items":[]}]',
        '{"kind":"List","items":[]} {"kind":"List","items":[1]}',
        '{"kind":"List","items":[1,]}',
        '{"kind":"List","items":[{"a":1}], "items":[{"b":2}]}',
    ],
)
def test_a_json_list_decoded_item_by_item_is_the_list_decoded_whole(text: str) -> None:
    data = text.encode()
    whole = list(parse_documents(data, json_format=True))
    lazy = list(parse_documents(data, json_format=True, lazy_lists=True))
    assert [(d.line, d.problem) for d in lazy] == [(d.line, d.problem) for d in whole]
    for taken, expected in zip(lazy, whole, strict=True):
        if taken.value is not None:
            assert list(objects_in(taken.value, release=True)) == list(
                objects_in(expected.value, release=True)
            )


def test_a_large_json_list_loads_as_it_did_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader's large files (``STREAMED_FILE_BYTES``) take a List's items one by one:
    the cache and the report are those of the List read whole."""
    path = tmp_path / "namespaces.json"
    path.write_bytes(_json_list(50))
    good = (DATA / "hostile/good.yaml").read_text()
    (tmp_path / "good.yaml").write_text(good)
    whole = dumps(snapshot_session([str(tmp_path)]).analysis.report())
    monkeypatch.setattr(parallel_load, "STREAMED_FILE_BYTES", 100)
    session = snapshot_session([str(tmp_path)])
    assert session.store.count("Namespace") >= 50
    assert dumps(session.analysis.report()) == whole


def _inferred_groups(count: int) -> bytes:
    return b"".join(
        b"---\napiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata:\n"
        b"  name: og\n  namespace: ns-%07d\nspec:\n  targetNamespaces:\n  - ns-%07d\n"
        % (index, index)
        for index in range(count)
    )


def test_a_bare_or_inferred_namespace_is_kept_by_its_name(traced: None) -> None:
    """A Namespace that says only its name, or one the loader makes up, is kept as a shared
    form and built again when read: ~450 bytes a bare one and ~740 an inferred one were
    their dicts; now the cache's entry and the name."""
    store = Store()
    store.add_form(snapshot.INFERRED_NAMESPACE)
    names = [sys.intern(f"ns-{index:07d}") for index in range(COUNT)]
    before = tracemalloc.get_traced_memory()[0]
    store.apply_many(snapshot.inferred_namespace(name) for name in names)
    assert (tracemalloc.get_traced_memory()[0] - before) / COUNT < 120
    assert store.get("Namespace", "", "ns-0000007") == snapshot.inferred_namespace("ns-0000007")
    bare = Store()
    before = tracemalloc.get_traced_memory()[0]
    bare.apply_many(_objects(namespaces_yaml(COUNT)))
    assert (tracemalloc.get_traced_memory()[0] - before) / COUNT < 200
    assert list(bare.list("Namespace"))[3] == {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": "ns-0000003"},
    }


def test_groups_in_inferred_namespaces_cost_their_group_only(tmp_path: Path, traced: None) -> None:
    """400,000 OperatorGroups in namespaces the snapshot lacks made ``check`` peak at 1.5 GiB:
    each group's inferred Namespace (~740 bytes), its own empty view of the other groups
    (~250), sets of the Active and inferred Namespaces (~80) and its name and target as
    strings of their own (~110). The whole session, cache and model, now costs under
    2 KB a group (~2.8 KB before)."""
    count = COUNT // 4
    path = tmp_path / "groups.yaml"
    path.write_bytes(_inferred_groups(count))
    before = tracemalloc.get_traced_memory()[0]
    session = snapshot_session([str(path)])
    assert len(session.model.namespaces()) == count
    assert (tracemalloc.get_traced_memory()[0] - before) / count < 2000
