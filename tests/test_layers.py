"""The model layer stays pure: no Textual, no Kubernetes client, anywhere under olmtui/model."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

MODEL_DIR = Path(__file__).resolve().parent.parent / "olmtui" / "model"
FORBIDDEN = (
    "textual",
    "kubernetes",
    "kubernetes_asyncio",
    "aiohttp",
    "olmtui.ui",
    "olmtui.sources",
)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def forbidden_in(path: Path) -> set[str]:
    return {
        name
        for name in imported_modules(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    }


@pytest.mark.parametrize("path", sorted(MODEL_DIR.rglob("*.py")), ids=lambda p: p.name)
def test_model_module_imports_no_ui_or_kubernetes_client(path: Path) -> None:
    assert forbidden_in(path) == set()


def test_the_guard_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import textual.app\nfrom kubernetes_asyncio import client\nimport json\n")
    assert forbidden_in(bad) == {"textual.app", "kubernetes_asyncio"}


def test_model_directory_is_not_empty() -> None:
    assert len(list(MODEL_DIR.rglob("*.py"))) > 2
