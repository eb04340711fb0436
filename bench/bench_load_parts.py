"""Bench for the loading side of ``check`` on a must-gather: where its CPU goes, part by part,
against the bare parse of the same files measured in the same run. A script, not a test.

On the must-gather of ``gen_snapshot.py --layout must-gather`` (with ``--pods``/``--events``
Pods and Events, generated once, or ``--keep DIR``), in this process (one worker), each part
as CPU seconds and as a share of (a):

(a) the bare parse: ``yaml.load_all(CSafeLoader)`` of every file, nothing else (GC paused);
(b) the documents without a fast path (CSVs, Subscriptions, InstallPlans, OperatorGroups,
    Namespaces), by kind: ``CSafeLoader`` against the loader the snapshot reads them with
    (``snapshot_documents.load_yaml``), and whether the two give equal values;
(c) what crosses from a parse worker to the loader: each batch of files pickled as the
    worker does (``parallel_load.parse_in_worker``) and unpickled as the loader does;
(d) the store's apply of every object (``Store.apply_many`` in the loader's batches), the
    Pods and Events apart;
(e) the evidence rules' Events: the catalog pods' and unpack findings (R-EVD-2, R-EVD-3)
    from the store's per-object index, against grouping every Event per call as before.

    python bench/bench_load_parts.py [--namespaces 300] [--pods 10000] [--events 100000]
"""

from __future__ import annotations

import argparse
import gc
import pickle
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_snapshot import Extras, Sizes, generate

from olmtui.kinds import CATALOG_SOURCE, EVENT, JOB, POD, SUBSCRIPTION
from olmtui.model.rules.evidence.bundle_unpack import unpack_findings
from olmtui.model.rules.evidence.catalog_pods import catalog_pod_findings, events_about
from olmtui.sources.snapshots import fast_yaml, parallel_load, snapshot_documents
from olmtui.sources.snapshots.snapshot_files import path_content
from olmtui.sources.snapshots.snapshot_objects import objects_in
from olmtui.sources.snapshots.worker_maps import ReceivedMaps
from olmtui.store import Store

#: Objects per ``apply_many`` call, as the snapshot loader batches them.
BATCH = 500


def cpu(action: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of ``action`` with the cyclic collector paused, as olmtui's loader runs."""
    gc.disable()
    try:
        start = time.process_time()
        result = action()
        return time.process_time() - start, result
    finally:
        gc.enable()


def bare_parse(files: list[Path]) -> int:
    documents = 0
    for path in files:
        for _ in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader):
            documents += 1
    return documents


def full_parse_documents(files: list[Path]) -> dict[str, list[bytes]]:
    """The documents no fast path takes, by the folder that names their kind."""
    found: dict[str, list[bytes]] = defaultdict(list)
    for path in files:
        data = path.read_bytes()
        if path.parent.name in ("core", "batch") or fast_yaml.cut(data) is not None:
            continue
        kind = path.parent.name if path.parent.parent.name != "namespaces" else "namespaces"
        found[kind].append(data)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, default=300)
    parser.add_argument("--pods", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="generate into DIR (reused if there)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-") as tmp:
        root = args.keep or Path(tmp)
        if not root.exists() or not any(root.iterdir()):
            extras = Extras(pods=args.pods, events=args.events, jobs=50)
            generate(root, Sizes(namespaces=args.namespaces), layout="must-gather", extras=extras)
        files = sorted(root.rglob("*.yaml"))
        for path in files:  # warm the page cache
            path.read_bytes()
        base, documents = cpu(lambda: bare_parse(files))
        print(f"{root}: {len(files):,} files, {documents:,} documents")
        print(f"(a) bare parse {base:.2f} s CPU")

        def share(seconds: float) -> str:
            return f"{seconds:.3f} s = {seconds / base:.4f} of (a)"

        print("(b) documents without a fast path: CSafeLoader -> snapshot loader")
        for kind, texts in sorted(full_parse_documents(files).items()):
            safe, expected = cpu(lambda t=texts: [yaml.load(x, Loader=yaml.CSafeLoader) for x in t])
            ours, got = cpu(lambda t=texts: [snapshot_documents.load_yaml(x) for x in t])
            print(
                f"    {kind}: {len(texts):,} documents, {share(safe)} -> {share(ours)}"
                f"{'' if got == expected else ' VALUES DIFFER'}"
            )

        content = path_content(root, str(root))
        sources = list(content.files)
        batches = [b for b, large in parallel_load._batches(iter(sources)) if not large]
        parsed = [[parallel_load.parse_file(s, True) for s in b] for b in batches]
        worker_maps = parallel_load.SentMaps()

        def pickled(files: list[parallel_load.Parsed]) -> tuple[int, bytes]:
            """A batch as ``parse_in_worker`` pickles it, once parsed."""
            documents = [d for _, docs in files for d in docs]
            references, new = worker_maps.take_out(documents)
            sent = [
                (parallel_load._source_values(f), [parallel_load._document_values(d) for d in docs])
                for f, docs in files
            ]
            payload = pickle.dumps((sent, references), protocol=pickle.HIGHEST_PROTOCOL)
            worker_maps.commit(new)
            return 0, payload

        sent, results = cpu(lambda: [pickled(files) for files in parsed])
        maps = ReceivedMaps()
        received, loaded = cpu(
            lambda: [
                parallel_load._unpacked(r, b, True, maps)
                for r, b in zip(results, batches, strict=True)
            ]
        )
        size = sum(len(r[1]) for r in results)
        print(
            f"(c) worker -> loader: {size / 1e6:.1f} MB; pickled {share(sent)}, "
            f"unpickled {share(received)}"
        )

        objects = [
            found
            for batch in loaded
            for _, docs in batch
            for document in docs
            for found in objects_in(document.value, release=True)
            if isinstance(found, dict)
        ]
        evidence = [o for o in objects if o.get("kind") in (POD, EVENT)]
        rest = [o for o in objects if o.get("kind") not in (POD, EVENT)]
        store = Store()

        def apply(objs: list[dict[str, Any]]) -> None:
            for start in range(0, len(objs), BATCH):
                store.apply_many(objs[start : start + BATCH])

        applied_rest, _ = cpu(lambda: apply(rest))
        applied_evidence, _ = cpu(lambda: apply(evidence))
        print(
            f"(d) store apply: {len(rest):,} objects {share(applied_rest)}; "
            f"{len(evidence):,} Pods and Events {share(applied_evidence)}"
        )

        catalogs, pods = list(store.list(CATALOG_SOURCE)), list(store.list(POD))
        subs, jobs = list(store.list(SUBSCRIPTION)), list(store.list(JOB))

        def indexed() -> None:
            catalog_pod_findings(catalogs, pods, store.events_in_order)
            unpack_findings(subs, jobs, store.events_in_order)

        def grouped() -> None:
            for _ in range(2):  # each rule grouped every Event
                by_subject = events_about(store.list(EVENT))
            catalog_pod_findings(catalogs, pods, lambda *s: by_subject.get(s, ()))
            unpack_findings(subs, jobs, lambda *s: by_subject.get(s, ()))

        now, _ = cpu(indexed)
        before, _ = cpu(grouped)
        print(
            f"(e) evidence rules over {store.count(EVENT):,} Events: grouping every Event "
            f"{share(before)} -> the store's index {share(now)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
