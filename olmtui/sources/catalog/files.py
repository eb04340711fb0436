"""Reading catalog files: parsed documents with their line, and a finding for what cannot be read.

Every catalog format (FBC, bundle directories, legacy package manifests) is a set of YAML or
JSON files. One broken file or document must not lose the rest of the catalog, so problems
become ``UnreadableCatalogFile`` warnings naming the file and line, collected by the caller.
Parsing reuses the snapshot document splitter (libyaml on bytes, JSON streams), and reading
the snapshot limits (``input_limits``: regular files only, of bounded size).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from olmtui.model.records.types import Finding
from olmtui.sources.input_limits import Refused, read_regular
from olmtui.sources.snapshots.snapshot_documents import parse_documents
from olmtui.sources.snapshots.snapshot_files import looks_like_json

CATALOG_SUFFIXES: tuple[str, ...] = (".yaml", ".yml", ".json", ".jsonl")
UNREADABLE = "UnreadableCatalogFile"
_UNUSED_SPEC_KEYS: tuple[bytes, ...] = (b"install", b"icon", b"description", b"relatedImages")
#: ``spec:`` as a top-level key opening a block mapping.
_SPEC_LINE = re.compile(rb"^spec:[ \t]*\r?$", re.MULTILINE)
#: The first line under it that is neither blank nor a comment; group 1 is its indentation.
_FIRST_CHILD = re.compile(rb"^( *)(?!#)[^ \r\n]", re.MULTILINE)
#: A line at column 0 (the next top-level key or a document marker) ends the spec mapping.
_TOP_LEVEL = re.compile(rb"^[^ \r\n#]", re.MULTILINE)


def unreadable(path: Path, detail: str) -> Finding:
    """A warning for a catalog file (or one document in it) that was skipped."""
    return Finding(
        "warning",
        UNREADABLE,
        "File",
        "",
        str(path),
        f"{path}: {detail}; skipped, the rest of the catalog was loaded.",
        rule="R-SRC-1",
    )


def _block_end(indent: int) -> re.Pattern[bytes]:
    """The first line after a skipped ``spec`` key that is no longer part of it: not blank, not
    a comment, indented at most ``indent``, and not a block-sequence item at ``indent`` (YAML
    lets a key's sequence items sit at the key's own indentation)."""
    return re.compile(
        rb"^(?! {%d})(?! *#)(?! {%d}-(?:[ \r\n]|$)) *[^ \r\n]" % (indent + 1, indent), re.MULTILINE
    )


def slim_csv_yaml(data: bytes) -> bytes:
    """A CSV's YAML without the parts a catalog never reads (``spec.install``, ``spec.icon``,
    ``spec.description``, ``spec.relatedImages``): most of its bytes, most of its parse time.
    Skipped lines become empty lines, so line numbers in errors stay right. Only block-style
    ``spec:`` mappings are touched; anything else is left as it is."""
    if b"ClusterServiceVersion" not in data:
        return data
    pieces: list[bytes] = []
    done = 0
    for spec in _SPEC_LINE.finditer(data):
        if spec.start() < done:
            continue
        first = _FIRST_CHILD.search(data, spec.end())
        if first is None or not first.group(1):
            continue
        indent = len(first.group(1))
        key = re.compile(rb"^ {%d}(?:%s):" % (indent, b"|".join(_UNUSED_SPEC_KEYS)), re.MULTILINE)
        end_of_block = _block_end(indent)
        pos = spec.end()
        while (found := key.search(data, pos)) and not _TOP_LEVEL.search(data, pos, found.start()):
            line_end = data.find(b"\n", found.start())
            stop = end_of_block.search(data, len(data) if line_end < 0 else line_end + 1)
            stop_at = len(data) if stop is None else stop.start()
            pieces += [
                data[done : found.start()],
                b"\n" * data.count(b"\n", found.start(), stop_at),
            ]
            done = pos = stop_at
    pieces.append(data[done:])
    return b"".join(pieces)


def read_documents(
    path: Path, findings: list[Finding], *, slim: bool = False
) -> Iterator[tuple[int, Any]]:
    """``(line, value)`` for every non-empty document of ``path``; problems go to ``findings``.
    With ``slim``, YAML CSVs are read without their unused parts (falling back to the whole
    file if that does not parse)."""
    try:
        data = read_regular(path)
    except Refused as refused:
        findings.append(unreadable(path, str(refused)))
        return
    except OSError as exc:
        findings.append(unreadable(path, f"cannot be read ({exc.strerror or exc})"))
        return
    json_format = path.suffix == ".json" or (path.suffix != ".yaml" and looks_like_json(data))
    documents = None
    if slim and not json_format:
        documents = list(parse_documents(slim_csv_yaml(data), json_format=False))
    if documents is None or any(d.problem is not None for d in documents):
        documents = list(parse_documents(data, json_format=json_format))
    for document in documents:
        if document.problem is not None:
            findings.append(unreadable(path, document.problem))
        elif document.value is not None:
            yield document.line, document.value


def read_mapping(path: Path, findings: list[Finding]) -> dict[str, Any] | None:
    """The first document of a one-document file (annotations, package manifest), if a mapping."""
    for line, value in read_documents(path, findings):
        if isinstance(value, dict):
            return value
        findings.append(unreadable(path, f"line {line}: expected a mapping"))
        return None
    return None


def catalog_files(directory: Path, *, recursive: bool = True) -> list[Path]:
    """Every YAML/JSON file under ``directory`` (hidden entries skipped), in a stable order."""
    found: list[Path] = []
    for path in sorted(directory.rglob("*") if recursive else directory.iterdir()):
        relative = path.relative_to(directory).parts
        if any(part.startswith(".") for part in relative):
            continue
        if path.suffix in CATALOG_SUFFIXES and path.is_file():
            found.append(path)
    return found
