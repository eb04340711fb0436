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


def unreadable(path: Path, detail: str) -> Finding:
    """A warning for a catalog file (or one document in it) that was skipped."""
    return Finding(
        "warning", UNREADABLE, "File", "", str(path),
        f"{path}: {detail}; it was skipped and the rest of the catalog was loaded.",
    )


def read_documents(path: Path, findings: list[Finding]) -> Iterator[tuple[int, Any]]:
    """``(line, value)`` for every non-empty document of ``path``; problems go to ``findings``."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        findings.append(unreadable(path, f"cannot be read ({exc.strerror or exc})"))
        return
    json_format = path.suffix == ".json" or (path.suffix != ".yaml" and data.lstrip()[:1] == b"{")
    for document in parse_documents(data, json_format=json_format):
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


def catalog_files(directory: Path) -> list[Path]:
    """Every YAML/JSON file under ``directory`` (hidden entries skipped), in a stable order."""
    found: list[Path] = []
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory).parts
        if any(part.startswith(".") for part in relative):
            continue
        if path.suffix in CATALOG_SUFFIXES and path.is_file():
            found.append(path)
    return found
