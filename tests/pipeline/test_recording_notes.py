"""What a recorder says on stderr as it goes: one line per reconnect and per change of what
may be read; and what it tells the recording of its sync (R-REC-2)."""

from __future__ import annotations

from olmtui.pipeline.recording import _Notes, recorder_status
from olmtui.sources.cluster.live_status import LiveStatus
from olmtui.sources.recording.writer import RecorderStatus
from olmtui.store import Store, Unreadable


def test_one_line_per_reconnect_and_per_access_change() -> None:
    said: list[str] = []
    store = Store()
    notes = _Notes(said.append, store)
    live = LiveStatus()
    live.set_reachable(True)
    live.set_state("Subscription", "live")
    notes.follow(live)
    assert said == []  # connected from the start: nothing to say
    live.set_state("Subscription", "reconnecting")
    notes.follow(live)
    notes.follow(live)
    live.set_state("Subscription", "live")
    notes.follow(live)
    store.set_unreadable("Pod", Unreadable("pods", "forbidden", 1.0))
    notes.follow(live)
    notes.follow(live)
    store.set_unreadable("Pod", None)
    notes.follow(live)
    assert said == [
        "connection lost: reconnecting (changes show when it relists)",
        "reconnected: recording again",
        "no access to pods: recorded as unreadable",
        "Pod readable again",
    ]


def test_the_status_a_recording_keeps() -> None:
    live = LiveStatus()
    assert recorder_status(live) == RecorderStatus(None, False)
    live.set_reachable(True)
    live.set_state("Subscription", "syncing")
    live.set_state("Namespace", "live")
    assert recorder_status(live) == RecorderStatus(("Subscription",), True)
