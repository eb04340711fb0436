"""``olmtui diff FILE@TIME FILE@TIME`` on a recording file ``olmtui record`` wrote: the diff
reads it through the recording's own reader (``recording_readers``), each side the state at
its moment."""

from __future__ import annotations

import json
from pathlib import Path

from cli_in_process import run_cli
from live_support import sample_objects
from model_builders import csv
from recording_support import START, Recorded

from olmtui.sources.recording.moments import utc_text


def test_two_moments_of_one_file_differ_by_what_happened_between(tmp_path: Path) -> None:
    path = tmp_path / "rec"
    recorded = Recorded(path)
    recorded.store.apply_many(sample_objects())
    recorded.now = START + 60
    recorded.store.apply("ADDED", csv("team-b", "added.v1", phase="Failed", reason="Boom"))
    recorded.close()
    before, after = f"{path}@{utc_text(START + 30)}", f"{path}@-0s"
    result = run_cli("diff", before, after, "--output", "json")
    assert result.returncode == 1, result.stderr
    diff = json.loads(result.stdout)
    assert diff["from"]["kind"] == diff["to"]["kind"] == "recording"
    added = diff["objects"]["added"]
    assert any(ref.get("name") == "added.v1" for ref in added), added
    same = run_cli("diff", before, f"{path}@{utc_text(START + 40)}", "--output", "json")
    assert same.returncode == 0, same.stdout
