"""The YAML tab: an object's YAML, highlighted once, painted a visible line at a time.

A CSV's YAML can hold one line of tens of thousands of characters (its icon's base64data), and
a Static holding a Syntax renders every line in full whenever it is repainted: a third of a
second to open the tab or scroll a page. This view keeps the highlighted lines and paints
only the part of each visible line that is on screen (Textual's Line API).
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


class YamlView(ScrollView, can_focus=True):
    """Scrolls with the usual keys (arrows, PgUp/PgDn, Home/End)."""

    DEFAULT_CSS = """
    YamlView {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[Text] = []
        self._painted: LRUCache[tuple[int, int, int], Strip] = LRUCache(_LINES_KEPT)

    @property
    def text(self) -> str:
        return "\n".join(line.plain for line in self._lines)

    def show(self, yaml_text: str) -> None:
        """Show another document from its first line."""
        syntax = Syntax(yaml_text, "yaml", theme="ansi_dark")
        self._lines = list(syntax.highlight(yaml_text).split("\n", allow_blank=True))
        if self._lines and not self._lines[-1].plain:
            self._lines.pop()  # the dump's final newline
        width = max((cell_len(line.plain) for line in self._lines), default=0)
        self._painted.clear()
        self.virtual_size = Size(width, len(self._lines))
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

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
            part = self._lines[index][left : left + width]
            strip = Strip(list(part.render(self.app.console))).apply_style(self.rich_style)
            strip = self._painted[key] = strip.extend_cell_length(width, self.rich_style)
        return strip
