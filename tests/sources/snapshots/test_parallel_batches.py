"""Parse workers take a must-gather's small files in batches (``parallel_load._batches``):
one task per file cost more CPU than the parse of a 15 KB file. The store gets
the same objects in the same order as from one process, and a pool that breaks between
batches loses no file."""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from data_paths import ROOT

from olmtui.sources.snapshots import parallel_load
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.sources.snapshots.snapshot_files import SourceFile
from olmtui.store import KINDS, Store

sys.path.insert(0, str(ROOT / "bench"))
from gen_snapshot import Extras, Sizes, generate


@pytest.fixture(scope="module")
def must_gather(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("must-gather")
    sizes = Sizes(namespaces=6, global_operators=3, single_operators=3, subscriptions=4)
    generate(root, sizes, layout="must-gather", extras=Extras(pods=7, events=9, jobs=2))
    return root


def loaded(root: Path, workers: int) -> Any:
    store = Store()
    result = load_snapshot([root], store, workers=workers)
    return {kind: list(store.slots(kind)) for kind in KINDS}, result


def counting_submits(monkeypatch: pytest.MonkeyPatch, fail_after: int | None = None) -> list[int]:
    """The number of files of each task the pool is given; from the ``fail_after``-th on,
    the submit fails as on a pool whose worker was killed."""
    sizes: list[int] = []
    submit: Callable[..., Any] = ProcessPoolExecutor.submit

    def counted(pool: Any, function: Any, sources: Any, *args: Any) -> Any:
        if fail_after is not None and len(sizes) >= fail_after:
            raise BrokenProcessPool("a worker died")
        sizes.append(len(sources) if isinstance(sources, list) else 1)
        return submit(pool, function, sources, *args)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", counted)
    return sizes


def test_a_must_gather_goes_to_the_workers_in_batches_and_loads_as_in_one_process(
    must_gather: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = loaded(must_gather, workers=1)
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 0)
    monkeypatch.setattr(parallel_load, "BATCH_FILES", 8)
    tasks = counting_submits(monkeypatch)
    assert loaded(must_gather, workers=2) == alone
    files = sum(tasks)
    assert files > 40
    assert max(tasks) == 8
    assert len(tasks) == -(-files // 8)  # one task per 8 files, not one per file


def test_a_batch_holds_at_most_its_bytes_and_a_large_file_is_parsed_here(
    tmp_path: Path,
) -> None:
    """Batches are cut at ``BATCH_BYTES``; a file over ``STREAMED_FILE_BYTES`` is a batch of
    its own that no worker gets."""
    files = []
    for name, size in (("a", 10), ("b", 10), ("c", 15), ("d", 100), ("e", 5)):
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(b"#" * size)
        files.append(SourceFile(name, b"", False, path=str(path)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel_load, "BATCH_BYTES", 30)
        patch.setattr(parallel_load, "STREAMED_FILE_BYTES", 50)
        batches = [([f.name for f in b], large) for b, large in parallel_load._batches(iter(files))]
    assert batches == [(["a", "b"], False), (["c"], False), (["d"], True), (["e"], False)]


@pytest.mark.parametrize("fail_after", [0, 1, 3])
def test_a_pool_that_breaks_between_batches_leaves_every_file_to_this_process(
    must_gather: Path, monkeypatch: pytest.MonkeyPatch, fail_after: int
) -> None:
    """Whichever batch's submit fails (the first, or one after the loader has taken some
    and the batcher holds a file for the next), every file is parsed once, in order."""
    alone = loaded(must_gather, workers=1)
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 0)
    monkeypatch.setattr(parallel_load, "BATCH_FILES", 5)
    monkeypatch.setattr(parallel_load, "AHEAD_PER_WORKER", 1)
    counting_submits(monkeypatch, fail_after)
    assert loaded(must_gather, workers=2) == alone


def test_a_batch_comes_back_as_parsed_here_with_the_loaders_own_names(tmp_path: Path) -> None:
    """A worker sends a file's name back only when it is not the one it was given (the
    loader holds that one): each file comes back as parsed in this process, an unreadable
    one with why, an archive's member as a member."""
    good = tmp_path / "ns.yaml"
    good.write_text("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n")
    given = [
        SourceFile(str(good), b"", False, path=str(good)),
        SourceFile(str(tmp_path / "gone.yaml"), b"", False, path=str(tmp_path / "gone.yaml")),
        SourceFile(
            "archive.tgz:b.yaml", b"kind: Namespace\napiVersion: v1\nmetadata: {name: b}\n", False
        ),
    ]
    result = parallel_load.parse_in_worker(given, True)
    back = parallel_load._unpacked(result, given, True, parallel_load.ReceivedMaps())
    assert back == [parallel_load.parse_file(source, True) for source in given]
    assert [source.name for source, _ in back] == [source.name for source in given]
    assert all(got.name is sent.name for (got, _), sent in zip(back, given, strict=True))
    assert back[1][0].error is not None and back[1][1] == []
