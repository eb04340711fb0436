"""Parse the files of a snapshot on every core, handing them back in file order.

A must-gather is thousands of files and parsing them is nearly all of a load, so the files
go to a pool of worker processes (one per core) and come back as parsed documents. The
loader takes them in the order the files were listed, whichever worker finishes first, so
the store gets the same objects in the same order as from a load in one process: the
result does not depend on the pool.

Small inputs stay in-process: a pool costs time to start, more than parsing a few files
takes. Workers are forked when this process runs one thread (``check``: no start-up cost,
nothing imported again); with more threads (the dashboard) they are spawned, so that no
thread's locks are copied mid-flight, and spawned workers import the main script again
(the ``if __name__ == "__main__"`` guard olmtui's entry points have). Only a few batches per
worker are in flight at once, so a large snapshot is never all in memory.

Files go to the pool in batches of consecutive files (up to :data:`BATCH_FILES` files or
:data:`BATCH_BYTES` bytes): a must-gather holds one object per file, and handing a worker
one file at a time (a task pickled, queued, sent, its result sent back and its future
settled, for each of 8,850 files of 15 KB) cost more CPU than parsing them.

A directory's files are read where they are parsed: a worker gets a path, not the bytes,
and hands back the file without its bytes. Pickling a file's bytes, pushing them through a
pipe and unpickling them cost more CPU than reading it again from the page cache (~0.8 s
of 1.2 s at 415 MB); an archive's members, read once from the stream, are still sent.
Copies' labels and annotations come back once per worker (``worker_maps``). A batch goes
out as each file's fields (a tuple pickles in C, a frozen dataclass through Python-level
state methods) and comes back without the names the loader gave (a must-gather path was a
third of what a batch of copies sent back).

A worker pickles its result itself: a document can nest deeper than pickle recurses
(``MAX_DEPTH`` levels load, pickle stops short of 1,000), and such a file is then parsed
by the loader instead, as in one process.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import fields
from itertools import chain
from multiprocessing import resource_tracker
from operator import attrgetter

from olmtui.gc_pause import cyclic_gc_paused
from olmtui.sources.snapshots.snapshot_documents import Document, parse_documents
from olmtui.sources.snapshots.snapshot_files import SourceFile, read_source
from olmtui.sources.snapshots.worker_maps import ReceivedMaps, SentMaps

#: Bytes read ahead before deciding: an input that ends before this is parsed in-process.
POOL_THRESHOLD = 32 * 1024 * 1024
#: Batches handed to each worker ahead of the one the loader waits for.
AHEAD_PER_WORKER = 4
#: At most this many files go to a worker in one task...
BATCH_FILES = 64
#: ...and a task's files hold at most this many bytes (a file larger is a batch of its own).
BATCH_BYTES = 1024 * 1024
#: A file larger than this is parsed by the loader, one document at a time as it takes them
#: (:func:`parse_streamed`), never as a whole list, in a worker or not. Must-gather files
#: are far smaller; one large file gains nothing from a worker anyway.
STREAMED_FILE_BYTES = 16 * 1024 * 1024


Parsed = tuple[SourceFile, list[Document]]
#: A file and its documents, in a list or parsed as they are taken (a large file).
Loaded = tuple[SourceFile, Iterable[Document]]


def parse_file(source: SourceFile, fast: bool) -> Parsed:
    """The file as read, without its bytes (nothing needs them once parsed, and a worker
    would send them back), and every document of it that is not empty (none when it could
    not be read): a file of a million empty documents holds nothing to keep."""
    with cyclic_gc_paused():
        return _parsed(source, fast)


def _parsed(source: SourceFile, fast: bool) -> Parsed:
    """:func:`parse_file` with the collector paused by the caller (a worker, once a batch:
    pausing it costs ~3 us, and a batch is 64 files)."""
    source, documents = parse_streamed(source, fast)
    return source, list(documents)


def parse_streamed(source: SourceFile, fast: bool, *, lazy_lists: bool = False) -> Loaded:
    """:func:`parse_file`, its documents parsed one at a time as the caller takes them:
    a 64 MB file of a million Namespaces is a GiB of objects as a list (and a worker's
    pickle of them besides), while the store keeps a third of that. ``lazy_lists``: a
    JSON List's items are decoded one at a time too (``json_list_items``)."""
    source, data = read_source(source)
    if source.error is not None:
        return source, []
    documents = parse_documents(
        data,
        json_format=source.json_format,
        fast=fast,
        lazy_lists=lazy_lists,
        pod_events_of=source.pod_events_of,
    )
    del data  # held by the documents' generator alone, which may let it go (large files)
    kept = (d for d in documents if d.value is not None or d.problem is not None)
    return source, kept


#: A worker's result for a batch of files: its process id and the pickled files,
#: references and all; ``None`` when they could not be pickled (the loader parses them).
WorkerResult = tuple[int, bytes] | None

_sent_maps = SentMaps()


def parse_in_worker(sources: list[SourceFile], fast: bool) -> WorkerResult:
    """:func:`parse_file` of each file of a batch in a worker, pickled here as one (what the
    files share, such as a copy's status and its keys, goes once) with each copy's shared
    maps sent once."""
    with cyclic_gc_paused():  # parsed values and their pickle hold no cycle
        parsed = [_parsed(source, fast) for source in sources]
        references, new = _sent_maps.take_out([d for _, documents in parsed for d in documents])
        sent = [
            (_sent_source(s, given), [_document_values(d) for d in docs])
            for (s, docs), given in zip(parsed, sources, strict=True)
        ]
        try:
            payload = pickle.dumps((sent, references), protocol=pickle.HIGHEST_PROTOCOL)
        except RecursionError:
            return None
    _sent_maps.commit(new)
    return os.getpid(), payload


def _parse_task(sources: list[tuple[object, ...]], fast: bool) -> WorkerResult:
    """:func:`parse_in_worker` of a batch handed to the pool as each file's fields: a
    frozen dataclass pickles through Python-level state methods both ways (~6 us a file,
    in the loader's queue thread and in the worker), a tuple in C."""
    return parse_in_worker([SourceFile(*values) for values in sources], fast)  # type: ignore[arg-type]


#: A file's and a document's fields, as they cross the pipe: tuples pickle in C, the frozen
#: dataclasses through Python-level state methods (~6 us each way for each of a
#: must-gather's thousands of files and documents).
_source_values = attrgetter(*(f.name for f in fields(SourceFile)))
_document_values = attrgetter(*(f.name for f in fields(Document)))


def _sent_source(source: SourceFile, given: SourceFile) -> tuple[object, ...]:
    """A file's fields as a worker sends them back: its name (a must-gather path of some
    300 characters, a third of what a batch sends) left out as ``None`` when it is the
    name the loader gave, which the loader still holds."""
    values = _source_values(source)
    return (None, *values[1:]) if source.name == given.name else values


def _unpacked(
    result: WorkerResult, sources: list[SourceFile], fast: bool, maps: ReceivedMaps
) -> list[Parsed]:
    """A worker's result as :func:`parse_file` gives each of its files in this process."""
    if result is None:
        return [parse_file(source, fast) for source in sources]
    worker, payload = result
    sent, references = pickle.loads(payload)
    parsed = [
        (
            SourceFile(given.name, *values[1:]) if values[0] is None else SourceFile(*values),
            [Document(*d) for d in docs],
        )
        for (values, docs), given in zip(sent, sources, strict=True)
    ]
    maps.put_back(worker, [d for _, documents in parsed for d in documents], references)
    return parsed


def ready_to_spawn(listed_bytes: int) -> None:
    """Start multiprocessing's resource tracker now, while this process's stderr is its own,
    when a load of ``listed_bytes`` will take a pool: the dashboard's pool is spawned later
    from its loading thread, once Textual has put a stand-in without a file descriptor in
    place of ``sys.stderr``, and starting the tracker then fails ("bad value(s) in
    fds_to_keep"), which failed the whole ``replay``."""
    if listed_bytes >= POOL_THRESHOLD and worker_count() > 1:
        resource_tracker.ensure_running()


def worker_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parsed_files(
    files: Iterable[SourceFile], *, fast: bool = True, workers: int | None = None
) -> Iterator[Loaded]:
    """Each file with its documents, in the order of ``files``. ``workers``: processes to
    parse in (``None``: one per core; 1: in-process)."""
    workers = worker_count() if workers is None else workers
    pending = iter(files)
    head: list[SourceFile] = []
    size = 0
    if workers > 1:
        for source in pending:
            head.append(source)
            size += _size(source)
            if size >= POOL_THRESHOLD:
                break
    everything = chain(_drained(head), pending)
    if workers <= 1 or size < POOL_THRESHOLD:
        for source in everything:
            yield _parsed_here(source, fast)
        return
    yield from _in_pool(everything, fast, workers)


def _parsed_here(source: SourceFile, fast: bool) -> Loaded:
    """A file parsed in this process: streamed when it is large."""
    if _size(source) > STREAMED_FILE_BYTES:
        return parse_streamed(source, fast, lazy_lists=True)
    return parse_file(source, fast)


def _size(source: SourceFile) -> int:
    """A file's bytes, read or not yet (0 when it cannot be stat'ed: its read says why)."""
    if source.path is None:
        return len(source.data)
    if source.listed_size is not None:
        return source.listed_size
    try:
        return os.stat(source.path).st_size
    except OSError:
        return 0


def _drained(files: list[SourceFile]) -> Iterator[SourceFile]:
    """The files, each let go once taken (their bytes are not kept for the whole load)."""
    files.reverse()
    while files:
        yield files.pop()


def _batches(files: Iterator[SourceFile]) -> Iterator[tuple[list[SourceFile], bool]]:
    """Consecutive files grouped for the pool (at most :data:`BATCH_FILES` files and
    :data:`BATCH_BYTES` bytes, a larger file alone), each with whether it is one file too
    large for a worker (parsed by the loader as it is taken)."""
    batch: list[SourceFile] = []
    size = 0
    for source in files:
        file_size = _size(source)
        if file_size > STREAMED_FILE_BYTES:
            if batch:
                yield batch, False
                batch, size = [], 0
            yield [source], True
            continue
        if batch and (len(batch) >= BATCH_FILES or size + file_size > BATCH_BYTES):
            yield batch, False
            batch, size = [], 0
        batch.append(source)
        size += file_size
    if batch:
        yield batch, False


def _in_pool(files: Iterator[SourceFile], fast: bool, workers: int) -> Iterator[Loaded]:
    """The files parsed by the pool, in order, a large one by this process when its turn
    comes; should the pool break (a worker killed, or a main script without the
    ``if __name__ == "__main__"`` guard that spawned workers need), the rest, from the first
    file not handed back, in-process."""
    # handed to the pool, not yet handed back; no future: a large file, parsed here
    waiting: deque[tuple[list[SourceFile], Future[WorkerResult] | None]] = deque()
    maps = ReceivedMaps()
    context = multiprocessing.get_context("fork" if threading.active_count() == 1 else "spawn")

    def first() -> list[Loaded]:
        """The first batch waiting, let go of once handed back (not before: should the pool
        break meanwhile, it is parsed again)."""
        sources, future = waiting[0]
        if future is None:
            loaded = [parse_streamed(sources[0], fast, lazy_lists=True)]
        else:
            loaded = list(_unpacked(future.result(), sources, fast, maps))
        waiting.popleft()
        return loaded

    batches = _batches(files)
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            try:
                for sources, large in batches:
                    waiting.append((sources, None))  # before the submit, which may fail
                    if not large:
                        waiting[-1] = (
                            sources,
                            pool.submit(_parse_task, [_source_values(f) for f in sources], fast),
                        )
                    if len(waiting) >= workers * AHEAD_PER_WORKER:
                        yield from first()
                while waiting:
                    yield from first()
            finally:
                for _, pending in waiting:
                    if pending is not None:
                        pending.cancel()
    except BrokenProcessPool:
        # the batches not submitted yet come from ``batches`` (it may hold a file taken
        # from ``files`` for the batch after the one it last gave)
        rest = chain((sources for sources, _ in waiting), (sources for sources, _ in batches))
        for source in chain.from_iterable(rest):
            yield _parsed_here(source, fast)
