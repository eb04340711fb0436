"""SVG snapshots of a recording replayed at a moment: the header names the moment, the change
and the recording's span, and the Changes view marks the change the cursor stands after; and
the Compare screen of a marked moment against a later one (refresh with
``--snapshot-update`` after looking at the diff)."""

from __future__ import annotations

from typing import Any

from conftest import press, settle, wait_for
from textual.pilot import Pilot
from timeline_support import demo_timeline

from olmtui.pipeline.build import rewind_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.compare import CompareScreen
from olmtui.ui.screens.recording_changes import RecordingChangesScreen

SIZE = (140, 30)


async def at_a_moment(pilot: Pilot[Any]) -> None:
    screen = pilot.app.screen
    assert isinstance(screen, RecordingChangesScreen)
    await wait_for(lambda: screen.table.row_count == 206, "the changes read", pilot=pilot)
    await settle(pilot)
    await press(pilot, ":", *"at 10:03:12", "enter")
    await settle(pilot)


def test_a_recording_at_a_moment(snap_compare: Any) -> None:
    app = OlmApp(rewind_session(demo_timeline()), initial_view="changes")
    assert snap_compare(app, terminal_size=SIZE, run_before=at_a_moment)


async def marked_and_compared(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await press(pilot, ":", *"at 10:00:59", "enter")
    await press(pilot, "m")
    await press(pilot, ":", *"at 10:02:31", "enter")
    await press(pilot, "M")
    await wait_for(lambda: isinstance(pilot.app.screen, CompareScreen), "compared", pilot=pilot)
    pilot.app.clear_notifications()
    await settle(pilot)


def test_a_moment_compared_with_a_marked_one(snap_compare: Any) -> None:
    app = OlmApp(rewind_session(demo_timeline()), initial_view="overview")
    assert snap_compare(app, terminal_size=SIZE, run_before=marked_and_compared)
