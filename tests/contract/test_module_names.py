"""A module says what it holds: none is named after its own package again, whole or as a
prefix (``rules/apis/apis.py`` or ``catalog/catalog_health.py`` told a reader nothing the
folder had not)."""

from __future__ import annotations

from pathlib import Path

import olmtui

PACKAGE_DIR = Path(olmtui.__file__).parent


def _repeats_its_package(path: Path) -> bool:
    package = path.parent.name
    return path.stem == package or path.stem.startswith(f"{package}_")


def modules_named_like_their_package(root: Path) -> list[str]:
    return sorted(
        str(path.relative_to(root.parent))
        for path in root.rglob("*.py")
        if _repeats_its_package(path)
    )


def test_no_module_repeats_its_package_name() -> None:
    assert modules_named_like_their_package(PACKAGE_DIR) == []


def test_a_module_named_like_its_package_is_caught(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    (root / "apis").mkdir(parents=True)
    (root / "apis" / "apis.py").write_text("")
    (root / "apis" / "reconcile.py").write_text("")
    assert modules_named_like_their_package(root) == ["pkg/apis/apis.py"]


def test_a_module_prefixed_with_its_package_name_is_caught(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    (root / "catalog").mkdir(parents=True)
    (root / "catalog" / "catalog_health.py").write_text("")
    (root / "catalog" / "catalogd.py").write_text("")
    (root / "catalog" / "health.py").write_text("")
    assert modules_named_like_their_package(root) == ["pkg/catalog/catalog_health.py"]
