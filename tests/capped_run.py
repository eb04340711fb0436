"""olmtui run as a user would (a subprocess, `python -m olmtui`) under a memory cap: its
exit status, output and error, with the checks every run must pass (no traceback, never rc 3)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests/data/hostile"
GOOD = HOSTILE / "good.yaml"
MEMORY_LIMIT = 2 << 30
TIMEOUT = 120
GIB = 1 << 30
MIB = 1 << 20


@dataclass
class Run:
    status: int
    out: str
    err: str

    @property
    def report(self) -> dict[str, Any]:
        report: dict[str, Any] = json.loads(self.out)
        return report

    def findings(self, code: str = "UnreadableDocument") -> list[dict[str, Any]]:
        return [f for f in self.report["findings"] if f["code"] == code]


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def olmtui(*args: str | Path, output: str = "json") -> Run:
    """``olmtui check ARGS --output OUTPUT`` (or another command) under the memory cap."""
    command = [str(a) for a in args]
    if command[0] == "check":
        command += ["--output", output]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    env.pop("OLMTUI_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "olmtui", *command],
        capture_output=True,
        timeout=TIMEOUT,
        env=env,
        preexec_fn=_cap_memory,
        check=False,
    )
    run = Run(done.returncode, done.stdout.decode(), done.stderr.decode())
    assert "Traceback" not in run.err, run.err
    assert run.status in (0, 1, 2), run.err
    return run
