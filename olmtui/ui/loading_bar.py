"""The loading bar of a snapshot still streaming in (``olmtui replay``), and what the screens
show of findings meanwhile.

The first screen opens as soon as the dashboard does; the tables fill as the objects land
(the app's ticker coalesces the redraws). One line under the header says how far the load is
(files, MB, elapsed, MB/s) and that the findings wait for its end: an unread file proves
nothing absent, so no finding is computed before every file is in
(``pipeline/pending_index.py``). When the load ends, the bar goes and the screens redraw
with the findings.
"""

from __future__ import annotations

from rich.text import Text
from textual.screen import Screen

from olmtui.pipeline.session import LoadingState, Session
from olmtui.ui import palette
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.source_header import SourceHeader

#: Cells of the gauge.
GAUGE_WIDTH = 20
_NOTE = " · findings when every file is read"
#: What an empty findings table says while loading (not "no findings").
LOADING_TEXT = "loading: findings when every file is read"


def gauge(fraction: float, width: int = GAUGE_WIDTH) -> str:
    """``█████░░░░░``: done by bytes."""
    done = round(max(0.0, min(fraction, 1.0)) * width)
    return "█" * done + "░" * (width - done)


def bar_text(loading: LoadingState) -> Text:
    text = Text("loading ", style="bold")
    text.append(gauge(loading.fraction), style=palette.INFO_STRONG)
    text.append(f" {loading.line}")
    text.append(_NOTE, style=palette.MUTED)
    return text


class LoadingBar(InertStatic):
    """One line under the header while the snapshot loads (it names the files read: shown
    inert); never parses markup."""

    DEFAULT_CSS = """
    LoadingBar {
        height: 1;
        background: $panel;
    }
    """

    def __init__(self, loading: LoadingState) -> None:
        super().__init__()
        self.state = loading

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.update(bar_text(self.state))


class LoadingMarks:
    """What the app put on its screens while loading, to take off when the load ends: the
    bars. (An empty table says "loading" by itself, ``TableScreen.LOADING_EMPTY_TEXT``.)"""

    def __init__(self) -> None:
        self.bars: list[LoadingBar] = []
        self.ended = False

    def clear(self) -> None:
        for bar in self.bars:
            if bar.is_attached:
                bar.remove()
        self.bars.clear()


def follow_loading(session: Session, screen: Screen[object], marks: LoadingMarks) -> bool:
    """Per tick of the app while a snapshot streams in: keep a bar on the screen shown; once
    the load ended, take them all off and say True (the screens must redraw: the findings
    are computed now)."""
    loading = session.loading
    if loading is None or marks.ended:
        return False
    if loading.done:
        marks.clear()
        marks.ended = True
        return True
    if not screen.is_mounted:
        return False
    shown = screen.query(LoadingBar)
    if shown:
        shown.first().redraw()
        return False
    headers = screen.query(SourceHeader)
    if headers:
        bar = LoadingBar(loading)
        screen.mount(bar, after=headers.first())
        marks.bars.append(bar)
    return False
