"""Where the tests' real OLM data is: ``tests/data`` in this repository (provenance and trimming
in ``tests/data/SOURCES.md``), so a fresh clone runs its tests with nothing beside it."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

#: Every real file-based catalog (FBC) in tests/data/catalogs, JSON and YAML.
FBC_FILES = sorted(
    path
    for pattern in ("catalog.json", "catalog.yaml")
    for path in (DATA / "catalogs").rglob(pattern)
    if "/catalog" in str(path.parent)
)
