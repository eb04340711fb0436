"""The k9s prompt at the bottom: ``:`` jumps to a view (with completion), ``/`` filters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input

Mode = Literal["command", "filter"]


class CommandBar(Input):
    """Hidden until asked for; posts :class:`CommandBar.Entered` and hides again."""

    DEFAULT_CSS = """
    CommandBar {
        dock: bottom;
        display: none;
        height: 3;
    }
    CommandBar.-shown {
        display: block;
    }
    """

    BINDINGS = [Binding("escape", "dismiss", "Cancel", show=False)]

    class Entered(Message):
        def __init__(self, mode: Mode, value: str) -> None:
            super().__init__()
            self.mode = mode
            self.value = value

    class FilterChanged(Message):
        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    def __init__(self, commands: Sequence[str]) -> None:
        super().__init__(suggester=SuggestFromList(commands, case_sensitive=False))
        self.mode: Mode = "command"
        self._commands = SuggestFromList(commands, case_sensitive=False)

    def open(self, mode: Mode, value: str = "") -> None:
        self.mode = mode
        self.suggester = self._commands if mode == "command" else None
        self.placeholder = (
            "view: overview, ns, og, csv, sub, graph, findings, catsrc, changes"
            if mode == "command"
            else "filter (prefix ! to invert)"
        )
        self.value = value
        self.add_class("-shown")
        self.focus()

    def action_dismiss(self) -> None:
        if self.mode == "filter":
            self.post_message(self.FilterChanged(""))
        self.remove_class("-shown")
        self.screen.focus_main()  # type: ignore[attr-defined]

    @on(Input.Changed)
    def _live_filter(self, event: Input.Changed) -> None:
        event.stop()
        if self.mode == "filter" and self.has_class("-shown"):
            self.post_message(self.FilterChanged(event.value))

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        self.remove_class("-shown")
        self.post_message(self.Entered(self.mode, event.value.strip()))
