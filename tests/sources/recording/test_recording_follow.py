"""A recording still being written (R-REC-3): the recorder holds its file while it writes,
so a reader tells the frame being written from a tail cut by a crash, reads on what was
appended (``read_on``), and ``olmtui replay`` follows it: a cursor at the end stays at the
end, one moved back stays where it is, and the Changes and finding-times worker reads on
too."""

from __future__ import annotations

from pathlib import Path

from model_builders import csv, namespace
from recording_support import START, Recorded
from timeline_support import ImmediateHost

from olmtui.pipeline.build import rewind_session
from olmtui.pipeline.time_cursor import TimeCursor
from olmtui.sources.recording.reader import open_recording
from olmtui.sources.recording.timeline import ChangeListTimeline
from olmtui.sources.recording.writing import being_written


def _writing(path: Path) -> Recorded:
    recorded = Recorded(path)
    recorded.store.apply("ADDED", namespace("team-z"))
    recorded.writer.flush()
    return recorded


def test_a_file_being_written_is_read_on_as_it_grows(tmp_path: Path) -> None:
    recorded = _writing(tmp_path / "rec")
    timeline = open_recording(str(recorded.path))
    assert timeline.writing and being_written(str(recorded.path))
    assert len(timeline) == 1
    recorded.now = START + 10
    recorded.store.apply("ADDED", csv("team-z", "op.v1", phase="Installing"))
    recorded.store.apply("MODIFIED", csv("team-z", "op.v1", phase="Succeeded"))
    recorded.writer.flush()
    assert timeline.read_on() is True
    reference = recorded.reference
    assert len(timeline) == len(reference) == 3
    assert timeline.ended == START + 10
    for count in range(len(reference) + 1):
        assert timeline.state(count) == reference.state(count)
    recorded.close()
    assert timeline.read_on() is False and not being_written(str(recorded.path))
    assert timeline.incomplete_because == []


def test_the_frame_being_written_is_no_cut(tmp_path: Path) -> None:
    recorded = _writing(tmp_path / "rec")
    recorded.store.apply("ADDED", csv("team-z", "op.v1"))
    recorded.writer.flush()
    whole = recorded.path.read_bytes()
    # the reader comes while the last frame is half written
    with recorded.path.open("r+b") as file:
        file.truncate(len(whole) - 7)
    timeline = open_recording(str(recorded.path))
    assert timeline.writing and timeline.incomplete_because == []
    assert len(timeline) == 1
    with recorded.path.open("ab") as file:  # the writer finishes its frame
        file.write(whole[-7:])
    timeline.read_on()
    assert len(timeline) == 2 and timeline.incomplete_because == []
    recorded.close()
    # the same half frame with no writer is a cut tail, and said (R-REC-3)
    cut = recorded.path.read_bytes()[:-7]
    (tmp_path / "cut").write_bytes(cut)
    assert open_recording(str(tmp_path / "cut")).incomplete_because


def test_replay_follows_a_recording_still_written(tmp_path: Path) -> None:
    recorded = _writing(tmp_path / "rec")
    timeline = open_recording(str(recorded.path))
    history = open_recording(str(recorded.path))
    session = rewind_session(
        timeline, history=history, grow=timeline.read_on, worker_grow=history.read_on
    )
    cursor = session.time
    assert isinstance(cursor, TimeCursor) and cursor.place().growing
    assert session.runner is not None  # it reads on for as long as the app runs
    recorded.now = START + 10
    recorded.store.apply("ADDED", csv("team-z", "op.v1", phase="Failed", reason="Boom"))
    recorded.writer.flush()
    cursor.grown(timeline.read_on())
    assert cursor.place().at_end and cursor.position == 2  # at the end: followed
    assert session.store.get("ClusterServiceVersion", "team-z", "op.v1") is not None
    assert "CSVFailed" in {f.code for f in session.analysis.all_findings()}
    host = ImmediateHost()
    cursor.follow(host)  # the worker's reader reads on before it walks
    assert len(history) == 2
    assert list(cursor.entries())  # the Changes view holds the new change
    cursor.step(-1)
    recorded.now = START + 20
    recorded.store.apply("DELETED", csv("team-z", "op.v1"))
    recorded.writer.flush()
    cursor.grown(timeline.read_on())
    assert cursor.position == 1 and len(timeline) == 3  # moved back: stays there
    recorded.close()
    cursor.grown(timeline.read_on())
    assert not cursor.place().growing


def test_a_complete_recording_is_not_followed(tmp_path: Path) -> None:
    recorded = _writing(tmp_path / "rec")
    recorded.close()
    timeline = open_recording(str(recorded.path))
    assert not timeline.writing
    session = rewind_session(ChangeListTimeline(recorded.changes, START))
    assert session.runner is None
