"""The replay's cursor withholds what the recorder had not read at its moment, as
``check --at`` does (R-REC-2): at a moment the recorder was still listing a kind or was
disconnected, the findings resting on the absence of objects are withheld and one warning
says why; the finding history's sessions are built the same way, so no finding is said to
have appeared at such a moment; and the recorder's namespaces hold (R-DOC-10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_support import sample_objects
from model_builders import csv
from recording_support import START, Recorded
from timeline_support import ImmediateHost

from olmtui.model.records.types import Finding
from olmtui.model.rules.input.partial import INCOMPLETE
from olmtui.pipeline.build import recording_session, rewind_session
from olmtui.pipeline.session import Session
from olmtui.pipeline.time_cursor import TimeCursor
from olmtui.sources.recording.reader import RecordingTimeline, open_recording
from olmtui.sources.recording.timeline import ChangeListTimeline
from olmtui.sources.recording.writer import RecorderStatus

#: Seconds after START: CSVs listed, the connection lost, back, one change after.
LISTED, LOST, BACK, CHANGED = 30, 60, 90, 95
LISTING_CSVS, DISCONNECTED = 5, 70


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """The sample cluster, its CSVs listed last; then a disconnection and a change after."""
    objects = sample_objects()
    recorded = Recorded(tmp_path_factory.mktemp("rewind") / "rec", connected=False)
    recorded.writer.set_status(RecorderStatus(("ClusterServiceVersion",), True))
    recorded.store.apply_many([o for o in objects if o["kind"] != "ClusterServiceVersion"])
    recorded.now = START + LISTED
    recorded.store.apply_many([o for o in objects if o["kind"] == "ClusterServiceVersion"])
    recorded.writer.set_status(RecorderStatus((), True))
    recorded.now = START + LOST
    recorded.writer.set_status(RecorderStatus((), False))
    recorded.now = START + BACK
    recorded.writer.set_status(RecorderStatus((), True))
    recorded.now = START + CHANGED
    recorded.store.apply("ADDED", csv("team-z", "late.v1", phase="Failed", reason="Boom"))
    recorded.close()
    return recorded


@pytest.fixture(scope="module")
def timeline(recorded: Recorded) -> RecordingTimeline:
    return open_recording(str(recorded.path))


def said(findings: list[Finding] | tuple[Finding, ...]) -> list[tuple[str, ...]]:
    return sorted((f.severity, f.code, f.kind, f.namespace, f.name, f.message) for f in findings)


def cursor_at(session: Session, seconds: float) -> Session:
    assert isinstance(session.time, TimeCursor)
    session.time.at_moment(START + seconds)
    return session


@pytest.mark.parametrize("seconds", [0, LISTING_CSVS, LISTED, DISCONNECTED, BACK, CHANGED])
def test_the_cursor_shows_what_check_at_reports(timeline: RecordingTimeline, seconds: int) -> None:
    replay = cursor_at(rewind_session(timeline), seconds)
    when = START + seconds
    reported = recording_session(timeline, timeline.count_at(when), when=when)
    assert replay.input_partial() == reported.input_partial()
    assert said(list(replay.analysis.all_findings())) == said(
        list(reported.analysis.all_findings())
    )


@pytest.mark.parametrize("seconds", [LISTING_CSVS, DISCONNECTED])
def test_absence_is_withheld_where_the_recorder_could_not_see(
    recorded: Recorded, timeline: RecordingTimeline, seconds: int
) -> None:
    replay = cursor_at(rewind_session(timeline), seconds)
    naive = cursor_at(rewind_session(ChangeListTimeline(recorded.changes, START)), seconds)
    shown = {f.code for f in replay.analysis.all_findings()}
    unseen = {f.code for f in naive.analysis.all_findings()} - shown
    assert INCOMPLETE in shown
    # what a full read would have claimed missing: the installed CSVs (while the recorder
    # listed them) or the copies (while it was away)
    assert unseen & {"InstalledCSVGone", "MissingCopiedCSV"}
    moved_on = cursor_at(replay, CHANGED)
    assert INCOMPLETE not in {f.code for f in moved_on.analysis.all_findings()}


def test_no_finding_is_dated_from_a_moment_the_recorder_could_not_see(
    timeline: RecordingTimeline,
) -> None:
    replay = rewind_session(timeline, history=open_recording(str(timeline.path)))
    assert replay.time is not None
    replay.time.follow(ImmediateHost())
    cursor_at(replay, LISTING_CSVS)
    withheld = next(f for f in replay.analysis.all_findings() if f.code == INCOMPLETE)
    times = replay.time.finding_times(withheld)
    # the history's own sessions withheld the same: the warning is there from the start
    # (a history read as if complete would have dated "InstalledCSVGone" from then instead)
    assert times is not None and times.since and times.from_start


def test_the_recorders_namespaces_hold(tmp_path: Path) -> None:
    recorded = Recorded(tmp_path / "rec", namespaces=["team-z"])
    recorded.store.apply("ADDED", csv("team-z", "op.v1"))
    recorded.close()
    replay = rewind_session(open_recording(str(recorded.path)))
    assert replay.store.read_namespaces == frozenset({"team-z"})
