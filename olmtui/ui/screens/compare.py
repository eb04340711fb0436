"""``M``: the state marked with ``m`` against the one shown now, in ``olmtui diff``'s words
(``pipeline/marks.py`` compares; this screen only shows the lines): the two sides, the
operators, findings and incidents new or resolved, then the objects by kind (``+`` new,
``-`` gone, ``~`` changed, with the fields), and what one side could not read, not compared
(R-REC-8). A line-API log, so a comparison of thousands of lines scrolls as one of ten.
Every line is cluster text: written as plain text, never markup, and made inert by the
app's line filter. Esc or q closes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Log

from olmtui.safe_text import visible
from olmtui.ui.widgets.inert_static import InertStatic

TITLE = "Compare: marked → now (m marks again, :unmark forgets)"


class CompareScreen(Screen[None]):
    """The comparison's ``lines``, scrolled."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Close")]

    DEFAULT_CSS = """
    CompareScreen > #compare-title { height: 1; text-style: bold; }
    CompareScreen > Log { height: 1fr; }
    """

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = tuple(lines)

    def compose(self) -> ComposeResult:
        yield InertStatic(TITLE, id="compare-title")
        yield Log(highlight=False, auto_scroll=False)

    def on_mount(self) -> None:
        log = self.query_one(Log)
        # a blank line is kept as one (the log drops an empty string)
        log.write_lines([visible(line) or " " for line in self.lines])
        log.scroll_home(animate=False)
        log.focus()
