"""A Static whose every update is made inert (``olmtui.ui.inert``): the detail panes, notices
and summaries that show cluster text go through it, so no screen has to remember to."""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static

from olmtui.ui.inert import inert


class InertStatic(Static):
    """Never parses markup; shows control and bidi characters as escapes (``\\x1b``)."""

    def __init__(
        self,
        content: VisualType = "",
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(inert(content), markup=False, id=id, classes=classes)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(inert(content), layout=layout)
