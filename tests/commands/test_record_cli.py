"""``olmtui record`` as a process against the loopback API server: it says what it records
and where, SIGTERM closes the file whole, a SIGKILL mid-write leaves a file that replays up
to its last complete change, and it sends GET requests only. A missing kubeconfig or a bad
flag is one line and exit 2."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_in_process import run_cli
from conftest import wait_for_sync
from data_paths import ROOT
from live_support import sample_objects
from model_builders import namespace

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.sources.recording.reader import open_recording
from olmtui.store import Key


def _recorder(config: Path, output: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("KUBECONFIG", None)
    argv = ["record", "-o", str(output), "--kubeconfig", str(config)]
    return subprocess.Popen(
        [sys.executable, "-m", "olmtui", *argv], stderr=subprocess.PIPE, text=True, env=env
    )


def _grown(path: Path, size: int) -> bool:
    return path.exists() and path.stat().st_size > size


def test_sigterm_closes_the_file_and_sigkill_loses_at_most_the_tail(tmp_path: Path) -> None:
    server = LoopbackAPIServer(bookmark_interval=0.2)
    server.state.load(sample_objects(), skip_unknown=True)
    thread = run_in_thread(server)
    try:
        config = server.write_kubeconfig(tmp_path / "kubeconfig")
        # SIGTERM: a whole file, what was recorded and where said on stderr
        clean = tmp_path / "clean"
        child = _recorder(config, clean)
        wait_for_sync(lambda: _grown(clean, 4000), "the initial lists recorded", 60)
        thread.create(namespace("after-start"))
        key = Key("Namespace", "", "after-start")
        wait_for_sync(
            lambda: key in open_recording(str(clean)).state(len(open_recording(str(clean)))),
            "the new namespace recorded",
            30,
        )
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        lines = err.splitlines()
        assert lines[0].startswith(f"olmtui record: recording the current context to {clean}")
        assert lines[-1] == f"olmtui record: stopped; {clean} closed"
        timeline = open_recording(str(clean))
        assert timeline.incomplete_because == []
        assert key in timeline.state(len(timeline))

        # SIGKILL while changes stream in: the file opens, every change kept is whole
        killed = tmp_path / "killed"
        child = _recorder(config, killed)
        wait_for_sync(lambda: _grown(killed, 4000), "the initial lists recorded", 60)
        created = 0
        start = killed.stat().st_size
        while not _grown(killed, start + 3000) and created < 2000:
            thread.create(namespace(f"burst-{created:04d}"))
            created += 1
        for more in range(created, created + 50):  # still writing when it dies
            thread.create(namespace(f"burst-{more:04d}"))
        child.kill()
        child.communicate(timeout=60)
    finally:
        thread.stop()
    timeline = open_recording(str(killed))
    state = timeline.state(len(timeline))
    burst = sorted(k.name for k in state if k.kind == "Namespace" and k.name.startswith("burst-"))
    assert burst, "the changes flushed before the kill are in the file"
    # what it holds is a prefix of what happened, in order: no change lost in the middle
    assert burst == [f"burst-{i:04d}" for i in range(len(burst))]
    assert {r.method for r in server.requests} == {"GET"}


def test_a_missing_kubeconfig_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = run_cli(
        "record", "-o", tmp_path / "rec", "--kubeconfig", tmp_path / "missing", drop=("KUBECONFIG",)
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "rec").exists()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["record", "-o", "x", "--max-age", "soon"], "not an age"),
        (["record", "-o", "x", "--max-size", "big"], "not a size"),
        (["--record", "x", "check", "--sample"], "--record before `check`"),
    ],
)
def test_bad_record_flags_are_one_line(argv: list[str], says: str) -> None:
    result = run_cli(*argv)
    assert result.returncode == 2
    assert says in result.stderr


def test_a_file_that_is_not_a_recording_is_never_overwritten(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("mine\n")
    server = LoopbackAPIServer()
    thread = run_in_thread(server)
    try:
        config = server.write_kubeconfig(tmp_path / "kubeconfig")
        result = run_cli("record", "-o", other, "--kubeconfig", config, drop=("KUBECONFIG",))
    finally:
        thread.stop()
    assert result.returncode == 2
    assert "exists and is not an olmtui recording" in result.stderr
    assert other.read_text() == "mine\n"
