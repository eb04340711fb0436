"""Colours come from the Textual theme: no colour names in the UI's style strings
or stylesheets, so the palette's theme switch recolours everything and a theme's own
choices stand. Screens style Rich Text with the names of ``olmtui.ui.palette``."""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from data_paths import ROOT

from olmtui.model.records.types import Verdict
from olmtui.pipeline.build import sample_session
from olmtui.ui.screens.csvs import verdict_text

UI = ROOT / "olmtui" / "ui"
STYLES = ROOT / "styles"

#: Rich/CSS colour words (the standard 16 and the usual extras).
COLOURS = frozenset(
    [
        "black",
        "red",
        "green",
        "yellow",
        "blue",
        "magenta",
        "cyan",
        "white",
        "grey",
        "gray",
        "purple",
        "orange",
        "pink",
    ]
)
#: Words a Rich style string is made of besides colours.
STYLE_WORDS = frozenset(
    [
        "bold",
        "dim",
        "italic",
        "underline",
        "reverse",
        "strike",
        "blink",
        "not",
        "on",
        "default",
        "none",
        "b",
        "i",
        "u",
    ]
)
#: (file, string) pairs that must stay for now, with the reason (none today: every screen
#: styles with palette names).
ALLOWED: dict[tuple[str, str], str] = {}


def _is_colour_style(value: str) -> bool:
    """A style string (only style words) that names a colour."""
    words = [w.removeprefix("bright_") for w in value.lower().split()]
    if not words or not all(w in COLOURS or w in STYLE_WORDS for w in words):
        return False
    return any(w in COLOURS for w in words)


def _docstrings(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            ids.add(id(first.value))
    return ids


_CSS_COLOUR = re.compile(
    r":[^;{}]*?(#[0-9a-fA-F]{3,8}\b|\b(?:" + "|".join(sorted(COLOURS)) + r")\b)"
)


def _css_colours(css: str) -> list[str]:
    return [m.group(1) for m in _CSS_COLOUR.finditer(re.sub(r"/\*.*?\*/", "", css, flags=re.S))]


def test_ui_code_names_no_colours():
    found = []
    for path in sorted(UI.rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text())
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            if id(node) in docs:
                continue
            value = node.value
            if "{" in value and "}" in value:  # DEFAULT_CSS
                found += [f"{rel}:{node.lineno}: CSS {c}" for c in _css_colours(value)]
            elif _is_colour_style(value) and (rel, value) not in ALLOWED:
                found.append(f"{rel}:{node.lineno}: {value!r}")
    assert not found, "use palette names or theme variables:\n" + "\n".join(found)


def test_stylesheets_use_theme_variables():
    found = [
        f"{path.name}: {c}"
        for path in sorted(STYLES.glob("*.tcss"))
        for c in _css_colours(path.read_text())
    ]
    assert not found, "use $success, $warning, $error, $text-muted ...:\n" + "\n".join(found)


def test_the_check_finds_what_it_should():
    assert _is_colour_style("bold red") and _is_colour_style("dim yellow")
    assert not _is_colour_style("dim") and not _is_colour_style("olm.error")
    assert not _is_colour_style("the cell is not green yet")
    assert _css_colours("X { color: red; background: $panel; }") == ["red"]
    assert _css_colours("X { background: #ff0000; }") == ["#ff0000"]
    assert _css_colours("X { color: $text-muted; }") == []


def test_allowed_entries_are_still_needed():
    """An allow-list entry goes when its string does."""
    for (rel, value), _reason in ALLOWED.items():
        assert repr(value) in (ROOT / rel).read_text() or f'"{value}"' in (ROOT / rel).read_text()


def test_a_verdict_that_differs_reads_without_colour():
    """OLM's next verdict differing from the CSV's status is marked ``→`` (will become), not
    by its colour alone; an agreeing verdict carries no mark."""
    csv = sample_session().model.csvs()[0]
    same = replace(csv, verdict=Verdict(csv.phase or "", csv.reason or "", ""))
    assert verdict_text(same).plain == f"{csv.phase}/{csv.reason}"
    differs = replace(csv, verdict=Verdict("Failed", "UnsupportedOperatorGroup", ""))
    assert verdict_text(differs).plain == "→ Failed/UnsupportedOperatorGroup"
