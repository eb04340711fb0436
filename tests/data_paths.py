"""Where the tests' real OLM data is: ``tests/data`` in this repository (provenance and trimming
in ``tests/data/SOURCES.md``), so a fresh clone runs its tests with nothing beside it."""

from __future__ import annotations

from pathlib import Path

#: The tests' folder (where this module is) and the repository holding it: a test module finds
#: files through these, never through its own ``__file__``, so it can move to another folder.
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"

#: Every real file-based catalog (FBC) in tests/data/catalogs, JSON and YAML.
FBC_FILES = sorted(
    path
    for pattern in ("catalog.json", "catalog.yaml")
    for path in (DATA / "catalogs").rglob(pattern)
    if "/catalog" in str(path.parent)
)
