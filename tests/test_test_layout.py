"""The test suite's own layout: what test modules share lives in helper modules (and the one
wait helper in ``conftest.py``), never in another test module, so each test module can move,
be renamed or be run alone without breaking another."""

from __future__ import annotations

import ast
from pathlib import Path

from data_paths import TESTS


def all_test_modules() -> list[Path]:
    """Every test module, in ``tests/`` or a folder below it (data folders hold none)."""
    return sorted(TESTS.rglob("test_*.py"))


def helper_modules() -> list[Path]:
    """The helper modules: the ``.py`` files beside ``conftest.py`` that are not tests."""
    return sorted(p for p in TESTS.glob("*.py") if not p.name.startswith("test_"))


def imported_modules(path: Path) -> set[str]:
    """The top-level names of the modules ``path`` imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_test_module_imports_another() -> None:
    names = {path.stem for path in all_test_modules()}
    offenders = {
        path.name: sorted(imported_modules(path) & names)
        for path in [*all_test_modules(), *helper_modules()]
        if imported_modules(path) & names
    }
    assert offenders == {}


def test_helper_modules_hold_no_tests() -> None:
    """A helper module named like a test module would be collected; one holding tests would be
    a test module imported by others."""
    holding = {
        path.name
        for path in helper_modules()
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }
    assert holding == set()
