"""Cluster text made inert on screen: the dashboard's side of ``olmtui.safe_text``.

Two layers. Before layout, where cluster text becomes a renderable (the table's cells, the
detail panes, the header, the tree, notifications), :func:`inert_text` and :func:`inert` show
every control and bidi character as its escape (``\\x1b``), so the reader sees what the input
held and the widths are those of what is shown. Then :class:`InertFilter`, a line filter on
every line every widget paints (``OlmApp.get_line_filters``), drops whatever control or bidi
character is still in a segment's text, so no widget, present or future, can hand one to the
terminal. Rich measures these characters as zero cells wide, so dropping them keeps every
line's width (a lone surrogate, one cell wide, becomes U+FFFD, one cell too).

Rich itself drops BEL, BS, VT, FF and CR from the text of a ``Text`` as it is built, so a pane
built from Text shows the rest of a sequence without them (the table, built from strings,
and the reports show them escaped too).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate

from rich.console import Group, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Span, Text
from textual.color import Color
from textual.filter import LineFilter
from textual.visual import VisualType

from olmtui.safe_text import UNSAFE, UNSAFE_BUT_NEWLINE, escape_of, visible

#: What the filter puts in place of a lone surrogate: one cell, as the surrogate measured.
_REPLACEMENT = "\ufffd"


def inert_text(text: Text) -> Text:
    """``text`` with every control and bidi character but the line feed shown as its escape,
    its styles kept on the same characters (each span moved by the escapes before it)."""
    plain = text.plain
    if plain.isprintable():  # the common case, in C
        return text
    found = [m.start() for m in UNSAFE_BUT_NEWLINE.finditer(plain)]
    if not found:
        return text
    # where the i-th escape starts in the new text: the old place plus the growth before it
    growth = [0, *accumulate(len(escape_of(plain[at])) - 1 for at in found)]

    def moved(offset: int) -> int:
        # grown by the escapes before it: a span starting at an escaped character covers
        # its escape, one ending there stops before it
        return offset + growth[bisect_left(found, offset)]

    out = text.blank_copy(visible(plain, keep_newlines=True))
    out.spans = [Span(moved(s.start), moved(s.end), s.style) for s in text.spans]
    return out


def inert(content: VisualType) -> VisualType:
    """What a pane shows, inert: Text, plain strings, and the Groups and Tables of them the
    screens build (a Table's cells are made inert in place: it was built for this pane).
    Anything else is left to :class:`InertFilter`."""
    if isinstance(content, Text | str | Group | Table):
        return _inert_renderable(content)
    return content


def _inert_renderable(content: RenderableType) -> RenderableType:
    if isinstance(content, Text):
        return inert_text(content)
    if isinstance(content, str):
        return visible(content, keep_newlines=True)
    if isinstance(content, Group):
        return Group(*map(_inert_renderable, content.renderables), fit=content.fit)
    if isinstance(content, Table):
        for column in content.columns:
            column.header = _inert_renderable(column.header)
            column._cells = list(map(_inert_renderable, column._cells))
    return content


class InertFilter(LineFilter):
    """Drops every control and bidi character left in a painted line's text (see the module
    docstring): the net under every widget, cheap when there is none (one search a line)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        line = "".join([segment.text for segment in segments])
        if line.isprintable() or UNSAFE.search(line) is None:
            return segments
        out = []
        for text, style, control in segments:
            if control is None and UNSAFE.search(text) is not None:
                text = UNSAFE.sub(_dropped, text)
                if not text:
                    continue
            out.append(Segment(text, style, control))
        return out


def _dropped(found: re.Match[str]) -> str:
    char = found.group()
    return _REPLACEMENT if "\ud800" <= char <= "\udfff" else ""
