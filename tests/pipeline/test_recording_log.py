"""The Changes view of a recording: every change, in order, told as the live log tells it."""

from __future__ import annotations

from timeline_support import TEAM_A, demo_timeline

from olmtui.pipeline.recording_log import RecordingLog


def test_every_change_is_one_entry_at_the_position_it_leads_to() -> None:
    timeline = demo_timeline()
    log = RecordingLog(timeline)
    log.add(log.build(len(timeline)))
    entries = log.entries()
    assert [e.position for e in entries] == list(range(1, len(timeline) + 1))
    failed = next(e for e in entries if e.time == "10:01:00Z")
    assert (failed.what, failed.ref.namespace, failed.severity) == ("phase", TEAM_A, "error")
    assert failed.message == "Succeeded -> Failed (ComponentUnhealthy)"
    told = {(e.time, e.what, e.message) for e in entries}
    assert ("10:03:12Z", "modified", "connection TRANSIENT_FAILURE") in told
    assert (
        "10:05:00Z",
        "no access",
        ("no access to subscriptions (RBAC): forbidden; the rows shown are the last seen"),
    ) in told


def test_the_entries_are_told_a_part_at_a_time() -> None:
    timeline = demo_timeline()
    log = RecordingLog(timeline)
    first = log.build(10)
    assert [e.position for e in first] == list(range(1, 11)) and log.entries() == []
    log.add(first)
    log.add(log.build(len(timeline)))
    assert [e.position for e in log.entries()] == list(range(1, len(timeline) + 1))
    assert log.entries()[-1].time == "10:07:40Z"
