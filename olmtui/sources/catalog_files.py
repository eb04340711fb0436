"""Reading catalog files: parsed documents with their line, and a finding for what cannot be read.

Every catalog format (FBC, bundle directories, legacy package manifests) is a set of YAML or
JSON files. One broken file or document must not lose the rest of the catalog, so problems
become ``UnreadableCatalogFile`` warnings naming the file and line, collected by the caller.
Parsing reuses the snapshot document splitter (libyaml on bytes, JSON streams).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from olmtui.model.types import Finding
from olmtui.sources.snapshot_documents import parse_documents

CATALOG_SUFFIXES: tuple[str, ...] = (".yaml", ".yml", ".json")
UNREADABLE = "UnreadableCatalogFile"
_UNUSED_SPEC_KEYS: tuple[bytes, ...] = (b"install:", b"icon:", b"description:", b"relatedImages:")
_ITEM_END: tuple[bytes, ...] = (b" ", b"\r", b"")


def unreadable(path: Path, detail: str) -> Finding:
    """A warning for a catalog file (or one document in it) that was skipped."""
    return Finding(
        "warning", UNREADABLE, "File", "", str(path),
        f"{path}: {detail}; skipped, the rest of the catalog was loaded.",
    )


def _continues_block(line: bytes, indent: int) -> bool:
    """Whether ``line`` still belongs to a ``spec`` key being skipped at ``indent``: blank, a
    comment, more indented, or a block-sequence item written at the key's own indentation."""
    body = line.lstrip(b" ")
    if not body.strip() or body.startswith(b"#"):
        return True
    depth = len(line) - len(body)
    return depth > indent or (depth == indent and body[:1] == b"-" and body[1:2] in _ITEM_END)


def slim_csv_yaml(data: bytes) -> bytes:
    """A CSV's YAML without the parts a catalog never reads (``spec.install``, ``spec.icon``,
    ``spec.description``, ``spec.relatedImages``): most of its bytes, most of its parse time.
    Skipped lines become empty lines, so line numbers in errors stay right."""
    if b"ClusterServiceVersion" not in data:
        return data
    lines = data.split(b"\n")
    in_spec = False
    indent = -1
    skipping = False
    for i, line in enumerate(lines):
        body = line.lstrip(b" ")
        depth = len(line) - len(body)
        if skipping and _continues_block(line, indent):
            lines[i] = b""
            continue
        skipping = False
        if not body.strip() or body.startswith(b"#"):
            continue
        if depth == 0:
            in_spec = body.rstrip() in (b"spec:", b"spec:\r")
            indent = -1
            continue
        if in_spec:
            indent = depth if indent < 0 else indent
            if depth == indent and body.startswith(_UNUSED_SPEC_KEYS):
                lines[i] = b""
                skipping = True
    return b"\n".join(lines)


def read_documents(path: Path, findings: list[Finding], *, slim: bool = False
                   ) -> Iterator[tuple[int, Any]]:
    """``(line, value)`` for every non-empty document of ``path``; problems go to ``findings``.
    With ``slim``, YAML CSVs are read without their unused parts (falling back to the whole
    file if that does not parse)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        findings.append(unreadable(path, f"cannot be read ({exc.strerror or exc})"))
        return
    json_format = path.suffix == ".json" or (path.suffix != ".yaml" and data.lstrip()[:1] == b"{")
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
