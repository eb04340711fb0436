"""When each finding of a recording appeared and last changed (R-REC-4), worked out by a
session of its own, a second of changes at a time, off the UI thread (R-REC-5)."""

from __future__ import annotations

import pytest
from timeline_support import (
    CATALOG_FAILS,
    CATALOG_SPEC,
    CSV_FAILS,
    NO_ACCESS,
    T0,
    UPGRADE,
    ImmediateHost,
    demo_timeline,
)

from olmtui.model.records.types import Finding
from olmtui.pipeline.build import rewind_session
from olmtui.pipeline.finding_history import by_second
from olmtui.pipeline.session import Session
from olmtui.pipeline.time_control import FindingTimes
from olmtui.pipeline.time_cursor import NOT_SEEN


@pytest.fixture(scope="module")
def session() -> Session:
    made = rewind_session(demo_timeline(), [CATALOG_SPEC])
    assert made.time is not None
    host = ImmediateHost()
    made.time.follow(host)
    made.time.follow(host)  # nothing new to walk: no second run
    assert host.runs == 1
    return made


def finding(session: Session, code: str, name: str) -> Finding:
    found = [f for f in session.analysis.all_findings() if (f.code, f.name) == (code, name)]
    assert found, f"no {code} on {name} at the cursor"
    return found[0]


def times_at(session: Session, seconds: float, code: str, name: str) -> FindingTimes | None:
    assert session.time is not None
    assert session.time.go_to(f"10:{int(seconds) // 60:02d}:{int(seconds) % 60:02d}") is None
    return session.time.finding_times(finding(session, code, name))


def test_a_finding_that_appeared_says_since_when(session: Session) -> None:
    times = times_at(session, CATALOG_FAILS + 30, "CatalogSourceNotReady", "community-operators")
    assert times == FindingTimes("10:03:12Z", "10:03:12Z")
    assert times.text == "since 10:03:12Z"
    times = times_at(session, NO_ACCESS + 5, "LiveNoAccess", "subscriptions")
    assert times is not None and times.since == "10:05:00Z"


def test_a_finding_there_from_the_start_may_be_older_and_says_when_it_changed(
    session: Session,
) -> None:
    times = times_at(session, UPGRADE + 60, "SharedCRDOwners", "keycloaks.k8s.keycloak.org")
    assert times == FindingTimes("10:00:00Z", "10:02:00Z", from_start=True)
    assert times.text == (
        "since 10:00:00Z (when the recording began; maybe earlier), last changed 10:02:00Z"
    )


def test_a_finding_that_went_and_came_back_is_since_its_return(session: Session) -> None:
    times = times_at(session, CSV_FAILS + 10, "CSVFailed", "keycloak-operator.v26.6.2")
    assert times is not None and times.since == "10:01:00Z"


def test_a_finding_the_history_did_not_see_says_so(session: Session) -> None:
    assert session.time is not None
    session.time.go_to("end")
    gone = Finding(
        "error", "CatalogSourceNotReady", "CatalogSource", "x", "community-operators", ""
    )
    times = session.time.finding_times(gone)
    assert times is not None and times.text == NOT_SEEN


def test_until_worked_out_the_times_are_unknown() -> None:
    timeline = demo_timeline()
    made = rewind_session(timeline, at=len(timeline) - 1)
    assert made.time is not None
    some = made.analysis.all_findings()[0]
    assert made.time.finding_times(some) is None


def test_changes_are_grouped_by_the_second_they_were_recorded_in() -> None:
    timeline = demo_timeline()
    groups = list(by_second(timeline.changes(0, len(timeline))))
    assert [second - T0 for second, _ in groups][:4] == [0, CSV_FAILS, 90, UPGRADE]
    assert sum(len(group) for _, group in groups) == len(timeline)
    assert len(groups[3][1]) == 4  # the upgrade's four changes share a second
