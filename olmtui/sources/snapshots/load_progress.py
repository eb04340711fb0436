"""How far a snapshot load has gone, handed to an optional callback after each file.

The loader (``load_snapshot(paths, store, progress=...)``) calls ``progress(LoadProgress)``
once after each file is in the store (an archive member counts as a file), in file order,
from the thread that runs the load: with a callback, the loader hands the store each file's
objects as one batch (without one, batches of ``BATCH_SIZE`` objects), so what the progress
counts is what a screen can show. The
totals are known before the first file: they come from the listing, so a terminal bar and
the dashboard can say "n of N" from the start.

- ``files_total``: the snapshot files selected in every PATH (YAML/JSON files; in an archive,
  its selected members). The record of an archive that ends early is not a file.
- ``bytes_total``: their sizes as listed: ``stat`` sizes for files on disk, and for an archive
  the *uncompressed* sizes of its selected members (what is parsed, not what is read from
  disk: an archive is decompressed while it is listed, before the first file is parsed).
- ``bytes_done``: the listed sizes of the files done, so the last call has
  ``bytes_done == bytes_total`` (a file that changed size since it was listed does not move
  the total).
- ``elapsed``: seconds since the load started (listing included), on a monotonic clock.

Callers that parse in parallel keep the same contract: one call per file, in file order.
"""

from __future__ import annotations

from collections.abc import Callable

from olmtui.frozen import frozen


@frozen
class LoadProgress:
    """One step of a load: files and bytes done of the totals, and seconds elapsed."""

    files_done: int
    files_total: int
    bytes_done: int
    bytes_total: int
    elapsed: float

    @property
    def rate(self) -> float:
        """Bytes per second so far (0 before any time has passed)."""
        return self.bytes_done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def fraction(self) -> float:
        """How much is done, 0..1, by bytes (by files when the files hold no bytes)."""
        if self.bytes_total > 0:
            return min(self.bytes_done / self.bytes_total, 1.0)
        return self.files_done / self.files_total if self.files_total > 0 else 1.0


#: What ``load_snapshot`` calls after each file.
ProgressCallback = Callable[[LoadProgress], None]


def describe(progress: LoadProgress) -> str:
    """The one-line account a terminal and the dashboard both show:
    ``files 120/1000 · 45.2/380.1 MB · 3.2 s · 14.1 MB/s``."""
    mb = 1_000_000
    return (
        f"files {progress.files_done}/{progress.files_total} · "
        f"{progress.bytes_done / mb:.1f}/{progress.bytes_total / mb:.1f} MB · "
        f"{progress.elapsed:.1f} s · {progress.rate / mb:.1f} MB/s"
    )


class ProgressCounter:
    """The loader's side: totals from the listing, one ``advance`` per file done, each
    reported to ``callback`` (nothing when there is none)."""

    def __init__(
        self,
        callback: ProgressCallback | None,
        sizes: list[tuple[int, ...]],
        started: float,
        clock: Callable[[], float],
    ) -> None:
        self.callback = callback
        self.files_total = sum(len(s) for s in sizes)
        self.bytes_total = sum(sum(s) for s in sizes)
        self.files_done = 0
        self.bytes_done = 0
        self.started = started
        self.clock = clock

    def advance(self, size: int) -> None:
        """One more file (of listed ``size``) is in the store."""
        if self.callback is None:
            return
        self.files_done += 1
        self.bytes_done += size
        self.callback(
            LoadProgress(
                self.files_done,
                self.files_total,
                self.bytes_done,
                self.bytes_total,
                self.clock() - self.started,
            )
        )
