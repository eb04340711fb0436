"""The k9s prompt at the bottom: ``:`` jumps to a view (with completion), ``/`` filters.

Tab completes the ``:`` line (see :mod:`olmtui.ui.completion`): the one match, else the
prefix the matches share, and pressed again cycles through them. Tab never moves the focus
away from an open prompt, and Esc always closes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from textual import on
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.suggester import SuggestFromList
from textual.widgets import Input

from olmtui.ui import completion

Mode = Literal["command", "filter"]


class CommandBar(Input):
    """Hidden until asked for; posts :class:`CommandBar.Entered` and hides again."""

    # On a layer of its own, over the footer and the detail pane: opening and closing the
    # prompt resizes nothing under it, so the table keeps its painted lines (most of a
    # ``:ns`` Enter was the table and the pane laid out and painted again at a new height).
    DEFAULT_CSS = """
    CommandBar {
        dock: bottom;
        layer: prompt;
        display: none;
        height: 3;
    }
    CommandBar.-shown {
        display: block;
    }
    """

    #: Input sets it on every key (the line's width) and Textual lays the whole screen out for
    #: it; the prompt's own size never changes (3 lines, the screen's width) and Input
    #: scrolls by it without a layout. That layout ran before the filter's own changes
    #: reached the screen, so a key typed in ``/`` laid the screen out twice.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    BINDINGS = [
        Binding("escape", "dismiss", "Cancel", show=False),
        Binding("tab", "complete", "Complete", show=False),
    ]

    class Entered(Message):
        def __init__(self, mode: Mode, value: str) -> None:
            super().__init__()
            self.mode = mode
            self.value = value

    class FilterChanged(Message):
        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    def __init__(
        self,
        commands: Sequence[str],
        completer: Callable[[str], list[str]] | None = None,
        dismissed: Callable[[], None] | None = None,
    ) -> None:
        """``dismissed``: called when Esc closes the bar, at once (the screen gives the keys
        back to what it shows before any key queued after Esc is handled)."""
        words = [*commands, *completion.COMMANDS]
        super().__init__(suggester=SuggestFromList(words, case_sensitive=False))
        self.mode: Mode = "command"
        self._commands = SuggestFromList(words, case_sensitive=False)
        self._complete = completer or (lambda line: completion.candidates(line, words))
        self._dismissed = dismissed
        #: The matches Tab cycles through, and the line Tab last wrote.
        self._matches: list[str] = []
        self._written: str | None = None

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
        # now, not after the keys already queued (``focus()`` waits its turn): ``:csv`` typed
        # or pasted in one burst lands in the prompt, not on the view's own keys
        self.screen.set_focus(self)

    def action_complete(self) -> None:
        """Tab: complete the ``:`` line; again: the next match. In ``/`` it does nothing
        (the filter is matched as typed)."""
        if self.mode != "command":
            return
        if self.value == self._written and len(self._matches) > 1:
            at = self._matches.index(self.value) if self.value in self._matches else -1
            self._write(self._matches[(at + 1) % len(self._matches)])
            return
        self._matches = self._complete(self.value)
        if not self._matches:
            self.app.bell()
            return
        self._write(completion.extend(self.value, self._matches))
        if len(self._matches) > 1:
            shown = "  ".join(m.rpartition(" ")[2] for m in self._matches[:12])
            more = f"  (+{len(self._matches) - 12})" if len(self._matches) > 12 else ""
            self.app.notify(shown + more, title="Tab again for the next", markup=False)

    def _write(self, value: str) -> None:
        self._written = value
        self.value = value
        self.cursor_position = len(value)

    def action_dismiss(self) -> None:
        if self.mode == "filter":
            self.post_message(self.FilterChanged(""))
        self.remove_class("-shown")
        if self._dismissed is not None:
            self._dismissed()

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
