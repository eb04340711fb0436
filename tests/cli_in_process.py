"""The CLI run in the test's own process, answered as ``subprocess.run`` answers: its exit
status, its stdout and its stderr.

A ``python -m olmtui`` child costs about 1.3 s of CPU to start (the interpreter and olmtui's
imports); a test whose point is the exit status and the one line a refused input prints,
not the process itself, runs ``main(argv)`` here. The real process stays where it is what
a test proves: a traceback on a crash, imports, signals, a read that could block (a FIFO, a
server that never answers: a child is ended by its timeout, a hang here would not be).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

from olmtui.cli import main


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None, drop: tuple[str, ...]) -> Iterator[None]:
    """``os.environ`` with ``env`` set and ``drop`` removed for the block, then as it was."""
    saved = dict(os.environ)
    try:
        for name in drop:
            os.environ.pop(name, None)
        os.environ.update(env or {})
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_cli(
    *argv: str | Path, env: Mapping[str, str] | None = None, drop: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``olmtui ARGV`` as its process would end: argparse's refusals exit 2 through
    ``SystemExit`` as they do in the child."""
    args = [str(a) for a in argv]
    out, err = io.StringIO(), io.StringIO()
    with (
        _environment(env, drop),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(args)
        except SystemExit as exit_:
            code = 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 1
    return subprocess.CompletedProcess(["olmtui", *args], code, out.getvalue(), err.getvalue())
