"""Running Debian's kubectl against the loopback server: one command and its output, one that
must fail and its error, and a ``-w`` left running whose lines are read as they come."""

from __future__ import annotations

import contextlib
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator

from conftest import wait_for_sync

KUBECTL = shutil.which("kubectl") or "/usr/bin/kubectl"


def kubectl(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [KUBECTL, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def kubectl_fails(env: dict[str, str], *args: str) -> str:
    """kubectl's stderr, once it is known to have exited with 1 (an API error)."""
    done = subprocess.run(
        [KUBECTL, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1
    return done.stderr


def _lines(stream: object, into: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.put(line)


@contextlib.contextmanager
def watching(env: dict[str, str], *args: str) -> Iterator[queue.Queue[str]]:
    """``kubectl ARGS`` left running (a ``-w``): the lines it prints, as they come; killed
    on leaving."""
    watcher = subprocess.Popen(
        [KUBECTL, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(watcher.stdout, lines), daemon=True).start()
    try:
        yield lines
    finally:
        watcher.kill()
        watcher.wait(10)


def printed(lines: queue.Queue[str], text: str, seconds: float) -> str:
    """The first line kubectl prints (from now on) that holds ``text``."""
    found: list[str] = []

    def seen() -> bool:
        while not found:
            try:
                line = lines.get_nowait()
            except queue.Empty:
                return False
            if text in line:
                found.append(line)
        return True

    wait_for_sync(seen, f"kubectl to print {text!r}", seconds)
    return found[0]
