"""``olmtui replay FILE`` on a recording: the command's options reach the session built over
the recording's Timeline, which opens at the recording's end with a time cursor."""

from __future__ import annotations

import argparse

import pytest
from timeline_support import CATALOG_SPEC, demo_timeline

from olmtui.commands import replay
from olmtui.ui.app import OlmApp


def test_a_recording_opens_at_its_end_with_the_options_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[OlmApp] = []
    monkeypatch.setattr(replay, "run_app", shown.append)
    parser = argparse.ArgumentParser()
    replay.add_arguments(parser)
    args = parser.parse_args(["rec.olmrec", "--catalog", CATALOG_SPEC, "--view", "changes"])
    timeline = demo_timeline()
    assert replay.replay_recording(timeline, args) == 0
    [app] = shown
    session = app.session
    assert session.kind == "recording" and session.time is not None
    assert session.time.place().at_end and session.time.place().length == len(timeline)
    assert app.initial_view == "changes"
    assert session.analysis.has_catalog_content()
