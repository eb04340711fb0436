"""The replay's time cursor (``pipeline/time_cursor.py``): wherever it is moved, and however,
the session shows what a session built at that moment shows (R-REC-4)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from timeline_support import (
    CATALOG_FAILS,
    CATALOG_SPEC,
    T0,
    UPGRADE,
    demo_timeline,
    small_timeline,
)

from olmtui.model.records.catalog import Catalog
from olmtui.pipeline import recording_state
from olmtui.pipeline.build import rewind_session
from olmtui.pipeline.session import Session
from olmtui.pipeline.time_cursor import TimeCursor
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.sources.recording.timeline import ChangeListTimeline
from olmtui.store import KINDS, Change, Key


def held(session: Session) -> dict[Key, Any]:
    store = session.store
    objects: dict[Key, Any] = {key: obj for kind in KINDS for key, obj in store.items(kind)}
    return {"objects": objects, "unreadable": dict(store.unreadable)}


def cursor_of(session: Session) -> TimeCursor:
    assert isinstance(session.time, TimeCursor)
    return session.time


def shown_at(
    timeline: ChangeListTimeline, catalog: Catalog, position: int, moment: float
) -> tuple[Any, Any]:
    """What a session built right at that position and moment holds and finds."""
    fresh = rewind_session(timeline, loaded=[catalog], at=position)
    if moment != timeline.time_of(position):  # moved by time: ages are measured then
        cursor_of(fresh).at_moment(moment)
    assert (cursor_of(fresh).position, cursor_of(fresh).moment) == (position, moment)
    return held(fresh), list(fresh.analysis.all_findings())


@pytest.mark.parametrize("fold_limit", [recording_state.FOLD_LIMIT, 8])
def test_after_any_moves_the_session_equals_one_built_at_that_moment(
    fold_limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random moves of every kind; with a low ``FOLD_LIMIT`` most moves read whole states
    and diff every key held, the road of a long recording's big jumps."""
    monkeypatch.setattr(recording_state, "FOLD_LIMIT", fold_limit)
    timeline = small_timeline()
    catalog = load_catalog(CATALOG_SPEC)
    session = rewind_session(timeline, loaded=[catalog])
    cursor = cursor_of(session)
    pick = random.Random(29)
    length = len(timeline)
    # moments a few seconds apart, some between changes: few distinct places to build
    moments = [timeline.started + 16.5 * step for step in range(30)]
    moves = [
        lambda: cursor.step(pick.choice((-1, 1, -3, 2))),
        lambda: cursor.step_minutes(pick.choice((-1, 1, -2))),
        lambda: cursor.jump(pick.randrange(length + 1)),
        lambda: cursor.at_moment(pick.choice(moments)),
        lambda: cursor.go_to(pick.choice(("end", "-1m", "10:03", "10:00:00", "-7m30s"))),
    ]
    expected: dict[tuple[int, float], tuple[Any, Any]] = {}
    for _ in range(200):
        pick.choice(moves)()
        place = (cursor.position, cursor.moment)
        assert cursor.position == timeline.count_at(cursor.moment) or cursor.moment == (
            timeline.time_of(cursor.position)
        )
        if place not in expected:
            expected[place] = shown_at(timeline, catalog, *place)
        objects, findings = expected[place]
        assert held(session) == objects, place
        assert list(session.analysis.all_findings()) == findings, place


def test_a_move_feeds_the_store_only_what_differs() -> None:
    timeline = demo_timeline()
    session = rewind_session(timeline, at=len(timeline) - 2)  # Subscriptions unreadable
    cursor = cursor_of(session)
    fed: list[Change] = []
    session.store.subscribe(fed.extend)
    cursor.step(1)
    assert [(c.key.kind, c.key.name) for c in fed] == [("olmtui.access", "Subscription")]
    fed.clear()
    # back over the access lost and back (no difference) and the OperatorGroup's targets
    cursor.step(-3)
    assert [(c.type, c.key.name) for c in fed] == [("MODIFIED", "team-b")]
    fed.clear()
    held_before = len(session.store)
    cursor.jump(0)  # far back: everything goes, and nothing else is said
    assert len(fed) == held_before and {c.type for c in fed} == {"DELETED"}
    assert len(session.store) == 0


def test_the_clock_is_the_cursors_moment() -> None:
    session = rewind_session(demo_timeline())
    cursor = cursor_of(session)
    assert cursor.go_to("10:04:30") is None
    assert session.clock is not None and session.clock().timestamp() == T0 + 270
    assert cursor.place().moment == "2026-11-28T10:04:30Z"
    cursor.step_minutes(1)  # no change in that minute: only the moment moves
    assert session.clock().timestamp() == T0 + 330


@pytest.mark.parametrize(
    ("typed", "seconds"),
    [("10:02", UPGRADE), ("-4m28s", CATALOG_FAILS), ("2026-11-28T10:03:12Z", CATALOG_FAILS)],
)
def test_at_takes_every_form_of_a_moment(typed: str, seconds: int) -> None:
    timeline = demo_timeline()
    cursor = cursor_of(rewind_session(timeline))
    assert cursor.go_to(typed) is None
    assert cursor.moment == T0 + seconds
    assert cursor.position == timeline.count_at(T0 + seconds)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("yesterday", "'yesterday' is not a moment"),
        ("-1h", "is outside the recording, which runs from 2026-11-28T09:59:55Z"),
        ("2026-11-28T11:00:00Z", "is outside the recording"),
    ],
)
def test_a_moment_the_recording_lacks_is_one_line_and_nothing_moves(typed: str, said: str) -> None:
    timeline = demo_timeline()
    session = rewind_session(timeline, at=200)
    cursor = cursor_of(session)
    before = held(session)
    problem = cursor.go_to(typed)
    assert problem is not None and said in problem and "\n" not in problem
    assert cursor.position == 200 and held(session) == before


def test_steps_stop_at_the_ends_and_end_goes_back_there() -> None:
    timeline = demo_timeline()
    cursor = cursor_of(rewind_session(timeline, at=1))
    cursor.step(-5)
    assert (cursor.position, cursor.moment) == (0, timeline.started)
    cursor.step_minutes(100)
    assert cursor.place().at_end and cursor.moment == timeline.ended
    cursor.jump(3)
    assert cursor.go_to("end") is None and cursor.position == len(timeline)


class GrowingTimeline(ChangeListTimeline):
    """A recording still being written: ``grow`` adds the next held-back change."""

    def __init__(self, whole: ChangeListTimeline, shown: int) -> None:
        self.whole = list(whole.changes(0, len(whole)))
        self.shown = shown
        super().__init__(self.whole[:shown], whole.started)

    def grow(self) -> bool:
        self.shown += 1
        self.__init__(ChangeListTimeline(self.whole, self.started), self.shown)  # type: ignore[misc]
        return self.shown < len(self.whole)


def test_at_the_end_of_a_growing_recording_the_cursor_follows_it() -> None:
    timeline = GrowingTimeline(demo_timeline(), 200)
    session = rewind_session(timeline, grow=timeline.grow)
    cursor = cursor_of(session)
    assert session.runner is not None
    assert cursor.place().growing and cursor.place().at_end
    cursor.grown(timeline.grow())
    assert cursor.position == 201 and cursor.place().at_end
    cursor.step(-1)
    cursor.grown(timeline.grow())
    assert cursor.position == 200 and cursor.place().length == 202
