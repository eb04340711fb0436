"""Load saved snapshots (files, directories, must-gathers, tar archives) into the Store.

Objects reach the store in batches through ``Store.apply_many``, so the model sees the same
change feed as from a live watch. What cannot be used becomes a finding, never an exception:
a document that does not parse (``UnreadableDocument``) or an object without apiVersion, kind
or name (``InvalidObject``) is skipped and the rest is read; each file's skips are said once
per reason, with their count (``snapshot_skips``). Only unusable input stops the
load, as a one-line ``UsageError``: a path that does not exist, is a FIFO, socket or device
(never opened: a FIFO read blocks forever), or holds nothing readable; several must-gathers
(several clusters, never merged into one that did not exist); or PATHs that hold no OLM
object at all (a report on them would say "all clear" about a cluster it never saw).

An archive that ends early (truncated download or copy) is the one ``UnreadableDocument``
that is an error: everything after the break is lost, so findings may be missing or wrong
(objects a rule needs are absent), and ``check`` must not exit 0 as if the cluster were
clean (``check`` exits 1 when a finding is an error).

A namespace that holds objects but has no Namespace object (must-gathers leave some out, e.g.
``openshift-operators``) existed on the cluster; it is synthesized so that OperatorGroup
targets and copied CSVs come out as OLM saw them.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from olmtui.errors import UsageError
from olmtui.frozen import frozen
from olmtui.gc_pause import cyclic_gc_paused
from olmtui.kinds import CRD, DEPLOYMENT, EVENT, JOB, NAMESPACE, POD
from olmtui.model.primitives.inferred import INFERRED_ANNOTATION
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.sources.evidence_scope import snapshot_pod_namespaces
from olmtui.sources.input_limits import special_file
from olmtui.sources.snapshots.load_progress import ProgressCallback, ProgressCounter
from olmtui.sources.snapshots.must_gather_paths import deferred_evidence
from olmtui.sources.snapshots.olm_log_files import MAX_LOG_FILES, read_log
from olmtui.sources.snapshots.parallel_load import parsed_files
from olmtui.sources.snapshots.snapshot_access import is_access_document, read_access
from olmtui.sources.snapshots.snapshot_documents import Document
from olmtui.sources.snapshots.snapshot_files import PathContent, SourceFile, path_content
from olmtui.sources.snapshots.snapshot_objects import (
    Invalid,
    ignored_as,
    is_list_object,
    objects_in,
)
from olmtui.sources.snapshots.snapshot_skips import FileSkips
from olmtui.store import KINDS, PLATFORM_KINDS, LogFileRead, NameOnly, Obj, Store, event_subject

#: Objects per ``apply_many`` call: large enough to be cheap, small enough to show progress.
BATCH_SIZE = 500
#: The kept kinds that are OLM's own: PATHs holding none of them are no OLM snapshot.
OLM_KINDS: frozenset[str] = (
    frozenset(KINDS) - {NAMESPACE, CRD, DEPLOYMENT, POD, JOB, EVENT} - PLATFORM_KINDS
)


@dataclass
class LoadResult:
    """What a load did: counts for the report's ``source`` block, and the findings."""

    paths: list[str]
    objects: int = 0
    skipped: int = 0
    ignored_kinds: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    inferred_namespaces: list[str] = field(default_factory=list)
    #: When the must-gathers read were taken (their ``timestamp`` files), if any says.
    gathered_at: dt.datetime | None = None
    #: Whether an archive ended early (everything after the break is lost, R-SRC-1).
    cut_short: bool = False
    #: The files some document or object of which was skipped, once each, in the order
    #: read: what was lost is of the kinds they hold (R-SRC-1).
    skipped_files: list[str] = field(default_factory=list)
    #: Must-gather files not read, their path saying a kind olmtui does not keep
    #: (``must_gather_paths``), counted by kind.
    unread_kinds: dict[str, int] = field(default_factory=dict)


def load_snapshot(
    paths: Sequence[str | Path],
    store: Store,
    progress: ProgressCallback | None = None,
    *,
    fast: bool = True,
    workers: int | None = None,
) -> LoadResult:
    """Read every path into ``store``; raise ``UsageError`` for input that cannot be used.

    ``progress`` is called after each file, in file order (``load_progress``). ``fast``:
    copied CSVs are parsed only as far as the store keeps them (``fast_yaml``); ``False``
    parses every document in full, the reference the fast path must equal. ``workers``:
    processes that parse large inputs (``parallel_load``; ``None``: one per core, 1: none);
    the store gets the same objects in the same order either way."""
    return read_listing(list_snapshot(paths), store, progress, fast=fast, workers=workers)


@frozen
class Listing:
    """The paths of a load, checked and listed (a directory's files are read later, as
    they are loaded; an archive is read whole when listed); ``started`` on the monotonic
    clock, for progress."""

    shown: list[str]
    contents: list[tuple[str, PathContent]]
    started: float


def list_snapshot(paths: Sequence[str | Path]) -> Listing:
    """Check and list the paths: the ``UsageError`` of a path that cannot be used, or of
    several must-gathers, comes from here, before any file is parsed (the dashboard
    lists before it opens, and reads after)."""
    started = time.monotonic()
    shown = [str(p) for p in paths]
    if not shown:
        raise UsageError("no snapshot path given")
    for path in shown:
        _check_path(path)
    contents = [(path, path_content(Path(path), path)) for path in shown]
    _check_one_cluster(shown, contents)
    return Listing(shown, contents, started)


def read_listing(
    listing: Listing,
    store: Store,
    progress: ProgressCallback | None = None,
    *,
    fast: bool = True,
    workers: int | None = None,
) -> LoadResult:
    """Read the listed files into ``store`` (``load_snapshot`` after the listing)."""
    shown, contents = listing.shown, listing.contents
    gathered = [c.gathered_at for _, c in contents if c.gathered_at is not None]
    loader = _Loader(store, LoadResult(paths=shown, gathered_at=max(gathered, default=None)))
    loader.fast = fast
    loader.workers = workers
    sizes = [c.sizes for _, c in contents]
    counter = ProgressCounter(progress, sizes, listing.started, time.monotonic)
    with cyclic_gc_paused():
        for path, content in contents:
            loader.read_path(path, content, counter)
        loader.flush()
        # An archive cut short says more than "no OLM objects": its report says it, exit 1;
        # a snapshot of a cluster whose OLM kinds were all refused says "no access" (R-SRC-3).
        if not loader.kinds_kept & OLM_KINDS and not loader.cut_short and not loader.refused:
            found = [*loader.kinds_kept, *loader.result.ignored_kinds, *loader.result.unread_kinds]
            raise UsageError(_no_olm_objects(shown, list(dict.fromkeys(found))))
        loader.infer_namespaces()
    return loader.result


def _check_path(path: str) -> None:
    """A path that exists and is a regular file or a directory (followed through links)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file or directory") from None
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from None
    special = special_file(mode)
    if special is not None:
        raise UsageError(f"{path} is {special}, not a snapshot file, directory or archive")


def _check_one_cluster(shown: list[str], contents: list[tuple[str, PathContent]]) -> None:
    """At most one must-gather in all PATHs: each is a cluster, and two are never merged."""
    found = list(dict.fromkeys(name for _, content in contents for name in content.must_gathers))
    if len(found) < 2:
        return
    where = shown[0] if len(shown) == 1 else "the PATHs"
    verb = "holds" if len(shown) == 1 else "hold"
    raise UsageError(
        f"{where} {verb} {len(found)} must-gathers ({', '.join(found)}), that is "
        f"{len(found)} clusters: give one"
    )


def _no_olm_objects(shown: list[str], kinds_read: list[str]) -> str:
    """The message for PATHs that hold Kubernetes objects, but none of OLM's."""
    found = f"only {', '.join(sorted(kinds_read))}" if kinds_read else "nothing"
    return (
        f"{'' if len(shown) == 1 else 'any of '}{', '.join(shown)}: no OLM objects ({found}); "
        "expected OperatorGroups, ClusterServiceVersions, Subscriptions, InstallPlans, "
        "CatalogSources, PackageManifests, OperatorConditions or an OLMConfig"
    )


class _Loader:
    """The running state of one load: the pending batch, counts, and namespaces seen."""

    def __init__(self, store: Store, result: LoadResult) -> None:
        self.store = store
        self.result = result
        self.batch: list[Obj] = []
        #: Where each batched object was read (file, line), by ``id``: the store names it
        #: when the object has wrong-typed fields (R-SRC-4).
        self.where: dict[int, tuple[str, int]] = {}
        self.namespaces_held: set[str] = set()
        self.usable_documents = 0
        self.first_skip: str | None = None
        self.kinds_kept: set[str] = set()
        self.cut_short = False
        #: Kinds a SnapshotAccess document said the snapshot could not read (R-SRC-3).
        self.refused: set[str] = set()
        #: The skipped documents and objects of the file being read.
        self.file_skips = FileSkips("")
        self.fast = True
        self.workers: int | None = None
        #: The namespace whose Pods' Events the file being read leaves out (R-EVD-1).
        self.pod_events_of: str | None = None

    def read_path(self, path: str, content: PathContent, counter: ProgressCounter) -> None:
        unread = self.result.unread_kinds
        for kind, count in content.unread.items():
            unread[kind] = unread.get(kind, 0) + count
        self.read_logs(content)
        usable_before = self.usable_documents
        self.first_skip = None
        # R-EVD-1: a must-gather namespace's pods and their Events are read once everything
        # else is in the cache, which then says whether the namespace is one whose pods the
        # evidence rules read (``evidence_scope``)
        deferred: list[Deferred] = []
        files = self.read_files(_not_deferred(content.files, deferred), content, counter)
        self.flush()
        files += self.read_files(self.evidence_files(deferred, content, counter), content, counter)
        if self.usable_documents > usable_before:
            return
        if files == 0 and content.unread:  # not "no files": it holds files of kinds not read
            raise UsageError(_no_olm_objects([path], sorted(content.unread)))
        if files == 0:
            raise UsageError(f"{path}: no YAML or JSON files found")
        why = "" if self.first_skip is None else f" ({self.first_skip})"
        raise UsageError(f"{path}: no Kubernetes objects found{why}")

    def read_files(
        self,
        files: Iterable[tuple[int, SourceFile]],
        content: PathContent,
        counter: ProgressCounter,
    ) -> int:
        """Read the files (each with its place in the listing, for progress); how many."""
        places: deque[int] = deque()

        def listed() -> Iterator[SourceFile]:
            for place, source in files:
                places.append(place)
                yield source

        count = 0
        for source, documents in parsed_files(listed(), fast=self.fast, workers=self.workers):
            place = places.popleft()
            self.read_file(source, documents)
            if not source.truncated:  # an archive's early end is a record, not a file
                if counter.callback is not None:
                    self.flush()  # what progress reports is in the store
                _advance(counter, content, place)
            count += 1
        return count

    def evidence_files(
        self, deferred: list[Deferred], content: PathContent, counter: ProgressCounter
    ) -> Iterator[tuple[int, SourceFile]]:
        """The deferred pods and Events files to read (R-EVD-1): all of a namespace whose
        pods the evidence rules read (``evidence_scope.snapshot_pod_namespaces``); of any other,
        its Events file, without its Pods' Events, and not its pods."""
        read_pods_of = snapshot_pod_namespaces(self.store)
        for place, source, (kind, namespace) in deferred:
            if read_pods_of(namespace):
                yield place, source
            elif kind == EVENT:
                yield place, replace(source, pod_events_of=namespace)
            else:
                _advance(counter, content, place)

    def read_logs(self, content: PathContent) -> None:
        """OLM's pod logs the path holds, newest lines, into the cache's log store
        (R-EVD-10); a log that cannot be read says so and costs nothing else."""
        for source in content.logs:
            self.store.logs.add(*read_log(source))
        if content.logs_left_out:
            left = content.logs_left_out
            self.store.logs.add(
                (),
                LogFileRead(
                    f"{left} more OLM log file{'s' if left != 1 else ''}",
                    0,
                    f"not read (olmtui reads at most {MAX_LOG_FILES} log files)",
                ),
            )

    def read_file(self, source: SourceFile, documents: Iterable[Document]) -> None:
        if source.error is not None:
            self._skip(
                source.name,
                "UnreadableDocument",
                None,
                source.error,
                source.truncated,
                directory=source.directory,
            )
            return
        self.file_skips = FileSkips(source.name)
        self.pod_events_of = source.pod_events_of
        for document in documents:
            if document.problem is not None:
                self._skip(source.name, "UnreadableDocument", document.line, document.problem)
                continue
            if document.value is None:
                continue
            # An empty list is a snapshot of nothing, still a usable document.
            usable = is_list_object(document.value) and not document.value["items"]
            for found in objects_in(document.value, release=True):
                if isinstance(found, Invalid):
                    self._skip(source.name, "InvalidObject", document.line, found.reason)
                elif is_access_document(found):
                    usable = True
                    self._refused(source.name, document.line, found)
                else:
                    usable = True
                    self.where[id(found)] = (source.name, document.line)
                    self._take(found)
            self.usable_documents += usable
        self.result.findings += self.file_skips.findings()

    def _refused(self, file_name: str, line: int, obj: Obj) -> None:
        """R-SRC-3: the kinds the snapshot could not read are "no access", as they were live
        (never "none"); an entry that cannot be used is skipped with a warning."""
        refused, problems = read_access(obj)
        for problem in problems:
            self._skip(file_name, "InvalidObject", line, problem)
        for kind, why in refused.items():
            self.refused.add(kind)
            self.store.set_unreadable(kind, why)

    def _take(self, obj: Obj) -> None:
        if self.pod_events_of is not None and obj["kind"] == EVENT:
            subject = event_subject(obj)
            if subject is not None and subject[:2] == (POD, self.pod_events_of):
                return  # R-EVD-1: an Event about a pod the evidence rules do not read
        metadata = obj["metadata"]
        namespace = metadata.get("namespace")
        if namespace:
            self.namespaces_held.add(namespace)
        label = ignored_as(obj)
        if label is not None:
            self.result.ignored_kinds[label] = self.result.ignored_kinds.get(label, 0) + 1
            return
        self.kinds_kept.add(obj["kind"])
        self.batch.append(obj)
        self.result.objects += 1
        if len(self.batch) >= BATCH_SIZE:
            self.flush()

    def _skip(
        self,
        file_name: str,
        code: str,
        line: int | None,
        detail: str,
        truncated: bool = False,
        *,
        directory: bool = False,
    ) -> None:
        """Record a skipped document or object (at ``line``) of the file being read, said
        with the others of its reason when the file is read (``FileSkips``); or a file that
        could not be read (``line`` ``None``) as a finding naming it: a warning, or an error
        when an archive ended early (its later files are lost)."""
        self.result.skipped += 1
        skipped_files = self.result.skipped_files
        if not skipped_files or skipped_files[-1] != file_name:
            skipped_files.append(file_name)
        if self.first_skip is None:
            self.first_skip = f"{file_name}: {detail}"
        if line is not None:
            self.file_skips.add(code, line, detail)
            return
        if truncated:
            self.cut_short = self.result.cut_short = True
            self.result.findings.append(
                Finding(
                    "error",
                    code,
                    "File",
                    "",
                    file_name,
                    f"The archive ends early here ({detail}): this file and every file after it "
                    "are missing from the snapshot, so findings may be missing or wrong (a group, "
                    "CSV or Namespace a rule needs may be among the lost ones). Check again with "
                    "a complete copy of the archive.",
                    rule="R-SRC-1",
                )
            )
            return
        if directory:
            message = (
                f"The directory could not be read ({detail}): the files in it are missing from "
                "the snapshot, so findings may be missing or wrong."
            )
        else:
            message = f"The file could not be read and was skipped: {detail}."
        self.result.findings.append(
            Finding("warning", code, "File", "", file_name, message, rule="R-SRC-1")
        )

    def flush(self) -> None:
        if self.batch:
            self.store.apply_many(self.batch, self.origin)
            self.batch = []
        self.where = {}

    def origin(self, obj: Obj) -> str:
        """Where a batched object was read, as a ``MalformedObject`` finding says it."""
        file_name, line = self.where.get(id(obj), ("?", 0))
        return f"{file_name} line {line}"

    def infer_namespaces(self) -> None:
        """Synthesize the namespaces that hold objects but have no Namespace object."""
        # the cache says which are present: a set of their names too was 100 MB for a
        # million Namespaces
        missing = sorted(
            ns for ns in self.namespaces_held if self.store.get(NAMESPACE, "", ns) is None
        )
        if not missing:
            return
        # each kept as its name alone, and fed in batches: one batch of 400,000 held every
        # Namespace built whole in its change records
        self.store.add_form(INFERRED_NAMESPACE)
        for start in range(0, len(missing), BATCH_SIZE):
            chunk = missing[start : start + BATCH_SIZE]
            self.store.apply_many(inferred_namespace(ns) for ns in chunk)
        self.result.inferred_namespaces = missing
        self.result.findings.append(
            Finding(
                "info",
                "NamespacesInferred",
                NAMESPACE,
                "",
                "",
                f"{len(missing)} namespace(s) hold objects but have no Namespace object in the "
                f"snapshot (must-gathers often leave some out): {_named(missing)}. They are "
                "taken to exist, without labels, so that OperatorGroup targets and copied CSVs "
                "come out as on the cluster; an OperatorGroup label selector will not match them.",
                rule="R-SRC-2",
                related=tuple(ObjectRef(NAMESPACE, "", ns) for ns in missing),
            )
        )


def _advance(counter: ProgressCounter, content: PathContent, place: int) -> None:
    """Progress by the listed size of the file at ``place`` (an archive's member not listed
    ahead counts none)."""
    counter.advance(content.sizes[place] if place < len(content.sizes) else 0)


#: A must-gather's pods or Events file read last: its place in the listing, the file, and
#: the kind and namespace its path says (``must_gather_paths.deferred_evidence``).
Deferred = tuple[int, SourceFile, tuple[str, str]]


def _not_deferred(
    files: Iterable[SourceFile], deferred: list[Deferred]
) -> Iterator[tuple[int, SourceFile]]:
    """The files with their places in the listing, but a must-gather's pods and Events
    files that could be read, put in ``deferred`` as they are met."""
    for place, source in enumerate(files):
        evidence = None if source.error is not None else deferred_evidence(source.name)
        if evidence is None:
            yield place, source
        else:
            deferred.append((place, source, evidence))


#: Names a message lists before it says how many more (its ``related`` holds them all).
NAMED_AT_MOST = 50


def _named(names: list[str]) -> str:
    """The names, the first :data:`NAMED_AT_MOST` of a longer list and a count of the rest:
    400,000 names made one line of 5 MB in every report."""
    if len(names) <= NAMED_AT_MOST:
        return ", ".join(names)
    return f"{', '.join(names[:NAMED_AT_MOST])} and {len(names) - NAMED_AT_MOST:,} more"


def inferred_namespace(name: str) -> Obj:
    """The Namespace object standing in for one the snapshot lacks (no labels: unknown)."""
    return {
        "apiVersion": "v1",
        "kind": NAMESPACE,
        "metadata": {"name": name, "annotations": {INFERRED_ANNOTATION: "true"}},
        "status": {"phase": "Active"},
    }


#: How the cache keeps the Namespaces :func:`inferred_namespace` makes up: by name alone.
INFERRED_NAMESPACE = NameOnly(NAMESPACE, inferred_namespace)
