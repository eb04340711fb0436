"""Processes a test starts and talks to over the network: a free port to give them, the
process stopped (its whole group) when the test ends, and the wait for its HTTP to answer."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from conftest import wait_for_sync

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "olmtui" / "samples" / "cluster.yaml"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    import urllib.request

    def answers() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"olmtui serve exited with {proc.returncode}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
        return False

    wait_for_sync(answers, f"{url} to answer", timeout, poll=0.1)


@contextlib.contextmanager
def started(argv: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    """A process that is stopped (its whole group) when the block ends. Its output goes to
    a file (a pipe nobody reads would stop it once full), printed when the test fails."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield proc
        except BaseException:
            log.seek(0)
            print(f"--- output of {argv[0]} ...:\n{log.read()[-4000:].decode(errors='replace')}")
            raise
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
