"""The in-memory Timeline: positions, times and states as every recording reader must give them."""

from olmtui.sources.recording.timeline import ChangeListTimeline, TimedChange
from olmtui.store import Key

A = Key("Namespace", "", "a")
B = Key("Namespace", "", "b")


def _timeline() -> ChangeListTimeline:
    return ChangeListTimeline(
        [
            TimedChange(10.0, "ADDED", A, {"metadata": {"name": "a"}}),
            TimedChange(11.0, "ADDED", B, {"metadata": {"name": "b"}}),
            TimedChange(11.0, "MODIFIED", A, {"metadata": {"name": "a", "labels": {"x": "1"}}}),
            TimedChange(15.0, "DELETED", B, None),
        ],
        started=9.0,
        context="prod",
    )


def test_positions_count_changes_and_times_find_them() -> None:
    timeline = _timeline()
    assert len(timeline) == 4 and timeline.started == 9.0 and timeline.ended == 15.0
    assert [timeline.time_of(n) for n in range(5)] == [9.0, 10.0, 11.0, 11.0, 15.0]
    assert [timeline.count_at(t) for t in (9.5, 10.0, 11.0, 14.0, 99.0)] == [0, 1, 3, 3, 4]


def test_state_folds_the_changes_up_to_a_position() -> None:
    timeline = _timeline()
    assert timeline.state(0) == {}
    assert set(timeline.state(2)) == {A, B}
    assert timeline.state(3)[A]["metadata"]["labels"] == {"x": "1"}
    assert set(timeline.state(4)) == {A}
    assert [c.type for c in timeline.changes(1, 3)] == ["ADDED", "MODIFIED"]


def test_a_state_loads_into_a_store_with_its_unreadable_kinds() -> None:
    from olmtui.sources.recording.timeline import load_state
    from olmtui.store import ACCESS, Store

    store = Store()
    access = {"resource": "installplans", "reason": "forbidden", "since": 3.0, "recheck": 60}
    load_state(
        store,
        {
            Key("Namespace", "", "a"): {"kind": "Namespace", "metadata": {"name": "a"}},
            Key(ACCESS, "", "InstallPlan"): access,
        },
    )
    assert store.get("Namespace", "", "a") is not None
    assert store.unreadable["InstallPlan"].reason == "forbidden"
    assert store.unreadable["InstallPlan"].recheck == 60.0
