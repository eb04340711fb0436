"""The registry of views: names and aliases for ``:``, and the screens behind them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.screen import Screen

from olmtui.model.types import ObjectRef
from olmtui.ui.screens.findings import FindingsScreen
from olmtui.ui.screens.help import HelpScreen
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.session import Session


@dataclass(frozen=True, slots=True)
class ViewSpec:
    name: str
    title: str
    aliases: tuple[str, ...]
    help: str
    screen: Callable[..., Screen]


VIEWS: tuple[ViewSpec, ...] = (
    ViewSpec("overview", "Overview", ("home",), "counts, health and the worst findings",
             FindingsScreen),
    ViewSpec("findings", "Findings", ("finding", "problems"), "every problem, worst first",
             FindingsScreen),
)


def resolve(word: str) -> str | None:
    """A view name from a name, an alias or an unambiguous prefix (case-insensitive)."""
    word = word.strip().lower()
    for spec in VIEWS:
        if word == spec.name or word in spec.aliases:
            return spec.name
    matches = [s.name for s in VIEWS if s.name.startswith(word)] if word else []
    return matches[0] if len(matches) == 1 else None


def command_words() -> list[str]:
    return [w for spec in VIEWS for w in (spec.name, *spec.aliases)]


def object_screen(session: Session, ref: ObjectRef, tab: str) -> Screen:
    return ObjectScreen(session, ref, tab)


def graph_screen(session: Session, ref: ObjectRef | None) -> Screen | None:
    return None


def help_screen() -> Screen:
    return HelpScreen()
