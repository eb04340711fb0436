"""Quitting ``olmtui replay`` while its snapshot is still loading ends the loading thread
quietly, in a real terminal (tmux), against a snapshot large enough to be parsed by a process
pool for seconds (the bench's synthetic cluster, bench/gen_snapshot.py).

``q`` or ctrl+c during the load printed ``Exception in thread olmtui-snapshot-load`` and a
traceback cut off by the exit (2 of 6 tries): the thread handed its next batch to the closed
event loop, then handed that error to it too. Several quits, at several moments of the load.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_support import ROOT, TMUX, Tmux

from olmtui.pipeline.streaming import Loading, stream_into
from olmtui.sources.snapshots.snapshot import list_snapshot
from olmtui.store import Store

sys.path.insert(0, str(ROOT / "bench"))
from gen_snapshot import Sizes, generate

#: (key, seconds after the loading bar shows): quits at several moments of the load.
QUITS = [("q", 0.0), ("C-c", 0.0), ("q", 0.2), ("C-c", 0.5), ("q", 1.0), ("q", 2.0)]


@pytest.fixture(scope="module")
def large_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 60 MB of YAML: above the size that parses in a process pool."""
    out = tmp_path_factory.mktemp("large") / "cluster"
    generate(out, Sizes(namespaces=150, global_operators=20, single_operators=100))
    return out


@pytest.fixture
def terminal() -> Iterator[Tmux]:
    """A tmux server of this test's own: a server that is still going away does not take
    the next test's session with it."""
    if TMUX is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    server = Tmux(f"olmtui-quit-{uuid.uuid4().hex[:12]}")
    try:
        yield server
    finally:
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            server("kill-server")


@pytest.mark.parametrize(("key", "delay"), QUITS)
def test_quitting_mid_load_prints_no_traceback(
    terminal: Tmux, large_snapshot: Path, key: str, delay: float
) -> None:
    tmux = terminal
    # "R""C=": the pane shows the command too, and only the exit status may match
    command = (
        f"env PYTHONPATH={ROOT} TERM=xterm-256color {sys.executable} -m olmtui replay "
        f'{large_snapshot}; echo "R""C=$?"'
    )
    tmux("new-session", "-d", "-s", "replay", "-x", "120", "-y", "40", "sh")
    tmux("send-keys", "-t", "replay", command, "Enter")
    shown = tmux.wait_for("loading", "replay")
    assert "loading" in shown, shown
    time.sleep(delay)
    tmux("send-keys", "-t", "replay", key)
    shown = tmux.wait_for("RC=", "replay")
    assert "RC=" in shown, shown
    time.sleep(0.5)  # what a thread left behind would print after the exit
    everything = tmux("capture-pane", "-p", "-S", "-", "-t", "replay")
    assert "RC=0" in everything, everything
    assert "Traceback" not in everything and "Exception" not in everything, everything


def test_the_loading_thread_ends_quietly_when_the_loop_closed_under_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The race of the test above, made certain: the dashboard quits (its load cancelled,
    its loop closed) while the thread is inside a file, and what the thread meets next
    fails (as a process pool refuses work once the interpreter exits)."""
    uncaught: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", uncaught.append)
    inside, quit_done = threading.Event(), threading.Event()

    def pace() -> None:  # on the loading thread, after a file
        inside.set()
        quit_done.wait(30)
        raise RuntimeError("cannot schedule new futures after interpreter shutdown")

    listing = list_snapshot([str(ROOT / "olmtui" / "samples" / "cluster.yaml")])
    loop = asyncio.new_event_loop()
    load = loop.create_task(stream_into(Store(), listing, Loading(), pace)())
    loop.run_until_complete(loop.run_in_executor(None, inside.wait, 30))
    (thread,) = [t for t in threading.enumerate() if t.name == "olmtui-snapshot-load"]
    load.cancel()  # the dashboard quits
    loop.run_until_complete(asyncio.gather(load, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_default_executor())
    loop.close()
    quit_done.set()
    thread.join(30)
    assert not thread.is_alive()
    assert [hook.exc_value for hook in uncaught] == []
