"""Sessions over recordings: ``recording_session`` holds the state at a moment with the moment
as its clock and says what the recorder had not read then (R-REC-2) or that the file is cut
(R-REC-3); ``live_session(record=...)`` (the dashboard's ``--record``) records the session it
shows."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from pathlib import Path

import pytest
from conftest import wait_for
from live_support import contents, expected_store, fast_options, sample_objects
from model_builders import namespace, subscription
from recording_support import START, Recorded

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.pipeline.build import live_session, recording_session
from olmtui.pipeline.recording import RecordTo
from olmtui.pipeline.session import ContextUnavailable
from olmtui.sources.recording.reader import open_recording
from olmtui.sources.recording.redact import redacted
from olmtui.sources.recording.writer import RecorderStatus


def _recording(path: Path) -> Recorded:
    """Not connected at START; listing (Subscriptions not yet) from +10 s; all listed at
    +30 s."""
    recorded = Recorded(path, connected=False)
    recorded.store.apply("ADDED", namespace("team-z"))
    recorded.now = START + 10
    recorded.writer.set_status(RecorderStatus(("Subscription",), True))
    recorded.now = START + 20
    recorded.store.apply("ADDED", namespace("team-y"))
    recorded.now = START + 30
    recorded.writer.set_status(RecorderStatus((), True))
    recorded.now = START + 40
    recorded.store.apply("ADDED", subscription("team-z", "op"))
    recorded.close()
    return recorded


def test_a_moment_holds_its_state_and_its_clock(tmp_path: Path) -> None:
    _recording(tmp_path / "rec")
    timeline = open_recording(str(tmp_path / "rec"))
    session = recording_session(timeline, timeline.count_at(START + 25), when=START + 25)
    assert session.kind == "recording"
    assert session.clock is not None
    assert session.clock() == dt.datetime.fromtimestamp(START + 25, dt.UTC)
    assert {o["metadata"]["name"] for o in session.store.list("Namespace")} == {"team-z", "team-y"}
    assert session.store.count("Subscription") == 0
    report = session.analysis.report()
    assert report["source"]["kind"] == "recording"
    assert report["source"]["at"] == "2026-09-21T14:13:45Z"


def test_what_the_recorder_had_not_read_is_partial_then(tmp_path: Path) -> None:
    _recording(tmp_path / "rec")
    timeline = open_recording(str(tmp_path / "rec"))
    before = recording_session(timeline, 1, when=START + 5).input_partial()
    assert before.kinds is None and "not connected" in before.reasons[0]
    listing = recording_session(timeline, 2, when=START + 25).input_partial()
    assert listing.kinds == frozenset({"Subscription"})
    assert listing.reasons == ("recording: live sync not finished (Subscription)",)
    listed = recording_session(timeline, 3, when=START + 40).input_partial()
    assert not listed.partial and listed.reasons == ()


def test_a_cut_file_says_so_at_its_end(tmp_path: Path) -> None:
    _recording(tmp_path / "rec")
    data = (tmp_path / "rec").read_bytes()
    (tmp_path / "rec").write_bytes(data[:-5])
    timeline = open_recording(str(tmp_path / "rec"))
    assert timeline.incomplete_because
    at_end = recording_session(timeline, len(timeline))
    assert at_end.input_partial().reasons[-1] == timeline.incomplete_because[0]


def test_the_dashboard_records_the_session_it_shows(tmp_path: Path) -> None:
    server = LoopbackAPIServer(bookmark_interval=0.2)
    server.state.load(sample_objects(), skip_unknown=True)
    thread = run_in_thread(server)
    path = tmp_path / "rec"
    try:
        options = fast_options(server.write_kubeconfig(tmp_path / "kubeconfig"))
        session = live_session(options, record=RecordTo(str(path)))
        expected = contents(expected_store(server))

        async def run_until_recorded() -> None:
            assert session.runner is not None
            task = asyncio.ensure_future(session.runner())
            await wait_for(lambda: contents(session.store) == expected, "synced", 30)
            # ``:ctx`` would mix two clusters in one recording: refused, the recording goes on
            assert session.switch_context is not None
            with pytest.raises(ContextUnavailable, match="a recording holds one cluster"):
                await session.switch_context("elsewhere")
            assert not task.done()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        asyncio.run(run_until_recorded())
    finally:
        thread.stop()
    timeline = open_recording(str(path))
    replayed = recording_session(timeline, len(timeline))
    blanked = {kind: {k: redacted(o) for k, o in objs.items()} for kind, objs in expected.items()}
    assert contents(replayed.store) == blanked  # env values blanked (R-REC-1)
    assert {r.method for r in server.requests} == {"GET"}
