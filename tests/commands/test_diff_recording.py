"""``olmtui diff FILE@TIME ...``: a recording at a moment is one side, read through the
Timeline contract (here a fake opener over a ``ChangeListTimeline``); ``@`` is split from
the right only when what is left is a recording."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from model_builders import catalog_source, csv, namespace, operator_group, subscription
from snapshot_files import yaml_documents

from olmtui.commands import diff as diff_command
from olmtui.sources.recording.moments import utc_text
from olmtui.sources.recording.timeline import ChangeListTimeline, TimedChange, Timeline
from olmtui.store import key_of

START = 1_800_000_000.0
RECORDING = "cluster.rec"


def state() -> list[dict[str, Any]]:
    return [
        namespace("ops"),
        namespace("openshift-marketplace"),  # a snapshot infers missing ones, a recording not
        operator_group("ops", "og", targets=["ops"], status=["ops"]),
        csv("ops", "pkg.v1", version="1.0.0", group="og", targets="ops"),
        subscription("ops", "sub", installed="pkg.v1", current="pkg.v1", state="AtLatestKnown"),
        catalog_source("openshift-marketplace", "cat"),
    ]


def timeline() -> ChangeListTimeline:
    """The state at START, the CSV Failed at START+600, the channel moved at START+1200."""
    changes = [TimedChange(START, "ADDED", key_of(obj), obj) for obj in state()]
    failed = copy.deepcopy(state()[3])
    failed["status"].update(phase="Failed", reason="InstallCheckFailed", message="not ready")
    changes.append(TimedChange(START + 600, "MODIFIED", key_of(failed), failed))
    moved = copy.deepcopy(state()[4])
    moved["spec"]["channel"] = "fast"
    changes.append(TimedChange(START + 1200, "MODIFIED", key_of(moved), moved))
    return ChangeListTimeline(changes, START, context="prod")


@pytest.fixture
def recordings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """The fake opener: ``cluster.rec`` (in ``tmp_path``, the working directory) is a
    recording; the paths opened are listed."""
    opened: list[str] = []

    def is_timeline(path: str) -> bool:
        return Path(path).name == RECORDING

    def open_timeline(path: str) -> Timeline:
        opened.append(path)
        return timeline()

    monkeypatch.setattr(diff_command, "recording_readers", lambda: (is_timeline, open_timeline))
    monkeypatch.chdir(tmp_path)
    return opened


def json_diff(*argv: str) -> tuple[int, dict[str, Any]]:
    result = run_cli("diff", *argv, "--output", "json")
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)


def test_two_moments_of_one_recording(recordings: list[str]) -> None:
    early = f"{RECORDING}@{utc_text(START + 300)}"
    status, answer = json_diff(early, f"{RECORDING}@-0s")
    assert status == 1 and recordings == [RECORDING, RECORDING]
    assert answer["from"]["kind"] == "recording"
    assert answer["from"]["at"] == utc_text(START + 300)
    assert answer["to"]["at"] == utc_text(START + 1200)
    assert answer["from"]["paths"] == [RECORDING]
    fields = {
        (c["ref"]["kind"], w["field"]) for c in answer["objects"]["changed"] for w in c["what"]
    }
    assert ("ClusterServiceVersion", "status.phase") in fields
    assert ("Subscription", "spec.channel") in fields
    assert "CSVFailed" in {f["code"] for f in answer["findings"]["new"]}


def test_a_recording_alone_stands_for_its_end(recordings: list[str]) -> None:
    status, _ = json_diff(f"{RECORDING}@{utc_text(START + 1200)}", RECORDING)
    assert status == 0


def test_one_moment_against_the_snapshot_of_the_same_state(
    recordings: list[str], tmp_path: Path
) -> None:
    (tmp_path / "state.yaml").write_text(yaml_documents(state()))
    status, answer = json_diff("state.yaml", f"{RECORDING}@{utc_text(START)}")
    assert status == 0, answer
    text = run_cli("diff", "state.yaml", f"{RECORDING}@{utc_text(START + 700)}").stdout
    assert f"(at {utc_text(START + 700)})" in text


def test_a_path_holding_an_at_sign_is_still_a_path(recordings: list[str], tmp_path: Path) -> None:
    (tmp_path / "snap@v1.yaml").write_text(yaml_documents(state()))
    status, _ = json_diff("snap@v1.yaml", "snap@v1.yaml")
    assert status == 0 and recordings == []


@pytest.mark.parametrize(
    ("moment", "says"), [("tomorrow", "is not a moment"), ("-3h", "outside the recording")]
)
def test_a_bad_moment_is_one_line_exit_2(recordings: list[str], moment: str, says: str) -> None:
    result = run_cli("diff", f"{RECORDING}@{moment}", RECORDING)
    assert result.returncode == 2
    assert says in result.stderr and len(result.stderr.splitlines()) == 1
