"""Packaging: one version, dependencies that match the imports, and typing markers.

The dependency check reads the source, not the installed environment: a module imported
anywhere under ``olmtui/`` must come from a declared distribution, and a declared
distribution that nothing imports must not be declared.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from data_paths import ROOT

import olmtui

PACKAGE = ROOT / "olmtui"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _normalized(distribution: str) -> str:
    """PEP 503 form of a distribution name (``PyYAML`` and ``pyyaml`` are one project)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match is not None, requirement
    return _normalized(match[0])


def third_party_imports(package: Path) -> set[str]:
    """Top-level names of the absolute imports under ``package`` that are neither the
    standard library nor ``olmtui`` itself."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.partition(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "olmtui"}


def distributions_of(import_names: set[str]) -> set[str]:
    """The installed distributions that provide ``import_names`` (``yaml`` -> ``pyyaml``)."""
    providers = importlib.metadata.packages_distributions()
    found: set[str] = set()
    for name in import_names:
        assert name in providers, f"{name} is imported but no installed distribution has it"
        found.update(_normalized(d) for d in providers[name])
    return found


def test_the_version_has_one_source() -> None:
    """pyproject takes the version from ``olmtui/__init__.py`` instead of repeating it."""
    project = PYPROJECT["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "olmtui/__init__.py"


def test_version_prints_the_package_metadata_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "olmtui", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert result.stdout.strip() == f"olmtui {importlib.metadata.version('olmtui')}"
    assert olmtui.__version__ == importlib.metadata.version("olmtui")


def test_every_import_is_declared_and_every_dependency_imported() -> None:
    """The dependencies and the ``mcp`` extra (``olmtui mcp``'s SDK, imported only under
    ``olmtui/mcp/``) together are what olmtui imports."""
    extra = {_requirement_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["mcp"]}
    declared = {_requirement_name(r) for r in PYPROJECT["project"]["dependencies"]} | extra
    imported = distributions_of(third_party_imports(PACKAGE))
    assert distributions_of(third_party_imports(PACKAGE / "mcp")) - {"olmtui"} >= extra
    assert imported - declared == set(), "imported but not declared"
    assert declared - imported == set(), "declared but never imported"


def test_the_import_scan_sees_nested_and_from_imports(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("import os\nimport yaml.constructor\nfrom . import b\n")
    (tmp_path / "sub" / "c.py").write_text(
        "def f():\n    from rich.text import Text\n    from olmtui.store import Store\n"
    )
    assert third_party_imports(tmp_path) == {"yaml", "rich"}
    assert distributions_of({"yaml", "rich"}) == {"pyyaml", "rich"}


def test_the_package_is_marked_as_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


def test_the_description_and_help_name_both_olm_generations() -> None:
    """olmtui reads OLM v1 (ClusterExtensions, ClusterCatalogs) as well as v0: what the
    package index and ``olmtui --help`` say it explains must not stop at v0."""
    from olmtui.cli import build_parser

    assert "(OLM v0 and v1)" in PYPROJECT["project"]["description"]
    assert "(OLM v0 and v1)" in " ".join(build_parser().format_help().split())
