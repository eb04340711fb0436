"""A Static whose every update is made inert (``olmtui.ui.inert``): the detail panes, notices
and summaries that show cluster text go through it, so no screen has to remember to."""

from __future__ import annotations

from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static

from olmtui.ui.inert import inert


def _themed(content: VisualType) -> VisualType:
    """A Text whose own style is a name of the app's theme (``olm.muted``, ``ui/palette``)
    with that style moved onto a span: Textual looks span styles up on the console's theme,
    but parses a Text's own style as CSS-like text, where a theme name paints nothing."""
    if isinstance(content, Text) and isinstance(content.style, str) and content.style:
        content = content.copy()
        content.stylize_before(content.style)
        content.style = ""
    return content


class InertStatic(Static):
    """Never parses markup; shows control and bidi characters as escapes (``\\x1b``)."""

    def __init__(
        self,
        content: VisualType = "",
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(_themed(inert(content)), markup=False, id=id, classes=classes)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(_themed(inert(content)), layout=layout)
