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


#: The helper module holding the one builder of each object the tests make.
BUILDERS = TESTS / "model_builders.py"


def kinds_built(function: ast.FunctionDef) -> set[str]:
    """The kinds of the objects ``function`` returns as dict literals (``{"kind": "X", ...}``),
    directly or through a name it assigned one to."""

    def kind_of(node: ast.expr | None) -> str | None:
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "kind"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    return value.value
        return None

    named: dict[str, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign | ast.AnnAssign) and (kind := kind_of(node.value)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named.update({t.id: kind for t in targets if isinstance(t, ast.Name)})
    kinds = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Return):
            value = node.value
            kind = kind_of(value) or (named.get(value.id) if isinstance(value, ast.Name) else None)
            if kind:
                kinds.add(kind)
    return kinds


def top_level_functions(path: Path) -> list[ast.FunctionDef]:
    return [
        node
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef)
    ]


def shared_builders() -> dict[str, set[str]]:
    """The shared builders: each public function of ``model_builders`` that builds an object,
    with the kinds it builds."""
    return {
        function.name: kinds
        for function in top_level_functions(BUILDERS)
        if not function.name.startswith("_") and (kinds := kinds_built(function))
    }


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


def test_no_test_module_redefines_a_shared_builder() -> None:
    """A module that needs a variation of an object passes the shared builder keyword
    arguments (or adds one), rather than defining a builder of the same name."""
    names = set(shared_builders())
    offenders = {
        path.name: sorted(f.name for f in top_level_functions(path) if f.name in names)
        for path in all_test_modules()
    }
    assert {name: found for name, found in offenders.items() if found} == {}


#: Builders not yet folded into ``model_builders``; the list may only shrink (a stale entry
#: fails the test). Empty: every module builds its objects with the shared builders.
NOT_YET_SHARED: set[str] = set()


def test_no_module_builds_its_own_object_of_a_kind_the_builders_make() -> None:
    """One builder per kind: a test or helper module's function that returns one object of a
    kind ``model_builders`` builds (a Subscription, a CSV, ...) calls that builder instead of
    writing the object out again. Functions that make several kinds (a whole cluster, a random
    object of any kind) and the tests themselves are not builders."""
    kinds = set().union(*shared_builders().values())
    offenders = {
        f"{path.name}:{function.name}"
        for path in [*all_test_modules(), *helper_modules()]
        if path != BUILDERS
        for function in top_level_functions(path)
        if not function.name.startswith("test_")
        and len(built := kinds_built(function)) == 1
        and built <= kinds
    }
    assert offenders - NOT_YET_SHARED == set()
    assert NOT_YET_SHARED - offenders == set(), "shared now: drop them from NOT_YET_SHARED"
