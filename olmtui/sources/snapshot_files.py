"""Which files a snapshot path stands for, and their bytes: a file, a directory, a must-gather
tree or a tar archive of any of these.

Directories and archives are read the same way: list the YAML/JSON files, pick the ones that
hold objects (below), sort them so every run loads the same objects in the same order.

A must-gather nests its objects under ``<root>/namespaces/<ns>/...`` and
``<root>/cluster-scoped-resources/...``, often below an image directory, and keeps other YAML
and JSON next to them (Prometheus rules, etcd status) that are not Kubernetes objects. So a
folder holding one of those two trees is a must-gather root, and under a root only the two
trees are read. A parent folder may hold several roots (several images, several dumps);
all are read, and files outside every root are read as plain snapshot files.

Archives are streamed (never unpacked to disk, see ``snapshot_archive``); the chosen
members' bytes are kept in memory until they are parsed.
"""

from __future__ import annotations

import os
import tarfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from olmtui.sources.snapshot_archive import tar_stream

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


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file to parse. ``name`` is what findings show: the path, or ``archive:member``.

    ``error`` is set (and ``data`` empty) when the file or member could not be read;
    ``truncated`` when that error ended an archive early, so its later members are lost too.
    """

    name: str
    data: bytes
    json_format: bool
    error: str | None = None
    truncated: bool = False


def is_snapshot_file(name: str) -> bool:
    return name.lower().endswith(SNAPSHOT_SUFFIXES)


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def select_files(relative_paths: Iterable[str]) -> list[str]:
    """The files (``/``-separated, relative) that hold snapshot objects, in load order.

    Only YAML/JSON files count; inside a must-gather root only its ``namespaces/`` and
    ``cluster-scoped-resources/`` trees do.
    """
    candidates = [tuple(p.split("/")) for p in relative_paths if is_snapshot_file(p)]
    roots: set[tuple[str, ...]] = set()
    chosen: list[tuple[str, ...]] = []
    rest: list[tuple[str, ...]] = []
    for parts in candidates:
        tree = next((i for i, part in enumerate(parts[:-1]) if part in MUST_GATHER_TREES), None)
        if tree is None:
            rest.append(parts)
        else:
            roots.add(parts[:tree])
            chosen.append(parts)
    for parts in rest:
        if not any(parts[:i] in roots for i in range(len(parts))):
            chosen.append(parts)
    return ["/".join(parts) for parts in sorted(chosen)]


def iter_source_files(path: Path, shown: str) -> Iterator[SourceFile]:
    """The files behind one existing snapshot path; ``shown`` is the path as the user gave it."""
    if path.is_dir():
        yield from _directory_files(path, shown)
    elif is_archive(path.name):
        yield from _archive_files(path, shown)
    else:
        yield _read(path, shown, explicit=True)


def _directory_files(directory: Path, shown: str) -> Iterator[SourceFile]:
    relative: list[str] = []
    for folder, dirs, files in os.walk(directory):
        dirs.sort()
        base = Path(folder).relative_to(directory).as_posix()
        prefix = "" if base == "." else base + "/"
        relative.extend(prefix + f for f in files)
    for rel in select_files(relative):
        yield _read(directory / rel, os.path.join(shown, rel), explicit=False)


def _read(path: Path, shown: str, *, explicit: bool) -> SourceFile:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return SourceFile(shown, b"", False, error=exc.strerror or str(exc))
    json_format = path.name.lower().endswith(".json") or (
        explicit and not is_snapshot_file(path.name) and looks_like_json(data)
    )
    return SourceFile(shown, data, json_format)


def looks_like_json(data: bytes) -> bool:
    """For a file named on the command line without a known suffix: JSON if it opens like it."""
    return data.lstrip(b" \t\r\n\xef\xbb\xbf")[:1] in (b"{", b"[")


def _archive_files(archive: Path, shown: str) -> Iterator[SourceFile]:
    members: dict[str, bytes] = {}
    reading: str | None = None
    failure: SourceFile | None = None
    try:
        with tar_stream(archive) as tar:
            for member in tar:
                name = member.name.removeprefix("./")
                if not (member.isfile() and is_snapshot_file(name)):
                    continue
                reading = name
                handle = tar.extractfile(member)
                members[name] = handle.read() if handle is not None else b""
                reading = None
    except (OSError, EOFError, tarfile.TarError) as exc:
        where = shown if reading is None else f"{shown}:{reading}"
        failure = SourceFile(where, b"", False, error=f"unreadable archive ({exc})", truncated=True)
    for name in select_files(members):
        yield SourceFile(f"{shown}:{name}", members[name], name.lower().endswith(".json"))
    if failure is not None:
        yield failure
