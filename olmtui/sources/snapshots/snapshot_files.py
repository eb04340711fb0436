"""Which files a snapshot path stands for, and their bytes: a file, a directory, a must-gather
tree or a tar archive of any of these.

Directories and archives are read the same way: list the YAML/JSON files, pick the ones that
hold objects (below), sort them so every run loads the same objects in the same order.

A must-gather nests its objects under ``<root>/namespaces/<ns>/...`` and
``<root>/cluster-scoped-resources/...``, often below an image directory, and keeps other YAML
and JSON next to them (Prometheus rules, etcd status) that are not Kubernetes objects. So a
folder holding one of those two trees is a must-gather root, and under a root only the two
trees are read; files outside every root are read as plain snapshot files.

One must-gather is one cluster. ``oc adm must-gather`` writes one image directory per
gathering image (``quay-io-...-sha256-<digest>``) beside a ``timestamp`` file, so the roots
that are image directories, or that sit beside ``timestamp``/``event-filter.html``, make one
must-gather with their parent; any other root is a must-gather of its own. Several
must-gathers are several clusters: the selection names them so that the loader can refuse
them rather than merge them into one cluster that never existed.

Special files (FIFOs, sockets, devices) are never opened: a FIFO would block the read forever.
Files and archive members larger than ``input_limits.MAX_FILE_BYTES`` are not read either;
each refusal is a file that could not be read, named in a finding.

Archives are streamed (never unpacked to disk, see ``snapshot_archive``); the chosen
members' bytes are kept in memory until they are parsed, up to
``input_limits.MAX_ARCHIVE_KEPT_BYTES`` in all.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tarfile
from collections.abc import Iterable, Iterator
from dataclasses import field, replace
from itertools import chain
from pathlib import Path

from olmtui.frozen import frozen
from olmtui.sources.input_limits import (
    MAX_ARCHIVE_KEPT_BYTES,
    MAX_FILE_BYTES,
    Refused,
    read_regular,
    size_text,
    too_large,
)
from olmtui.sources.snapshots.must_gather_paths import repeated_pods, unread_kind
from olmtui.sources.snapshots.olm_log_files import (
    MAX_LOG_FILES,
    LogSource,
    newest_bytes,
    olm_log_of,
)
from olmtui.sources.snapshots.snapshot_archive import tar_stream
from olmtui.sources.snapshots.snapshot_time import (
    gathered_time,
    is_timestamp_member,
    must_gather_time,
)

SNAPSHOT_SUFFIXES: tuple[str, ...] = (".yaml", ".yml", ".json")
ARCHIVE_SUFFIXES: tuple[str, ...] = (
    ".tar",
    ".tar.gz",
    ".tgz",
    ".tar.xz",
    ".txz",
    ".tar.bz2",
    ".tbz2",
)
MUST_GATHER_TREES: frozenset[str] = frozenset({"namespaces", "cluster-scoped-resources"})
#: Files ``oc adm must-gather`` writes beside its image directories.
MUST_GATHER_MARKERS: frozenset[str] = frozenset({"timestamp", "event-filter.html"})
#: An image directory's name: the image reference with ``/``, ``:``, ``.`` and ``@`` as ``-``.
_IMAGE_DIRECTORY = re.compile(r"-sha256-[0-9a-f]+$")


@frozen
class SourceFile:
    """One file to parse. ``name`` is what findings show: the path, or ``archive:member``.

    ``error`` is set (and ``data`` empty) when the file or member could not be read;
    ``truncated`` when that error ended an archive early, so its later members are lost too;
    ``directory`` when it is a directory that could not be listed (its files are unknown).
    ``path`` is set (and ``data`` empty) for a file of a directory not read yet
    (``read_source`` reads it): a parse worker reads it from disk itself, cheaper than
    receiving its bytes through a pipe.
    """

    name: str
    data: bytes
    json_format: bool
    error: str | None = None
    truncated: bool = False
    path: str | None = None
    #: The error is a directory's that could not be listed: its files are unknown.
    directory: bool = False
    #: Named on the command line: JSON when it opens like JSON, whatever its name says.
    named: bool = False
    #: The size of a file not read yet (``path``) as listed, when the listing stat'ed it.
    listed_size: int | None = None
    #: A must-gather namespace whose pods the evidence rules do not read (R-EVD-1,
    #: ``evidence_scope``): this file's Events about its pods are left out as they are read.
    pod_events_of: str | None = None


def read_source(source: SourceFile) -> tuple[SourceFile, bytes]:
    """The file as read, without its bytes (or why it could not be read), and its bytes: a
    file of a directory is read now, any other came read. Apart, so that a file of a
    must-gather's thousands is not copied only to drop its bytes once parsed."""
    if source.path is None:
        return (replace(source, data=b"") if source.data else source), source.data
    read, data = _read(source.path, source.name, explicit=source.named)
    if source.pod_events_of is not None:  # what the loader decided stays with the file
        read = replace(read, pod_events_of=source.pod_events_of)
    return read, data


def is_snapshot_file(name: str) -> bool:
    return name.lower().endswith(SNAPSHOT_SUFFIXES)


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


@frozen
class Selection:
    """The files of one snapshot path to load, and the must-gathers among them.

    Both are ``/``-separated and relative to the path; a must-gather ``""`` is the path
    itself. ``unread``: the must-gather files not read because their path says a kind the
    loader does not keep (``must_gather_paths``), counted by kind."""

    files: list[str]
    must_gathers: list[str]
    unread: dict[str, int] = field(default_factory=dict)


def _tree_of(parts: tuple[str, ...]) -> int | None:
    """Where a must-gather tree starts in a file's path (a folder), or ``None``."""
    return next((i for i, part in enumerate(parts[:-1]) if part in MUST_GATHER_TREES), None)


def _unread_member(name: str) -> bool:
    """An archive member whose bytes are not kept: a must-gather file of a kind not read."""
    parts = tuple(name.split("/"))
    tree = _tree_of(parts)
    return tree is not None and unread_kind(parts[tree:]) is not None


def select_files(relative_paths: Iterable[str]) -> Selection:
    """The files that hold snapshot objects, in load order, and the must-gathers found.

    Only YAML/JSON files count; inside a must-gather root only its ``namespaces/`` and
    ``cluster-scoped-resources/`` trees do, but for the files there whose path says a kind
    the loader does not keep (not read, only counted: ``must_gather_paths``).
    """
    listed = [tuple(p.split("/")) for p in relative_paths]
    roots: set[tuple[str, ...]] = set()
    chosen: list[tuple[tuple[str, ...], int]] = []
    rest: list[tuple[str, ...]] = []
    unread: dict[str, int] = {}
    trees: dict[tuple[str, ...], int | None] = {}  # by folder: a must-gather's files share few
    for parts in listed:
        if not is_snapshot_file(parts[-1]):
            continue
        folder = parts[:-1]
        if folder not in trees:
            trees[folder] = _tree_of(parts)
        tree = trees[folder]
        if tree is None:
            rest.append(parts)
            continue
        roots.add(parts[:tree])
        kind = unread_kind(parts[tree:])
        if kind is None:
            chosen.append((parts, tree))
        else:
            unread[kind] = unread.get(kind, 0) + 1
    kept = _without_repeated_pods(chosen)
    for parts in rest:
        if not any(parts[:i] in roots for i in range(len(parts))):
            kept.append(parts)
    marked = {parts[:-1] for parts in listed if parts[-1] in MUST_GATHER_MARKERS}
    dumps = {_must_gather_of(root, marked) for root in roots}
    return Selection(
        files=["/".join(parts) for parts in sorted(kept)],
        must_gathers=sorted("/".join(parts) for parts in dumps),
        unread=unread,
    )


def _without_repeated_pods(chosen: list[tuple[tuple[str, ...], int]]) -> list[tuple[str, ...]]:
    """The must-gather files chosen (each with where its tree starts) but each Pod's own
    file when its namespace's List holds it too (``must_gather_paths.repeated_pods``): the
    cache got every such pod twice."""
    by_root: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for parts, tree in chosen:
        by_root.setdefault(parts[:tree], []).append(parts[tree:])
    repeated = {root + p for root, in_trees in by_root.items() for p in repeated_pods(in_trees)}
    return [parts for parts, _ in chosen if parts not in repeated]


def _must_gather_of(root: tuple[str, ...], marked: set[tuple[str, ...]]) -> tuple[str, ...]:
    """The must-gather a root belongs to: its parent when the root is an image directory of
    ``oc adm must-gather`` (by its name, or by the marker files beside it), else itself."""
    if root and (_IMAGE_DIRECTORY.search(root[-1]) or root[:-1] in marked):
        return root[:-1]
    return root


@frozen
class PathContent:
    """One snapshot path, listed: the must-gathers it holds (as findings and messages name
    them) and its files, read as they are iterated."""

    must_gathers: list[str]
    files: Iterator[SourceFile]
    #: When the must-gather(s) it holds were taken (their ``timestamp`` files), if known.
    gathered_at: dt.datetime | None = None
    #: The listed size of each file of ``files``, in order, for progress (``load_progress``):
    #: ``stat`` sizes on disk, uncompressed member sizes in an archive.
    sizes: tuple[int, ...] = ()
    #: Must-gather files not read, their path saying a kind not kept, by kind (``Selection``).
    unread: dict[str, int] = field(default_factory=dict)
    #: OLM's pod logs it holds (never parsed as YAML), at most ``MAX_LOG_FILES``, and how
    #: many more were left out (R-EVD-10).
    logs: tuple[LogSource, ...] = ()
    logs_left_out: int = 0


def path_content(path: Path, shown: str) -> PathContent:
    """The content of one existing snapshot path (a regular file or directory; the caller
    refuses special files); ``shown`` is the path as the user gave it."""
    if path.is_dir():
        return _directory_content(path, shown)
    if is_archive(path.name):
        return _archive_content(path, shown)
    # read when its turn comes (``read_source``), not held by the listing while it is parsed
    named = SourceFile(shown, b"", False, path=str(path), named=True)
    return PathContent([], iter([named]), sizes=(_size(path),))


def _size(path: Path | str) -> int:
    """A file's size as listed, for progress and batching only (0 when it cannot be
    stat'ed: its read fails later and says why)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _directory_content(directory: Path, shown: str) -> PathContent:
    unlisted: list[OSError] = []
    # strings, not Paths: a must-gather is thousands of files and folders
    base = os.fspath(directory)
    relative = _walked(base, unlisted)
    selection = select_files(relative)
    unread = _unread_directories(directory, shown, relative, unlisted)
    # ``os.path.join(base, rel)`` for each of thousands of relative paths, joined as it
    # would join them: the folder with its separator, then the path
    in_base, in_shown = os.path.join(base, ""), os.path.join(shown, "")
    paths = [in_base + rel for rel in selection.files]
    sizes = [_size(path) for path in paths]
    logs = [
        LogSource(os.path.join(shown, rel), *found, path=os.path.join(base, rel))
        for rel in sorted(relative)
        if (found := olm_log_of(rel.split("/"))) is not None
    ]
    return PathContent(
        [os.path.join(shown, d) if d else shown for d in selection.must_gathers],
        chain(
            (
                SourceFile(in_shown + rel, b"", False, path=path, listed_size=size)
                for rel, path, size in zip(selection.files, paths, sizes, strict=True)
            ),
            unread,
        ),
        must_gather_time([base]),
        (*sizes, *(0 for _ in unread)),
        selection.unread,
        tuple(logs[:MAX_LOG_FILES]),
        max(0, len(logs) - MAX_LOG_FILES),
    )


def _walked(base: str, unlisted: list[OSError]) -> list[str]:
    """The files below ``base``, ``/``-separated from it, as ``os.walk`` lists them: folders
    in name order, a link to a folder not followed (neither a folder walked nor a file), a
    folder that cannot be listed in ``unlisted`` (none of its files taken). One ``scandir``
    a folder, without ``os.walk``'s ``lstat`` of each (a must-gather has thousands)."""
    relative: list[str] = []
    pending = [(base, "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as error:
            unlisted.append(error)
            continue
        folders: list[str] = []
        for entry in entries:
            if not _is_folder(entry):
                relative.append(prefix + entry.name)
            elif not _is_link(entry):
                folders.append(entry.name)
        folders.sort(reverse=True)  # taken from the end: walked in name order
        pending += [(os.path.join(folder, name), f"{prefix}{name}/") for name in folders]
    return relative


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # as os.walk takes it: not a folder
        return False


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:  # as os.walk takes it (``os.path.islink``): not a link, walked
        return False


#: A file name no directory holds (no name has a NUL): it stands for "any file in it".
_ANY_FILE = "\0.yaml"


def _unread_directories(
    directory: Path, shown: str, relative: list[str], unlisted: list[OSError]
) -> list[SourceFile]:
    """The directories ``os.walk`` could not list, as files that could not be read: any of
    their files might have held objects (unknown is not absent, R-SRC-1). A directory none
    of whose files would be read (beside a must-gather's two trees) is left out."""
    places: dict[str, OSError] = {}
    for error in unlisted:
        where = Path(error.filename or directory).relative_to(directory).as_posix()
        places["" if where == "." else where + "/"] = error
    if not places:
        return []
    chosen = set(select_files([*relative, *(p + _ANY_FILE for p in places)]).files)
    return [
        SourceFile(
            os.path.join(shown, place.rstrip("/")) if place else shown,
            b"",
            False,
            error=error.strerror or str(error),
            directory=True,
        )
        for place, error in sorted(places.items())
        if place + _ANY_FILE in chosen
    ]


def _read(path: str, shown: str, *, explicit: bool) -> tuple[SourceFile, bytes]:
    try:
        data = read_regular(path)
    except Refused as refused:
        return SourceFile(shown, b"", False, error=str(refused)), b""
    except OSError as exc:
        return SourceFile(shown, b"", False, error=exc.strerror or str(exc)), b""
    name = os.path.basename(path)
    json_format = name.lower().endswith(".json") or (
        explicit and not is_snapshot_file(name) and looks_like_json(data)
    )
    return SourceFile(shown, b"", json_format), data


def looks_like_json(data: bytes) -> bool:
    """For a file named on the command line without a known suffix: JSON if it opens like it."""
    return data.lstrip(b" \t\r\n\xef\xbb\xbf")[:1] in (b"{", b"[")


def _archive_content(archive: Path, shown: str) -> PathContent:
    """Read the whole archive now (a stream is read once), keeping the bytes of its YAML and
    JSON members and the names of all (for the must-gather marker files)."""
    names: set[str] = set()
    members: dict[str, bytes] = {}
    refused: dict[str, str] = {}
    kept = 0
    stamps: list[str] = []
    reading: str | None = None
    failure: SourceFile | None = None
    logs: list[LogSource] = []
    logs_left_out = 0
    try:
        with tar_stream(archive) as stream:
            tar = stream.tar
            for member in stream.members():
                name = member.name.removeprefix("./")
                if not member.isfile():
                    continue
                names.add(name)
                if is_timestamp_member(name):
                    handle = tar.extractfile(member)
                    if handle is not None:
                        stamps.append(handle.read(4096).decode(errors="replace"))
                log_of = olm_log_of(name.split("/"))
                if log_of is not None:  # R-EVD-10: its newest bytes, never parsed as YAML
                    if len(logs) >= MAX_LOG_FILES:
                        logs_left_out += 1
                        continue
                    reading = name
                    handle = tar.extractfile(member)
                    data, skipped = newest_bytes(handle) if handle is not None else (b"", 0)
                    logs.append(LogSource(f"{shown}:{name}", *log_of, data=data, skipped=skipped))
                    reading = None
                    continue
                if not is_snapshot_file(name) or _unread_member(name):
                    continue
                why = _refusal(member.size, kept)
                if why is not None:
                    refused[name] = why
                    continue
                reading = name
                handle = tar.extractfile(member)
                members[name] = handle.read() if handle is not None else b""
                kept += len(members[name])
                reading = None
    except (OSError, EOFError, tarfile.TarError, Refused) as exc:
        where = shown if reading is None else f"{shown}:{reading}"
        error = str(exc) if isinstance(exc, Refused) else f"unreadable archive ({exc})"
        failure = SourceFile(where, b"", False, error=error, truncated=True)
    selection = select_files(names)
    files = [
        SourceFile(f"{shown}:{name}", members[name], name.lower().endswith(".json"))
        if name in members
        else SourceFile(f"{shown}:{name}", b"", False, error=refused[name])
        for name in selection.files
        if name in members or name in refused
    ]
    return PathContent(
        [f"{shown}:{d}" if d else shown for d in selection.must_gathers],
        iter([*files, *([failure] if failure is not None else [])]),
        gathered_time(stamps),
        tuple(len(f.data) for f in files),
        selection.unread,
        tuple(logs),
        logs_left_out,
    )


def _refusal(size: int, kept: int) -> str | None:
    """Why an archive member of ``size`` bytes is not read when ``kept`` bytes of members are
    already held, or ``None``: the limits bound the memory a small archive can claim."""
    if size > MAX_FILE_BYTES:
        return too_large(size)
    if kept + size > MAX_ARCHIVE_KEPT_BYTES:
        return (
            f"not read: the archive's YAML and JSON files before it already hold "
            f"{size_text(kept)}, and olmtui keeps at most {size_text(MAX_ARCHIVE_KEPT_BYTES)} "
            "of one archive"
        )
    return None
