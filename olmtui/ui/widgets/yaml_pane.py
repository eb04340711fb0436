"""The YAML tab of the object detail: the YAML, a ``/`` search prompt and a status line that
says where the reader is in the search (``match i/n``).

Searching works as in ``less``: ``/`` opens the prompt, matches are marked as the query is
typed, Enter keeps the search, ``n``/``N`` step to the next/previous match (wrapping), Esc
clears it.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.yaml_view import YamlView


class SearchPrompt(Input):
    """Hidden until ``/``; Esc cancels the search."""

    DEFAULT_CSS = """
    SearchPrompt {
        dock: bottom;
        display: none;
        height: 3;
    }
    SearchPrompt.-shown {
        display: block;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", show=False)]

    def action_cancel(self) -> None:
        pane = self.parent
        assert isinstance(pane, YamlPane)
        pane.clear_search()


class YamlPane(Vertical):
    """The YAML view with its search; the screen calls :meth:`show` on every new state."""

    DEFAULT_CSS = """
    YamlPane > #yaml-status {
        height: 1;
        display: none;
        background: $boost;
    }
    YamlPane > #yaml-status.-shown {
        display: block;
    }
    """

    BINDINGS = [
        Binding("n", "next_match(1)", "Next match", show=False),
        Binding("N", "next_match(-1)", "Previous match", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield YamlView(id="yaml-text")
        yield InertStatic(id="yaml-status")
        yield SearchPrompt(placeholder="search the YAML (lower case matches any case)")

    @property
    def view(self) -> YamlView:
        return self.query_one(YamlView)

    @property
    def searching(self) -> bool:
        return bool(self.view.query_text) or self.query_one(SearchPrompt).has_class("-shown")

    def show(self, yaml_text: str, *, keep_position: bool = False) -> None:
        self.view.show(yaml_text, keep_position=keep_position)
        if not keep_position:
            self.clear_search()
        self._status()

    def focus_text(self) -> None:
        self.view.focus()

    def open_search(self) -> None:
        prompt = self.query_one(SearchPrompt)
        prompt.value = self.view.query_text
        prompt.add_class("-shown")
        prompt.focus()

    def clear_search(self) -> None:
        prompt = self.query_one(SearchPrompt)
        prompt.remove_class("-shown")
        self.view.clear_search()
        self._status()
        self.focus_text()

    def action_next_match(self, step: int) -> None:
        self.view.next_match(step)
        self._status()

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.has_class("-shown"):
            self.view.search(event.value)
            self._status()

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        event.stop()
        event.input.remove_class("-shown")
        if event.value != self.view.query_text:
            self.view.search(event.value)
        self._status()
        self.focus_text()

    def _status(self) -> None:
        status = self.query_one("#yaml-status", Static)
        view = self.view
        shown = bool(view.query_text)
        status.set_class(shown, "-shown")
        if shown:
            text = Text(f" /{view.query_text}  ", style="bold")
            text.append(view.match_status)
            text.append("   n next  N previous  esc clear", style="dim")
            status.update(text)
