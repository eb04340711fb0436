"""The load's progress on the terminal: one line on stderr, redrawn in place, erased at the end.

Only a person at a terminal is shown it: nothing is written unless stderr is a TTY (stdout
does not matter: ``check --output json > file`` on a terminal still shows it, ``2> log`` never
does), and nothing before the load has lasted ``DELAY`` seconds, so quick loads stay silent.
The line is redrawn at most every ``INTERVAL`` seconds of the load and erased (carriage
return, erase to end of line) when the load ends, whether it succeeded or not, so the
report or the error message that follows starts on a clean line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from olmtui.sources.snapshots.load_progress import LoadProgress, ProgressCallback, describe

#: Seconds a load runs before the line appears.
DELAY = 1.0
#: Seconds of load between two redraws: a few a second.
INTERVAL = 0.25
#: Cells of the bar itself.
BAR_WIDTH = 12
_ERASE = "\r\x1b[K"


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False


def _columns(stream: TextIO) -> int:
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 80


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """``[#######.............]``: done by bytes."""
    done = round(max(0.0, min(fraction, 1.0)) * width)
    return "[" + "#" * done + "." * (width - done) + "]"


class TerminalProgress:
    """A progress callback for ``load_snapshot`` that draws the line on ``stream``."""

    def __init__(
        self, stream: TextIO, delay: float | None = None, interval: float | None = None
    ) -> None:
        self.stream = stream
        self.enabled = _is_tty(stream)
        self.delay = DELAY if delay is None else delay
        self.interval = INTERVAL if interval is None else interval
        self.drawn_at: float | None = None

    def __call__(self, progress: LoadProgress) -> None:
        if not self.enabled or progress.elapsed < self.delay:
            return
        if self.drawn_at is not None and progress.elapsed - self.drawn_at < self.interval:
            return
        self.drawn_at = progress.elapsed
        line = f"loading {bar(progress.fraction)} {describe(progress)}"
        self.stream.write(_ERASE + line[: max(_columns(self.stream) - 1, 0)])
        self.stream.flush()

    def close(self) -> None:
        """Erase the line if one was drawn."""
        if self.drawn_at is not None:
            self.stream.write(_ERASE)
            self.stream.flush()
            self.drawn_at = None


@contextmanager
def terminal_progress(stream: TextIO) -> Iterator[ProgressCallback | None]:
    """The callback to hand the loader (None when ``stream`` is no terminal, so the loader
    does not even count), erasing its line when the block ends."""
    if not _is_tty(stream):
        yield None
        return
    shown = TerminalProgress(stream)
    try:
        yield shown
    finally:
        shown.close()
