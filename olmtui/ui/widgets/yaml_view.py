"""The YAML tab: an object's YAML, highlighted once, painted a visible line at a time.

A CSV's YAML can hold one line of tens of thousands of characters (its icon's base64data), and
a Static holding a Syntax renders every line in full whenever it is repainted: a third of a
second to open the tab or scroll a page. This view keeps the highlighted lines and paints
only the part of each visible line that is on screen (Textual's Line API).

It follows a live object (``show(..., keep_position=True)`` re-renders in place) and searches
as ``less`` does: ``search`` marks every match, ``next_match`` steps through them, wrapping.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.syntax import Syntax
from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

#: Painted lines kept: scrolling back and forth repaints from here.
_LINES_KEPT = 500

#: A match: line index, first column, end column.
Match = tuple[int, int, int]


def find_matches(lines: list[str], query: str) -> list[Match]:
    """Every occurrence of ``query``, in reading order; smart case (as vim's ``smartcase``):
    case-insensitive unless the query has a capital letter. The dump escapes non-ASCII text,
    so lowering a line keeps its columns."""
    if not query:
        return []
    sensitive = query != query.lower()
    needle = query if sensitive else query.lower()
    out: list[Match] = []
    for index, line in enumerate(lines):
        hay = line if sensitive else line.lower()
        start = hay.find(needle)
        while start >= 0:
            out.append((index, start, start + len(needle)))
            start = hay.find(needle, start + len(needle))
    return out


class YamlView(ScrollView, can_focus=True):
    """Scrolls with the usual keys (arrows, PgUp/PgDn, Home/End)."""

    COMPONENT_CLASSES = {"yaml-view--match", "yaml-view--current"}

    DEFAULT_CSS = """
    YamlView {
        height: 1fr;
    }
    YamlView > .yaml-view--match {
        text-style: reverse;
    }
    YamlView > .yaml-view--current {
        text-style: bold reverse underline;
        color: $accent;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[Text] = []
        self._painted: LRUCache[tuple[int, int, int], Strip] = LRUCache(_LINES_KEPT)
        self._query = ""
        self._matches: list[Match] = []
        self._by_line: dict[int, list[tuple[int, int]]] = {}
        self._current = -1

    @property
    def text(self) -> str:
        return "\n".join(line.plain for line in self._lines)

    def show(self, yaml_text: str, *, keep_position: bool = False) -> None:
        """Show a document: another one from its first line, or (``keep_position``) a new
        state of the same one where the reader was, its search redone."""
        x, y = (self.scroll_x, self.scroll_y) if keep_position else (0, 0)
        syntax = Syntax(yaml_text, "yaml", theme="ansi_dark")
        self._lines = list(syntax.highlight(yaml_text).split("\n", allow_blank=True))
        if self._lines and not self._lines[-1].plain:
            self._lines.pop()  # the dump's final newline
        width = max((cell_len(line.plain) for line in self._lines), default=0)
        self.virtual_size = Size(width, len(self._lines))
        if keep_position and self._query:
            current = self._current
            self._find(self._query)
            self._current = min(current, len(self._matches) - 1)
        else:
            self._find("")
        self._painted.clear()
        self.scroll_to(x, y, animate=False, immediate=True)
        self.refresh()

    # -- search ------------------------------------------------------------------------
    @property
    def query_text(self) -> str:
        """The search in force (``query`` is Textual's DOM query: never shadow it)."""
        return self._query

    @property
    def match_status(self) -> str:
        """``match i/n`` for the status line ("" without a search)."""
        if not self._query:
            return ""
        if not self._matches:
            return "no match"
        return f"match {self._current + 1}/{len(self._matches)}"

    def _find(self, query: str) -> None:
        self._query = query
        self._matches = find_matches([line.plain for line in self._lines], query)
        self._by_line = {}
        for index, start, end in self._matches:
            self._by_line.setdefault(index, []).append((start, end))
        self._current = -1

    def search(self, query: str) -> None:
        """Mark every match of ``query`` and go to the first one from the top line shown."""
        self._find(query)
        top = round(self.scroll_y)
        if self._matches:
            first = next((i for i, m in enumerate(self._matches) if m[0] >= top), 0)
            self._go_to(first)
        self._painted.clear()
        self.refresh()

    def clear_search(self) -> None:
        self._find("")
        self._painted.clear()
        self.refresh()

    def next_match(self, step: int = 1) -> None:
        """The next (``step`` 1) or previous (-1) match, wrapping around the document."""
        if self._matches:
            self._go_to((self._current + step) % len(self._matches))
            self._painted.clear()
            self.refresh()

    def _go_to(self, number: int) -> None:
        self._current = number
        index, start, end = self._matches[number]
        region = self.scrollable_content_region
        x, y = self.scroll_x, self.scroll_y
        if not y <= index < y + region.height:
            y = max(0, index - region.height // 3)
        if not (x <= start and end <= x + region.width):
            x = max(0, start - region.width // 4)
        self.scroll_to(x, y, animate=False, immediate=True)

    # -- keys: jump, as the tables do; an animated page is a dozen repaints of the view --
    def action_scroll_up(self) -> None:
        self.scroll_up(animate=False)

    def action_scroll_down(self) -> None:
        self.scroll_down(animate=False)

    def action_scroll_left(self) -> None:
        self.scroll_left(animate=False)

    def action_scroll_right(self) -> None:
        self.scroll_right(animate=False)

    def action_page_up(self) -> None:
        self.scroll_page_up(animate=False)

    def action_page_down(self) -> None:
        self.scroll_page_down(animate=False)

    def action_scroll_home(self) -> None:
        self.scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_end(animate=False)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._painted.clear()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        if index >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        left = round(self.scroll_x)
        key = (index, left, width)
        strip = self._painted.get(key)
        if strip is None:
            # the dump escapes non-ASCII text, so characters and cells agree
            part = self._marked(index)[left : left + width]
            strip = Strip(list(part.render(self.app.console))).apply_style(self.rich_style)
            strip = self._painted[key] = strip.extend_cell_length(width, self.rich_style)
        return strip

    def _marked(self, index: int) -> Text:
        """Line ``index`` with its search matches marked (the theme's styles)."""
        line = self._lines[index]
        spans = self._by_line.get(index)
        if not spans:
            return line
        line = line.copy()
        match = self.get_component_rich_style("yaml-view--match", partial=True)
        current = self._matches[self._current] if self._current >= 0 else None
        for start, end in spans:
            if current == (index, start, end):
                style = self.get_component_rich_style("yaml-view--current", partial=True)
            else:
                style = match
            line.stylize(style, start, end)
        return line
