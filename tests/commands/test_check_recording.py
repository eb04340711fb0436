"""``olmtui check --at TIME FILE`` on a recording: the report as of that moment (``source.kind``
``recording``, ``source.at``), its end without ``--at``; a moment outside it, ``--at`` on a
snapshot, or a recording beside other paths is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_in_process import run_cli
from live_support import sample_objects
from model_builders import csv
from recording_support import START, Recorded
from report_records import validate_report

from olmtui.sources.recording.moments import utc_text
from olmtui.sources.recording.writer import RecorderStatus


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample cluster at START; at +60 s one CSV fails; at +120 s it is gone."""
    path = tmp_path_factory.mktemp("recording") / "rec"
    recorded = Recorded(path)
    recorded.store.apply_many(sample_objects())
    recorded.now = START + 60
    recorded.store.apply("MODIFIED", csv("team-z", "op.v1", phase="Failed", reason="Boom"))
    recorded.now = START + 120
    recorded.store.apply("DELETED", csv("team-z", "op.v1"))
    recorded.now = START + 130
    recorded.writer.set_status(RecorderStatus(("Subscription",), True))  # relisting
    recorded.close()
    return path


def _report(*argv: str | Path) -> dict:
    result = run_cli("check", *argv, "--output", "json")
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    validate_report(report)
    return report


def _failed(report: dict) -> bool:
    return any(c["name"] == "op.v1" and c["phase"] == "Failed" for c in report["csvs"])


def test_each_moment_reports_the_state_then(recording: Path) -> None:
    at_start = _report(recording, "--at", utc_text(START + 1))
    assert at_start["source"]["kind"] == "recording"
    assert at_start["source"]["at"] == utc_text(START + 1)
    assert at_start["source"]["paths"] == [str(recording)]
    assert not _failed(at_start)
    during = _report(recording, "--at", "-60s")  # argparse would take -70s for a flag
    assert during["source"]["at"] == utc_text(START + 60)
    assert _failed(during)
    assert during["source"]["complete"] is True
    at_end = _report(recording)
    assert at_end["source"]["at"] == utc_text(START + 120)
    assert not _failed(at_end) and at_end["summary"]["csvs"] == during["summary"]["csvs"] - 1


def test_the_text_report_says_which_moment(recording: Path) -> None:
    result = run_cli("check", recording, "--at=-60s")
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"olmtui check: recording {recording}")
    moment = utc_text(START + 60)
    assert f"as of {moment[:10]} {moment[11:16]} UTC (recorded)" in first


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--at", "-1d"], "is outside the recording"),
        (["--at", "soon"], "is not a moment"),
    ],
)
def test_a_bad_moment_is_one_line(recording: Path, argv: list[str], says: str) -> None:
    result = run_cli("check", recording, *argv)
    assert result.returncode == 2
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_at_needs_one_recording_alone(recording: Path, tmp_path: Path) -> None:
    snapshot = tmp_path / "state.yaml"
    snapshot.write_text("")
    result = run_cli("check", snapshot, "--at", "-1m")
    assert result.returncode == 2 and "--at needs a recording" in result.stderr
    result = run_cli("check", recording, snapshot)
    assert result.returncode == 2 and "a recording is read alone" in result.stderr
