"""What several bench scripts share: a loopback API server loaded with a generated snapshot
(``bench_live``, ``bench_record``, ``bench_soak`` serve one from a child process) and the CPU
their child processes used (``bench_fleet``). A helper, not a bench: it prints nothing."""

from __future__ import annotations

import resource
from pathlib import Path
from typing import Any

import yaml

from olmtui.apiserver import LoopbackAPIServer, run_in_thread


def loaded_server(snapshot: str | Path, bookmark_interval: float) -> Any:
    """A loopback API server running in a thread (its ``run_in_thread`` handle), holding
    every document of the snapshot folder's ``*.yaml`` files (kinds it does not serve are
    skipped)."""
    handle = run_in_thread(LoopbackAPIServer(bookmark_interval=bookmark_interval), timeout=600)
    objs = [
        d
        for p in sorted(Path(snapshot).glob("*.yaml"))
        for d in yaml.load_all(p.read_bytes(), Loader=yaml.CSafeLoader)
        if d
    ]
    handle.load(objs, skip_unknown=True)
    return handle


def children_cpu() -> float:
    """CPU seconds of the children waited for so far (their workers included)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime
