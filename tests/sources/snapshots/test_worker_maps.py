"""A parse worker's result (``parallel_load.parse_in_worker``): copies' labels and
annotations sent once per worker and put back by the loader, and a document too deep to
pickle parsed by the loader instead of failing the load."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import pytest
from data_paths import ROOT

from olmtui.sources.snapshots import parallel_load
from olmtui.sources.snapshots.snapshot_files import SourceFile, path_content
from olmtui.sources.snapshots.worker_maps import ReceivedMaps, SentMaps

sys.path.insert(0, str(ROOT / "bench"))
from gen_snapshot import Sizes, generate


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[SourceFile]:
    root = tmp_path_factory.mktemp("generated")
    generate(root, Sizes(namespaces=8, global_operators=3, single_operators=1, subscriptions=2))
    files = [f for f in path_content(root, "snap").files if "app-" in str(f.path)]
    assert len(files) > 2
    return files


def sent_once_each(references: list[Any]) -> bool:
    """Every map numbered in these references comes with its first one, and only there."""
    seen: set[int] = set()
    for _, _, number, mapping in references:
        if (number in seen) != (mapping is None):
            return False
        seen.add(number)
    return True


def test_a_worker_sends_each_copy_s_maps_once_and_the_loader_puts_them_back(
    files: list[SourceFile], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel_load, "_sent_maps", SentMaps())
    maps = ReceivedMaps()
    results = [parallel_load.parse_in_worker([f], True) for f in files]
    sent = [pickle.loads(r[1])[1] for r in results if r is not None]
    assert len(sent) == len(files)
    first, later = sent[0], [ref for refs in sent[1:] for ref in refs]
    assert first and sent_once_each(first)
    assert later and all(mapping is None for *_, mapping in later)
    assert len(pickle.dumps(results[1])) < 0.6 * len(pickle.dumps(results[0]))
    unpacked = [
        parallel_load._unpacked(r, [f], True, maps)[0] for r, f in zip(results, files, strict=True)
    ]
    assert unpacked == [parallel_load.parse_file(f, True) for f in files]
    copies = [d.value["metadata"] for _, docs in unpacked for d in docs]
    shared = [m["annotations"] for m in copies if "olm.copiedFrom" in m.get("labels", {})]
    assert len(shared) > len(files)
    assert len({id(m) for m in shared}) == len({repr(m) for m in shared})  # one object each


def test_a_batch_sends_each_map_once_and_the_loader_puts_it_in_every_copy(
    files: list[SourceFile], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files of one batch are pickled together: a map met in several of its copies is
    numbered and sent once, and each copy gets the one object back."""
    monkeypatch.setattr(parallel_load, "_sent_maps", SentMaps())
    result = parallel_load.parse_in_worker(files, True)
    assert result is not None
    references = pickle.loads(result[1])[1]
    assert sent_once_each(references)
    assert len({number for _, _, number, _ in references}) < len(references)
    unpacked = parallel_load._unpacked(result, files, True, ReceivedMaps())
    assert unpacked == [parallel_load.parse_file(f, True) for f in files]
    copies = [d.value["metadata"] for _, docs in unpacked for d in docs]
    shared = [m["annotations"] for m in copies if "olm.copiedFrom" in m.get("labels", {})]
    assert len({id(m) for m in shared}) == len({repr(m) for m in shared})


def test_a_result_that_cannot_be_pickled_numbers_nothing(
    files: list[SourceFile], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The maps of a result never sent are sent again with the next one."""
    monkeypatch.setattr(parallel_load, "_sent_maps", SentMaps())
    real_dumps = pickle.dumps

    def too_deep(*_: object, **__: object) -> bytes:
        raise RecursionError("maximum recursion depth exceeded while pickling an object")

    monkeypatch.setattr(pickle, "dumps", too_deep)
    assert parallel_load.parse_in_worker([files[0]], True) is None
    monkeypatch.setattr(pickle, "dumps", real_dumps)
    result = parallel_load.parse_in_worker([files[1]], True)
    assert result is not None
    references = pickle.loads(result[1])[1]
    assert references and sent_once_each(references)


def test_a_document_deeper_than_pickle_goes_comes_back_parsed_by_the_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """990 levels load (the limit is 1,000) but do not pickle: the pool once failed the whole
    load on it with a RecursionError."""
    deep = "[" * 990 + "]" * 990
    head = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: y}\n"
    (tmp_path / "a.yaml").write_text(f"{head}data:\n  d: {deep}\n")
    (tmp_path / "b.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: y}\n")
    listed = list(path_content(tmp_path, "snap").files)
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 0)
    pooled = list(parallel_load.parsed_files(iter(listed), workers=2))
    assert [doc.problem for _, docs in pooled for doc in docs] == [None, None]
    assert pooled[1] == parallel_load.parse_file(listed[1], True)
    levels, node = 0, pooled[0][1][0].value["data"]["d"]
    while isinstance(node, list):
        levels, node = levels + 1, node[0] if node else None
    assert levels == 990
