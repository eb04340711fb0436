"""First-screen bench: how soon ``olmtui replay`` shows something, against the bare
``yaml.load_all(..., CSafeLoader)`` parse of the same files in the same run.

Generates the ``gen_snapshot.py`` cluster (``--namespaces``, default 1,000), warms the page
cache, then times, in one process:

(a) the bare parse of every file (CSafeLoader, the cyclic GC paused as the loader pauses it:
    the baseline the issue's ratios are against);
(b) ``olmtui replay`` in a headless app on the Namespaces view
    (``streaming_snapshot_session``, the session ``replay`` builds): from the start (listing
    included) to the first frame with the loading bar, to the first frame whose table holds
    rows ("first screen with content"), and to the end of the load (bar gone, findings
    computed);
(c) with ``--sync``, the same app over ``snapshot_session`` (everything read before the
    screen, as replay did before it drew while loading) to its first frame with rows.

Frames are those the app hands its (headless) driver (``App._display``), as in
``bench_ui.py``; each condition is looked at right after each frame, and the figure is the
first frame at which it holds.
Target: first screen with content <= 0.3 of (a).

    python bench/bench_first_screen.py [--namespaces 1000] [--keep DIR] [--sync]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_snapshot import Sizes, generate

from olmtui.pipeline.build import snapshot_session, streaming_snapshot_session
from olmtui.pipeline.session import Session
from olmtui.ui.app import OlmApp
from olmtui.ui.loading_bar import LoadingBar
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (160, 48)
#: The view timed: the namespaces come first in every file (the CSVs view hides copies,
#: and a must-gather's own CSVs may come in its last files).
VIEW = "namespaces"
POLL = 0.01


def bare_parse(files: list[Path]) -> tuple[float, int]:
    """Wall seconds of the CSafeLoader parse of every file, the collector paused."""
    documents = 0
    gc.disable()
    try:
        start = time.perf_counter()
        for path in files:
            for _ in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader):
                documents += 1
        return time.perf_counter() - start, documents
    finally:
        gc.enable()


class _Frames:
    """When the app first handed its driver a frame with each of ``tests`` holding: each
    test is looked at right after each frame (``App._display``)."""

    def __init__(self, app: OlmApp, tests: dict[str, Callable[[], bool]]) -> None:
        self.seen: dict[str, float] = {}
        original = app._display

        def display(*args: object, **kwargs: object) -> None:
            original(*args, **kwargs)  # type: ignore[arg-type]
            now = time.perf_counter()
            for name, test in tests.items():
                if name not in self.seen and test():
                    self.seen[name] = now

        app._display = display  # type: ignore[method-assign]

    async def wait(
        self, pilot: object, names: list[str], limit: float, session: Session | None = None
    ) -> None:
        while not all(name in self.seen for name in names):
            if time.perf_counter() > limit:
                raise TimeoutError(f"never drawn: {names}")
            failed = (
                session is not None
                and session.loading is not None
                and (session.loading.error or session.loading.crash)
            )
            if failed:
                raise RuntimeError(f"the load failed: {failed}")
            await pilot.pause(POLL)  # type: ignore[attr-defined]


def _rows(app: OlmApp) -> int:
    tables = app.screen.query("#table")
    return tables.first(VirtualTable).total_count if tables else 0


async def streamed(root: Path, timeout: float) -> dict[str, float]:
    start = time.perf_counter()
    session = streaming_snapshot_session([str(root)])
    app = OlmApp(session, initial_view=VIEW)
    frames = _Frames(
        app,
        {
            "bar": lambda: bool(app.screen.query(LoadingBar)),
            "rows": lambda: _rows(app) > 0,
            "done": lambda: _loaded(session, app),
        },
    )
    async with app.run_test(size=SIZE) as pilot:
        await frames.wait(pilot, ["bar", "rows", "done"], start + timeout, session)
        total = _rows(app)
    return {
        **{name: at - start for name, at in frames.seen.items()},
        "rows_shown_at_end": total,
    }


def _loaded(session: Session, app: OlmApp) -> bool:
    return not session.loading_now and not app.screen.query(LoadingBar)


async def synchronous(root: Path, timeout: float) -> float:
    start = time.perf_counter()
    session = snapshot_session([str(root)])
    app = OlmApp(session, initial_view=VIEW)
    frames = _Frames(app, {"rows": lambda: _rows(app) > 0})
    async with app.run_test(size=SIZE) as pilot:
        await frames.wait(pilot, ["rows"], start + timeout)
    return frames.seen["rows"] - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    parser.add_argument("--keep", type=Path, help="generate into DIR and keep it")
    parser.add_argument("--sync", action="store_true", help="also time (c), the old way")
    parser.add_argument("--timeout", type=float, default=1800.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="olmtui-bench-") as tmp:
        root = args.keep or Path(tmp)
        generated = generate(root, Sizes(namespaces=args.namespaces))
        print(
            f"snapshot: {args.namespaces} namespaces, {len(generated.files)} files, "
            f"{generated.bytes / 1e6:.0f} MB, {generated.csvs} CSVs ({generated.copies} copies)"
        )
        for path in generated.files:  # warm the page cache so (a) and (b) read alike
            path.read_bytes()
        parse_s, documents = bare_parse(generated.files)
        print(f"(a) bare parse (CSafeLoader, GC paused): {parse_s:.2f} s wall, {documents} docs")
        got = asyncio.run(streamed(root, args.timeout))
        for key, label in (
            ("bar", "first frame with the loading bar"),
            ("rows", "first screen with content (rows)"),
            ("done", "load complete, findings shown"),
        ):
            print(f"(b) {label}: {got[key]:.2f} s = {got[key] / parse_s:.3f} of (a)")
        print(f"    rows at the end: {got['rows_shown_at_end']:.0f}")
        if args.sync:
            sync_s = asyncio.run(synchronous(root, args.timeout))
            print(
                f"(c) before: first screen after the whole load: {sync_s:.2f} s = "
                f"{sync_s / parse_s:.3f} of (a)"
            )
        print(f"target: first screen with content <= 0.3 of (a): {got['rows'] / parse_s:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
