"""The views' footer: Textual's Footer, recomposed only when the keys it shows change.

Textual's Footer rebuilds all its key widgets whenever its screen's bindings are refreshed,
and Textual refreshes them on every suspend and resume of the screen: opening a detail and
coming back rebuilt and restyled the footer of the view underneath twice, which was most
of the cost of Enter and Esc on the CSV view. The keys a view shows only change with focus
or a binding's enabled state, so this footer compares what it would show before rebuilding,
and leaves alone a footer whose screen is not on display.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.screen import Screen
from textual.widgets import Footer, Input


def shown_keys(screen: Screen[Any]) -> tuple[Hashable, ...]:
    """Everything Footer.compose reads from the screen's bindings, as a comparable value:
    the bindings it shows and the command palette's (found by its key: the mapping's key,
    not the node an ``ActiveBinding`` starts with)."""
    palette = screen.app.COMMAND_PALETTE_BINDING
    return tuple(
        (binding, active.enabled, active.tooltip)  # Binding is a frozen dataclass
        for key, active in screen.active_bindings.items()
        if (binding := active.binding).show or key == palette
    )


class KeysFooter(Footer):
    """A Footer that skips rebuilds which would show the same keys."""

    _shown: tuple[Hashable, ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self._shown is not None and not screen.is_current:
            return  # hidden under a pushed screen: its resume refreshes the bindings again
        if self._shown is not None and isinstance(screen.focused, Input):
            # the ``:`` and ``/`` prompts take the printable keys while they are open; the
            # footer keeps the view's keys, which are back when the prompt closes, rather
            # than being rebuilt twice around every command typed
            return
        keys = shown_keys(screen)
        if keys == self._shown:
            return
        if screen.app.app_focus:  # Footer itself ignores changes while the app is unfocused
            self._shown = keys
        super().bindings_changed(screen)
