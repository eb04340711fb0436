"""The layers of olmtui hold: which part may import which, no import cycle, a pure model.

The import graph is read from the source with ``ast``: ``import`` and ``from`` statements,
absolute and relative, wherever they stand (function bodies, ``try`` blocks and ``if
TYPE_CHECKING:`` blocks too). A TYPE_CHECKING import never runs, but the type it names is
still a dependency on that layer, so it counts like any other. ``from p import x`` is an
arrow to ``p.x`` when that is a module, else to ``p``. The CLI's sub-commands are imported
by name (``importlib``) and are not arrows here; ``cli`` may import ``commands`` anyway.

A *part* is a top-level module or package of olmtui (``model``, ``store``, ``ui``, ...).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from data_paths import ROOT

PACKAGE_DIR = ROOT / "olmtui"

#: The parts each part may import (besides itself). From the bottom: the leaves, the cache,
#: the pure model and report, the sources, the pipeline that wires them, the screens that
#: read a built pipeline, and the commands and the CLI on top.
ALLOWED: dict[str, frozenset[str]] = {
    "__init__": frozenset(),
    "errors": frozenset(),
    "gc_pause": frozenset(),
    # the records' decorator (immutable to mypy, light at run time): a leaf every part uses
    "frozen": frozenset(),
    "objects": frozenset(),
    "kinds": frozenset(),
    "apiserver": frozenset({"frozen"}),
    "shape": frozenset({"frozen"}),
    "safe_text": frozenset(),
    # what the cache keeps of Pods, Jobs and Events (R-EVD-1): a leaf beside the cache
    "store_evidence": frozenset({"kinds"}),
    # OLM's log lines and their index by object (R-EVD-10): a leaf beside the cache
    "store_logs": frozenset({"frozen"}),
    "store_revisions": frozenset({"kinds", "store_evidence"}),
    "store": frozenset(
        {
            "objects",
            "kinds",
            "gc_pause",
            "shape",
            "store_evidence",
            "store_logs",
            "store_revisions",
            "frozen",
        }
    ),
    # the model reads Events as the cache keeps them (their time and subject, R-EVD-11)
    "model": frozenset(
        {"objects", "kinds", "shape", "store", "store_evidence", "gc_pause", "frozen"}
    ),
    "report": frozenset({"objects", "kinds", "model", "store", "safe_text", "frozen"}),
    "sources": frozenset(
        {"objects", "kinds", "model", "store", "store_evidence", "errors", "gc_pause", "frozen"}
    ),
    "demo": frozenset({"apiserver", "kinds", "sources", "model", "store", "frozen"}),
    "pipeline": frozenset(
        {"sources", "demo", "model", "kinds", "store", "report", "errors", "frozen"}
    ),
    "ui": frozenset(
        {"pipeline", "model", "kinds", "store", "report", "gc_pause", "safe_text", "frozen"}
    ),
    # the MCP server (``olmtui mcp``): tools answered from a built Session
    "mcp": frozenset(
        {
            "__init__",
            "pipeline",
            "model",
            "kinds",
            "store",
            "report",
            "errors",
            "safe_text",
            "frozen",
        }
    ),
    "commands": frozenset(
        {"pipeline", "ui", "demo", "sources", "model", "kinds", "store", "report", "errors", "mcp"}
    ),
    "cli": frozenset(
        {"__init__", "commands", "ui", "pipeline", "sources", "report", "errors", "safe_text"}
    ),
    "__main__": frozenset({"cli"}),
}
#: What the screens never load, directly or through anything they import (package
#: ``__init__`` modules included): they receive a built Session and read it.
UI_NEVER_LOADS = ("sources", "apiserver", "demo", "commands", "cli")
#: The sources read objects into the store; the rules that judge them (the Model, in
#: ``model/incremental/engine.py``) are never loaded by a source, not even for a constant.
SOURCES_NEVER_LOAD = ("olmtui.model.incremental.engine",)
#: Where the health rule families are declared: every other module of olmtui this one imports
#: is a rule module (or a record or primitive the rules use).
RULE_DECLARATIONS = "olmtui.model.rules.health_rules"
#: The declaration machinery, which the declarations import beside the rules.
RULE_MACHINERY = "olmtui.model.rules.rule_family"
#: The incremental machinery: what follows the change feed or keeps state across changes.
INCREMENTAL = (
    "olmtui.model.incremental.engine",
    "olmtui.model.incremental.health_index",
    "olmtui.model.incremental.cluster_index",
    "olmtui.model.incremental.approval_index",
    "olmtui.model.incremental.stages",
    "olmtui.model.incremental.copy_tracking",
    "olmtui.model.incremental.group_index",
    "olmtui.model.incremental.group_links",
    "olmtui.model.incremental.cached_namespaces",
    "olmtui.model.viewmodels.views",
    RULE_MACHINERY,
    RULE_DECLARATIONS,
)
#: Third-party libraries the model does without: no UI, no Kubernetes client.
MODEL_FORBIDDEN_LIBRARIES = ("textual", "rich", "kubernetes", "kubernetes_asyncio", "aiohttp")
#: What makes a module of ``ui/`` a UI module: it draws, with Textual or Rich. The analysis
#: the screens show lives in ``pipeline/analysis.py`` (and ``model/``), never under ``ui/``.
UI_LIBRARIES = ("textual", "rich")
#: The modules of ``ui/`` that draw nothing themselves and are no analysis either: texts and
#: helpers of the screens alone (a package's ``__init__`` is exempt).
UI_HELPERS = frozenset(
    {
        "olmtui.ui.access",  # what a screen says of a kind it may not read
        "olmtui.ui.completion",  # the command line's completion
        "olmtui.ui.graph_lanes",  # the lanes an upgrade graph is drawn in
        "olmtui.ui.rows_ahead",  # a table's rows built ahead of the scroll
        "olmtui.ui.styles",  # where the stylesheet is
        "olmtui.ui.widgets.row_filter",  # the ``/`` filter of a table
    }
)
#: The analysis machinery: the screens read its results through ``Session.analysis``, they
#: never build or drive it themselves.
UI_NEVER_IMPORTS = (
    "olmtui.model.incremental.health",
    "olmtui.model.incremental.health_index",
    "olmtui.model.rules.resolution.resolve",
    "olmtui.pipeline.memo",
    "olmtui.pipeline.pending_index",
    "olmtui.pipeline.predicted",
)


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool

    @property
    def package(self) -> str:
        """The package relative imports start from."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


def modules_under(package_dir: Path) -> dict[str, Module]:
    """Every module of the package at ``package_dir``, by dotted name."""
    found = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [package_dir.name, *path.relative_to(package_dir).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        found[name] = Module(name, path, is_package)
    return found


def imported_names(module: Module, known: Mapping[str, Module]) -> set[str]:
    """Every name the module imports, anywhere in it; ``from p import x`` gives ``p.x`` when
    that is a known module, else ``p``."""
    tree = ast.parse(module.path.read_text(), filename=str(module.path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.package.split(".")[: len(module.package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                names.add(submodule if submodule in known else source)
    return names


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (a name that is no module, such
    as ``olmtui.model.incremental.engine.Model``, stands for the module that defines it)."""
    known = modules_under(package_dir)
    graph: dict[str, set[str]] = {}
    for name, module in known.items():
        targets = set()
        for imported in imported_names(module, known):
            while imported and imported not in known:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def part_of(name: str) -> str:
    """``olmtui.model.incremental.engine`` -> ``model``; the package itself is ``__init__``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def forbidden_arrows(
    graph: Mapping[str, set[str]], allowed: Mapping[str, frozenset[str]]
) -> list[str]:
    """``importer -> imported`` for every import between parts that ``allowed`` does not let."""
    return sorted(
        f"{importer} -> {imported}"
        for importer, targets in graph.items()
        for imported in targets
        if part_of(imported) != part_of(importer)
        and part_of(imported) not in allowed.get(part_of(importer), frozenset())
    )


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The modules that import each other in a circle (Tarjan's strongly connected
    components of more than one module), each sorted."""
    index: dict[str, int] = {}
    lowlink: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = lowlink[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                lowlink[node] = min(lowlink[node], lowlink[target])
            elif target in on_stack:
                lowlink[node] = min(lowlink[node], index[target])
        if lowlink[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def loaded_by(graph: Mapping[str, set[str]], start: Iterable[str]) -> set[str]:
    """Every module that importing ``start`` loads: what they import, transitively, and the
    packages (``__init__``) above each of them."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(graph.get(name, ()))
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
    return seen


GRAPH = import_graph(PACKAGE_DIR)


def test_every_part_has_its_rule() -> None:
    assert {part_of(name) for name in GRAPH} <= set(ALLOWED), "add the new part to ALLOWED"


def test_parts_import_only_what_their_layer_allows() -> None:
    assert forbidden_arrows(GRAPH, ALLOWED) == []


def test_no_import_cycle_anywhere() -> None:
    assert import_cycles(GRAPH) == []


def test_nothing_but_main_imports_the_cli() -> None:
    assert {name for name, targets in GRAPH.items() if "olmtui.cli" in targets} == {
        "olmtui.__main__"
    }


def test_the_screens_never_load_a_source() -> None:
    ui_modules = [name for name in GRAPH if part_of(name) == "ui"]
    assert len(ui_modules) > 10
    loaded = loaded_by(GRAPH, ui_modules)
    assert sorted(name for name in loaded if part_of(name) in UI_NEVER_LOADS) == []


def test_the_sources_never_load_the_engine() -> None:
    loaded = loaded_by(GRAPH, [name for name in GRAPH if part_of(name) == "sources"])
    assert "olmtui.model.records.catalog" in loaded
    assert sorted(loaded.intersection(SOURCES_NEVER_LOAD)) == []


def test_the_rules_load_no_store_and_no_incremental_machinery() -> None:
    """A rule reads plain objects and records: whether it runs from scratch (``check``) or
    per subject from the change feed (the screens) is the declarations' business."""
    rules = GRAPH[RULE_DECLARATIONS] - {RULE_MACHINERY}
    assert {"olmtui.model.rules.catalog.health", "olmtui.model.rules.v1.findings"} <= rules
    loaded = loaded_by(GRAPH, rules)
    assert sorted(loaded.intersection({"olmtui.store", *INCREMENTAL})) == []


def library_of(name: str) -> str:
    return name.partition(".")[0]


def analysis_in_ui(package_dir: Path, helpers: frozenset[str]) -> list[str]:
    """The modules of the package's ``ui`` part that neither import a UI library nor are
    among ``helpers``: code that computes rather than draws (packages' ``__init__`` aside)."""
    known = modules_under(package_dir)
    return sorted(
        m.name
        for m in known.values()
        if part_of(m.name) == "ui"
        and not m.is_package
        and m.name not in helpers
        and not {library_of(n) for n in imported_names(m, known)} & set(UI_LIBRARIES)
    )


def test_every_ui_module_draws_or_is_a_named_ui_helper() -> None:
    assert analysis_in_ui(PACKAGE_DIR, UI_HELPERS) == []
    assert all(name in GRAPH for name in UI_HELPERS), "a helper that is gone: drop it"


def test_the_screens_never_import_the_analysis_machinery() -> None:
    imported = {
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        if part_of(name) == "ui"
        for target in targets
        if target in UI_NEVER_IMPORTS
    }
    assert sorted(imported) == []


def test_no_string_keyed_derived_cache_anywhere() -> None:
    """What the screens derive is typed (``pipeline/analysis.py``), not a bag of strings."""
    holding = [
        str(path.relative_to(PACKAGE_DIR))
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        if "derived_cache" in path.read_text()
    ]
    assert holding == []


@pytest.mark.parametrize(
    "module",
    [m for m in modules_under(PACKAGE_DIR).values() if part_of(m.name) == "model"],
    ids=lambda m: m.name,
)
def test_model_module_imports_no_ui_or_kubernetes_client(module: Module) -> None:
    libraries = {library_of(n) for n in imported_names(module, modules_under(PACKAGE_DIR))}
    assert libraries.isdisjoint(MODEL_FORBIDDEN_LIBRARIES)


# -- the checks catch what they are for ---------------------------------------------------------


def write_package(root: Path, files: Mapping[str, str]) -> Path:
    """A package ``pkg`` under ``root`` with ``files`` (path -> source); every directory
    gets an ``__init__.py``."""
    package = root / "pkg"
    for relative, source in {"__init__.py": "", **files}.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        for directory in [path.parent, *path.parent.parents]:
            if directory == root:
                break
            (directory / "__init__.py").touch()
        path.write_text(source)
    return package


def test_a_cycle_through_a_function_local_relative_import_is_caught(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {
            "a.py": "from pkg import b\n",
            "b.py": "def later():\n    from . import c\n",
            "c.py": "import pkg.a\n",
            "d.py": "import pkg.a\n",
        },
    )
    assert import_cycles(import_graph(package)) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_forbidden_arrow_is_caught_also_under_type_checking(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {
            "low/x.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from pkg.high.y import Thing\n"
            ),
            "high/y.py": "from ..low import x\nclass Thing: ...\n",
        },
    )
    allowed = {"__init__": frozenset(), "low": frozenset(), "high": frozenset({"low"})}
    graph = import_graph(package)
    assert graph["pkg.high.y"] == {"pkg.low.x"}
    assert forbidden_arrows(graph, allowed) == ["pkg.low.x -> pkg.high.y"]


def test_a_ui_module_that_draws_nothing_is_caught(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {
            "ui/screen.py": "from textual.screen import Screen\n",
            "ui/table.py": "from rich.text import Text\n",
            "ui/texts.py": "import time\n",
            "ui/derived.py": "from pkg.model import engine\n",
            "model/engine.py": "",
        },
    )
    assert analysis_in_ui(package, frozenset({"pkg.ui.texts"})) == ["pkg.ui.derived"]


def test_loading_a_module_loads_its_packages_init_and_what_that_imports(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {
            "screen.py": "from pkg.wiring.types import Session\n",
            "wiring/__init__.py": "from pkg.wiring import build\n",
            "wiring/types.py": "class Session: ...\n",
            "wiring/build.py": "import pkg.source\n",
            "source.py": "",
        },
    )
    assert "pkg.source" in loaded_by(import_graph(package), ["pkg.screen"])


#: What a rule may take from the store: its plain vocabulary, never the cache itself.
RULES_STORE_VOCABULARY = frozenset({"Key", "LIVE", "Malformed", "Unreadable", "is_copied_csv"})


def rules_contract_breaches(package_dir: Path) -> list[str]:
    """``module -> what`` for every module of ``model/rules`` that imports the incremental
    machinery (``model/incremental``) or the store beyond its plain vocabulary."""
    prefix = f"{package_dir.name}.model.rules"
    breaches = []
    for module in modules_under(package_dir).values():
        if module.name != prefix and not module.name.startswith(prefix + "."):
            continue
        tree = ast.parse(module.path.read_text(), filename=str(module.path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                sources = [(alias.name, "*") for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                sources = [(node.module, alias.name) for alias in node.names]
            else:
                continue
            for source, name in sources:
                target = f"{source}.{name}"
                if target.startswith(f"{package_dir.name}.model.incremental") or (
                    source == f"{package_dir.name}.store" and name not in RULES_STORE_VOCABULARY
                ):
                    breaches.append(f"{module.name} -> {target}")
    return sorted(breaches)


def test_the_rules_import_no_store_and_no_incremental_machinery() -> None:
    assert rules_contract_breaches(PACKAGE_DIR) == []


def test_a_rule_importing_the_store_or_the_engine_is_caught(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {
            "store.py": "class Store: ...\nclass Key: ...\n",
            "model/rules/ok.py": "from pkg.store import Key\n",
            "model/rules/a/cache.py": "from pkg.store import Store\n",
            "model/rules/b.py": "from pkg.model.incremental import engine\n",
            "model/incremental/engine.py": "from pkg.store import Store\n",
        },
    )
    assert rules_contract_breaches(package) == [
        "pkg.model.rules.a.cache -> pkg.store.Store",
        "pkg.model.rules.b -> pkg.model.incremental.engine",
    ]
