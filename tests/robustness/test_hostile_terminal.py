"""Hostile text against real terminals: ``olmtui replay`` of a snapshot whose every
string carries escape sequences, in a tmux pane (its title unchanged, the dashboard not
blanked, the sequences shown as text), and ``olmtui serve`` (the bytes it sends the browser's
terminal hold none of them).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from hostile_text import injected_in
from processes import free_port, started, wait_for_http
from tmux_support import PATIENCE, ROOT, TMUX, Tmux


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if TMUX is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    server = Tmux(f"olmtui-test-{os.getpid()}")
    try:
        yield server
    finally:
        panes: list[int] = []
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            panes = [int(pid) for pid in server("list-panes", "-a", "-F", "#{pane_pid}").split()]
            server("kill-server")
        _kill_sessions(panes)


def _kill_sessions(leaders: list[int]) -> None:
    """Kill what still runs in the panes' sessions: olmtui outlives the hang-up tmux sends when
    its server is killed, and would be left running after the test (and the suite)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if os.getsid(int(entry.name)) in leaders:
                    os.kill(int(entry.name), signal.SIGKILL)


def test_a_hostile_snapshot_neither_retitles_nor_blanks_a_real_terminal(
    tmux: Tmux, hostile_snapshot: Path
) -> None:
    command = (
        f"env PYTHONPATH={ROOT} TERM=xterm-256color {sys.executable} -m olmtui replay "
        f"{hostile_snapshot} --view csvs; sleep 30"
    )
    tmux("new-session", "-d", "-s", "hostile", "-x", "200", "-y", "50", "sh")
    tmux("set-option", "-t", "hostile", "allow-rename", "on")
    tmux("select-pane", "-t", "hostile", "-T", "olmtui-under-test")
    tmux("send-keys", "-t", "hostile", command, "Enter")
    shown = tmux.wait_for("PWNED", "hostile")
    assert "PWNED" in shown, shown
    tmux("send-keys", "-t", "hostile", "Down", "Down")
    time.sleep(1)  # a few repaints: the detail pane of other rows
    tmux("send-keys", "-t", "hostile", "Enter")  # the CSV's detail: its status message
    shown = tmux.wait_for("\\x1b]0;PWNED", "hostile")
    title = tmux("display-message", "-p", "-t", "hostile", "#{pane_title}")
    tmux("send-keys", "-t", "hostile", "C-q")
    assert title.strip() == "olmtui-under-test"
    lines = shown.splitlines()
    assert sum(1 for line in lines if line.strip()) > 20, shown  # not blanked
    assert "olmtui" in lines[0]  # the header is still there, at the top
    assert "\\x1b]0;PWNED" in shown  # the sequence shown as text


async def test_serve_sends_no_hostile_sequence_to_the_browser(hostile_snapshot: Path) -> None:
    port = free_port()
    serve = [
        *(sys.executable, "-m", "olmtui", "serve", str(hostile_snapshot)),
        *("--port", str(port), "--view", "csvs"),
    ]
    with started(serve) as server:
        wait_for_http(f"http://127.0.0.1:{port}/", server)
        url = f"ws://127.0.0.1:{port}/ws?width=200&height=50"
        received = bytearray()
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(url, headers={"Origin": f"http://localhost:{port}"}) as ws,
        ):
            await ws.send_json(["resize", {"width": 200, "height": 50}])
            await _read_until(ws, received, b"PWNED")
            await ws.send_json(["stdin", "\r"])  # the first CSV's detail
            await _read_until(ws, received, b"\\x1b]0;PWNED")
            await ws.send_json(["stdin", "\x11"])  # ctrl+q
    written = received.decode("utf-8", errors="replace")
    assert "\\x1b]0;PWNED" in written
    assert injected_in(written) == []


async def _read_until(ws: aiohttp.ClientWebSocketResponse, into: bytearray, needle: bytes) -> None:
    """Read the session's terminal output into ``into`` until it holds ``needle``, then a
    little more (the rest of that repaint)."""
    deadline = time.monotonic() + PATIENCE
    seen_at = None
    while time.monotonic() < deadline and (seen_at is None or time.monotonic() < seen_at + 1):
        with contextlib.suppress(TimeoutError):
            message = await ws.receive(timeout=0.5)
            if message.type == aiohttp.WSMsgType.BINARY:
                into += message.data
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
        if seen_at is None and needle in into:
            seen_at = time.monotonic()
    assert needle in into, bytes(into[-2000:])
