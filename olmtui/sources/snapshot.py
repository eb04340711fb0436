"""Load saved snapshots (files, directories, must-gathers, tar archives) into the Store.

Objects reach the store in batches through ``Store.apply_many``, so the model sees the same
change feed as from a live watch. What cannot be used becomes a finding, never an exception:
a document that does not parse (``UnreadableDocument``) or an object without apiVersion, kind
or name (``InvalidObject``) is skipped and the rest is read. Only a path that does not exist
or holds nothing readable stops the load, as a one-line ``UsageError``.

An archive that ends early (truncated download or copy) is the one ``UnreadableDocument``
that is an error: everything after the break is lost, so findings may be missing or wrong
(objects a rule needs are absent), and ``check`` must not exit 0 as if the cluster were
clean (report-format.md: exit 1 when a finding is an error).

A namespace that holds objects but has no Namespace object (must-gathers leave some out, e.g.
``openshift-operators``) existed on the cluster; it is synthesized so that OperatorGroup
targets and copied CSVs come out as OLM saw them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from olmtui.errors import UsageError
from olmtui.gc_pause import cyclic_gc_paused
from olmtui.model.engine import INFERRED_ANNOTATION
from olmtui.model.types import Finding, ObjectRef
from olmtui.sources.snapshot_documents import parse_documents
from olmtui.sources.snapshot_files import SourceFile, iter_source_files
from olmtui.sources.snapshot_objects import Invalid, ignored_as, is_list_object, objects_in
from olmtui.store import Obj, Store

#: Objects per ``apply_many`` call: large enough to be cheap, small enough to show progress.
BATCH_SIZE = 500


@dataclass
class LoadResult:
    """What a load did: counts for the report's ``source`` block, and the findings."""

    paths: list[str]
    objects: int = 0
    skipped: int = 0
    ignored_kinds: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    inferred_namespaces: list[str] = field(default_factory=list)


def load_snapshot(paths: Sequence[str | Path], store: Store) -> LoadResult:
    """Read every path into ``store``; raise ``UsageError`` for a path that cannot be used."""
    shown = [str(p) for p in paths]
    if not shown:
        raise UsageError("no snapshot path given")
    for path in shown:
        if not Path(path).exists():
            raise UsageError(f"{path}: no such file or directory")
    loader = _Loader(store, LoadResult(paths=shown))
    with cyclic_gc_paused():
        for path in shown:
            loader.read_path(path)
        loader.flush()
        loader.infer_namespaces()
    return loader.result


class _Loader:
    """The running state of one load: the pending batch, counts, and namespaces seen."""

    def __init__(self, store: Store, result: LoadResult) -> None:
        self.store = store
        self.result = result
        self.batch: list[Obj] = []
        self.namespaces_held: set[str] = set()
        self.namespaces_present: set[str] = set()
        self.usable_documents = 0
        self.first_skip: str | None = None

    def read_path(self, path: str) -> None:
        files = 0
        usable_before = self.usable_documents
        self.first_skip = None
        for source in iter_source_files(Path(path), path):
            files += 1
            self.read_file(source)
        if self.usable_documents > usable_before:
            return
        if files == 0:
            raise UsageError(f"{path}: no YAML or JSON files found")
        why = "" if self.first_skip is None else f" ({self.first_skip})"
        raise UsageError(f"{path}: no Kubernetes objects found{why}")

    def read_file(self, source: SourceFile) -> None:
        if source.error is not None:
            self._skip(source.name, "UnreadableDocument", None, source.error, source.truncated)
            return
        for document in parse_documents(source.data, json_format=source.json_format):
            if document.problem is not None:
                self._skip(source.name, "UnreadableDocument", document.line, document.problem)
                continue
            if document.value is None:
                continue
            # An empty list is a snapshot of nothing, still a usable document.
            usable = is_list_object(document.value) and not document.value["items"]
            for found in objects_in(document.value):
                if isinstance(found, Invalid):
                    self._skip(source.name, "InvalidObject", document.line, found.reason)
                else:
                    usable = True
                    self._take(found)
            self.usable_documents += usable

    def _take(self, obj: Obj) -> None:
        metadata = obj["metadata"]
        namespace = metadata.get("namespace")
        if namespace:
            self.namespaces_held.add(namespace)
        label = ignored_as(obj)
        if label is not None:
            self.result.ignored_kinds[label] = self.result.ignored_kinds.get(label, 0) + 1
            return
        if obj["kind"] == "Namespace":
            self.namespaces_present.add(metadata["name"])
        self.batch.append(obj)
        self.result.objects += 1
        if len(self.batch) >= BATCH_SIZE:
            self.flush()

    def _skip(
        self, file_name: str, code: str, line: int | None, detail: str, truncated: bool = False
    ) -> None:
        """Record a skipped document or object as a finding naming the file and line: a
        warning, or an error when an archive ended early (its later files are lost)."""
        self.result.skipped += 1
        if self.first_skip is None:
            self.first_skip = f"{file_name}: {detail}"
        if truncated:
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
        if code == "InvalidObject":
            message = f"The object in the document at line {line} was skipped: {detail}."
        elif line is None:
            message = f"The file could not be read and was skipped: {detail}."
        else:
            message = (
                f"The document starting at line {line} does not parse ({detail}); "
                "it was skipped and the rest of the file was read."
            )
        self.result.findings.append(
            Finding("warning", code, "File", "", file_name, message, rule="R-SRC-1")
        )

    def flush(self) -> None:
        if self.batch:
            self.store.apply_many(self.batch)
            self.batch = []

    def infer_namespaces(self) -> None:
        """Synthesize the namespaces that hold objects but have no Namespace object."""
        missing = sorted(
            ns
            for ns in self.namespaces_held - self.namespaces_present
            if self.store.get("Namespace", "", ns) is None
        )
        if not missing:
            return
        self.store.apply_many(inferred_namespace(ns) for ns in missing)
        self.result.inferred_namespaces = missing
        self.result.findings.append(
            Finding(
                "info",
                "NamespacesInferred",
                "Namespace",
                "",
                "",
                f"{len(missing)} namespace(s) hold objects but have no Namespace object in the "
                f"snapshot (must-gathers often leave some out): {', '.join(missing)}. They are "
                "taken to exist, without labels, so that OperatorGroup targets and copied CSVs "
                "come out as on the cluster; an OperatorGroup label selector will not match them.",
                rule="R-SRC-2",
                related=tuple(ObjectRef("Namespace", "", ns) for ns in missing),
            )
        )


def inferred_namespace(name: str) -> Obj:
    """The Namespace object standing in for one the snapshot lacks (no labels: unknown)."""
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": name, "annotations": {INFERRED_ANNOTATION: "true"}},
        "status": {"phase": "Active"},
    }
