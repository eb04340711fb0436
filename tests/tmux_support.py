"""A private tmux server for the tests that run olmtui in a real terminal."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from pathlib import Path

from conftest import wait_for_sync

ROOT = Path(__file__).resolve().parent.parent
TMUX = shutil.which("tmux")
#: How long a step may take before the test gives up (a slow, shared machine).
PATIENCE = 60.0


class Tmux:
    """A private tmux server (its own socket), killed when the test ends."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.socket, *args], capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def wait_for(self, needle: str, target: str) -> str:
        """The pane's text once it shows ``needle``."""
        shown = [""]

        def holds() -> bool:
            shown[0] = self("capture-pane", "-p", "-t", target)
            return needle in shown[0]

        with contextlib.suppress(AssertionError):  # the caller's assertion shows the pane
            wait_for_sync(holds, f"{needle!r} in the pane", PATIENCE, poll=0.1)
        return shown[0]
