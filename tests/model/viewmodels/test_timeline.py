"""R-EVD-11: the timeline of a namespace or an incident, over must-gather-shaped objects:
what each object gives, the order (ties broken the same whatever the input order), the cap
that keeps the newest, the facts without a time left out and counted, and the lines (UTC,
date where it changes, relative to the gather time)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from model_builders import (
    catalog_source,
    cluster_event,
    copy_of,
    csv,
    failed_plan,
    install_plan,
    job,
    namespace,
    package_manifest,
    pod,
    subscription,
)

from olmtui.model.incremental.engine import Model
from olmtui.model.records.types import ObjectRef
from olmtui.model.viewmodels.timeline import (
    Timeline,
    entries_of,
    left_out_words,
    reference_words,
    relative_text,
    timeline,
    timeline_lines,
)
from olmtui.model.viewmodels.timeline_objects import (
    INCIDENT_OBJECTS,
    events_by_subject,
    incident_refs,
    namespace_timeline,
    refs_timeline,
)
from olmtui.store import Store

Obj = dict[str, Any]
NS = "team-a"
GATHERED = dt.datetime(2026, 5, 1, 16, 0, 0, tzinfo=dt.UTC)


def _created(obj: Obj, when: str, *, deleted: str | None = None) -> Obj:
    obj["metadata"]["creationTimestamp"] = when
    if deleted is not None:
        obj["metadata"]["deletionTimestamp"] = deleted
    return obj


def _story() -> list[Obj]:
    """The issue's two-InstallPlans story: a Subscription, its first plan failing on a Role,
    a second plan, and the Warning Event OLM recorded on the Subscription."""
    sub = subscription(
        NS,
        "etcd",
        plan="install-b",
        status={
            "conditions": [
                {
                    "type": "InstallPlanFailed",
                    "status": "True",
                    "reason": "InstallComponentFailed",
                    "message": "error creating Role etcd-role: forbidden\nsecond line",
                    "lastTransitionTime": "2026-05-01T15:28:43Z",
                },
                {"type": "CatalogSourcesUnhealthy", "status": "False"},  # no time
            ]
        },
    )
    plan_a = failed_plan(
        NS, "install-a", ["etcd.v1"], message="error creating Role", created="2026-05-01T15:27:22Z"
    )
    plan_a["status"]["conditions"][0]["lastTransitionTime"] = "2026-05-01T15:28:43Z"
    plan_b = install_plan(NS, "install-b", "Installing", True, created="2026-05-01T15:29:59Z")
    event = cluster_event(
        NS,
        "etcd.1",
        kind="Subscription",
        obj_name="etcd",
        reason="InstallPlanFailed",
        message="install plan failed",
        count=3,
        last="2026-05-01T15:29:00Z",
    )
    return [_created(sub, "2026-05-01T15:27:00Z"), plan_a, plan_b, event]


def _shown(found: Timeline) -> list[tuple[str, str, str]]:
    return [(f"{e.at:%H:%M:%S}", f"{e.ref.kind} {e.ref.name}", e.what) for e in found.entries]


def test_the_two_plans_story_in_time_order() -> None:
    found = timeline(_story())
    assert _shown(found) == [
        ("15:27:00", "Subscription etcd", "created"),
        ("15:27:22", "InstallPlan install-a", "created"),
        (
            "15:28:43",
            "InstallPlan install-a",
            "Installed=False (InstallComponentFailed): error creating Role",
        ),
        (
            "15:28:43",
            "Subscription etcd",
            "InstallPlanFailed=True (InstallComponentFailed): error creating Role "
            "etcd-role: forbidden",
        ),
        ("15:29:00", "Subscription etcd", "Warning InstallPlanFailed: install plan failed ×3"),
        ("15:29:59", "InstallPlan install-b", "created"),
    ]
    # the condition without a time, the plans' and the catalog's missing times: counted
    assert found.untimed == 1  # the Subscription's CatalogSourcesUnhealthy condition
    assert found.earlier == 0
    troubles = [e.what for e in found.entries if e.trouble]
    assert len(troubles) == 3  # both failures and the Warning Event


def test_ties_are_broken_the_same_whatever_the_input_order() -> None:
    objects = _story()
    expected = timeline(objects)
    for seed in range(5):
        shuffled = list(objects)
        random.Random(seed).shuffle(shuffled)
        assert timeline(shuffled) == expected


@pytest.mark.parametrize(
    ("obj", "expected", "untimed"),
    [
        # an object without creationTimestamp: nothing placed, one fact counted
        (catalog_source(NS, "cat"), [], 1),
        (
            _created(namespace(NS), "2026-05-01T10:00:00Z", deleted="2026-05-01T15:00:00Z"),
            ["10:00:00 created", "15:00:00 deletion requested"],
            0,
        ),
        (
            _created(
                csv(
                    NS,
                    "etcd.v1",
                    phase="Failed",
                    reason="InstallCheckFailed",
                    status={
                        "message": "install timeout",
                        "lastTransitionTime": "2026-05-01T15:10:00Z",
                        "conditions": [
                            {
                                "phase": "Pending",
                                "reason": "RequirementsUnknown",
                                "lastTransitionTime": "2026-05-01T15:00:00Z",
                            },
                            {
                                "phase": "Failed",
                                "reason": "InstallCheckFailed",
                                "message": "install timeout",
                                "lastTransitionTime": "2026-05-01T15:10:00Z",
                            },
                        ],
                    },
                ),
                "2026-05-01T14:59:00Z",
            ),
            # the current phase repeats the history's newest row: once
            [
                "14:59:00 created",
                "15:00:00 phase Pending (RequirementsUnknown)",
                "15:10:00 phase Failed (InstallCheckFailed): install timeout",
            ],
            0,
        ),
        (
            _created(
                job(NS, "unpack-1", failed="DeadlineExceeded"), "2026-05-01T10:00:00Z"
            ),  # the Failed condition has no time: counted
            ["10:00:00 created", "10:00:00 started"],
            1,
        ),
    ],
)
def test_what_one_object_gives(obj: Obj, expected: list[str], untimed: int) -> None:
    entries, left = entries_of(obj)
    assert [f"{e.at:%H:%M:%S} {e.what}" for e in entries] == expected
    assert left == untimed


def test_a_pod_container_that_ended_and_its_ready_condition() -> None:
    crashing = pod(NS, "cat-abc", ready=False, restarts=4, last_terminated="OOMKilled")
    crashing["status"]["containerStatuses"][0]["lastState"]["terminated"]["finishedAt"] = (
        "2026-05-01T15:40:00Z"
    )
    crashing["status"]["conditions"][0]["lastTransitionTime"] = "2026-05-01T15:40:01Z"
    crashing["status"]["conditions"][0]["reason"] = "ContainersNotReady"
    store = Store()
    model = Model(store)
    store.apply_many([_created(crashing, "2026-05-01T15:00:00Z")])
    found = namespace_timeline(store, NS, indexes=model)
    assert [e.what for e in found.entries] == [
        "created",
        "container registry-server ended (OOMKilled, exit 137)",
        "Ready=False (ContainersNotReady)",
    ]
    assert found.entries[1].trouble


def test_the_cap_keeps_the_newest_and_counts_the_earlier() -> None:
    events = [
        cluster_event(
            NS,
            f"e{i}",
            kind="Subscription",
            obj_name="s",
            reason="R",
            last=f"2026-05-01T15:{i:02}:00Z",
        )
        for i in range(30)
    ]
    found = timeline(events, limit=10)
    assert len(found.entries) == 10
    assert found.earlier == 20
    assert f"{found.entries[0].at:%M}" == "20" and f"{found.entries[-1].at:%M}" == "29"
    assert left_out_words(found) == ["… 20 earlier"]
    assert left_out_words(found, kept=4) == ["… 26 earlier"]


def test_the_namespace_timeline_leaves_out_copies_and_catalog_content() -> None:
    original = _created(csv("operators", "etcd.v1"), "2026-05-01T10:00:00Z")
    copied = _created(copy_of(original, NS), "2026-05-01T10:00:05Z")
    manifest = package_manifest("cat", NS, "etcd", head="etcd.v1")
    manifest["metadata"]["creationTimestamp"] = "2026-05-01T10:00:06Z"
    store = Store()
    model = Model(store)
    store.apply_many([original, copied, manifest, _created(namespace(NS), "2026-05-01T09:00:00Z")])
    found = namespace_timeline(store, NS, indexes=model)
    assert [(e.ref.kind, e.what) for e in found.entries] == [("Namespace", "created")]


def test_an_incident_timeline_holds_its_objects_and_their_events_only() -> None:
    store = Store()
    other = _created(subscription(NS, "other"), "2026-05-01T15:00:00Z")
    store.apply_many([*_story(), other])
    refs = incident_refs(
        [("InstallPlan", NS, "install-a")], [ObjectRef("Subscription", NS, "etcd")]
    )
    read = refs_timeline(store, refs, 10)
    indexed = refs_timeline(store, refs, 10, events_by_subject(store))
    assert read == indexed
    names = {e.ref.name for e in read.entries}
    assert names == {"install-a", "etcd"}
    assert read.entries[-1].what.startswith("Warning InstallPlanFailed")


def test_lines_show_the_date_where_it_changes_and_time_relative_to_gathering() -> None:
    events = [
        cluster_event(NS, "a", kind="Subscription", obj_name="s", reason="A", last=when)
        for when in ("2026-04-30T23:59:30Z", "2026-05-01T00:00:10Z", "2026-05-01T15:58:00Z")
    ]
    lines = timeline_lines(timeline(events).entries, GATHERED)
    assert [(line.date, line.time, line.relative) for line in lines] == [
        ("2026-04-30", "23:59:30", "16h 0m before"),
        ("2026-05-01", "00:00:10", "15h 59m before"),
        ("", "15:58:00", "2m 0s before"),
    ]
    assert timeline_lines(timeline(events).entries, None)[0].relative == ""


def test_times_given_in_another_zone_are_shown_in_utc() -> None:
    event = cluster_event(NS, "a", kind="Subscription", obj_name="s", reason="A")
    event["lastTimestamp"] = "2026-05-01T17:00:00+02:00"
    (line,) = timeline_lines(timeline([event]).entries, None)
    assert line.time == "15:00:00"


def test_relative_words() -> None:
    at = GATHERED - dt.timedelta(minutes=3, seconds=12)
    assert relative_text(at, GATHERED) == "3m 12s before"
    assert relative_text(GATHERED + dt.timedelta(seconds=5), GATHERED) == "5s after"
    assert relative_text(GATHERED, GATHERED) == "at the same time"
    assert reference_words(None, live=False) == "times in UTC"
    assert reference_words(GATHERED, live=True) == "times in UTC, relative to now"
    assert "gather time (2026-05-01 16:00:00 UTC)" in reference_words(GATHERED, live=False)


def test_wrong_typed_fields_read_as_absent() -> None:
    event = cluster_event(NS, "a", kind="Subscription", obj_name="s", reason="A")
    event.update(reason=7, type=None, message=["x"], count="3")
    entries, _ = entries_of(event)
    assert [e.what for e in entries] == ["event"]
    bad = subscription(NS, "s", status={"conditions": ["x", {"type": 3}, {"type": "A"}]})
    assert entries_of(bad) == ([], 2)  # no creation time, the one condition without time


def test_live_times_are_said_from_now() -> None:
    assert relative_text(GATHERED - dt.timedelta(seconds=90), GATHERED, live=True) == "1m 30s ago"
    assert relative_text(GATHERED + dt.timedelta(seconds=5), GATHERED, live=True) == "in 5s"
    assert relative_text(GATHERED, GATHERED, live=True) == "now"


def test_an_incident_reads_at_most_its_first_objects() -> None:
    """A blast radius of 400,000 objects is never copied whole: the root first, then the
    first ``INCIDENT_OBJECTS`` of what it affects."""
    affected = (ObjectRef("Subscription", f"ns-{i}", "s") for i in range(400_000))
    refs = incident_refs([("CatalogSource", "olm", "cat")], affected)
    assert len(refs) == INCIDENT_OBJECTS
    assert refs[0] == ObjectRef("CatalogSource", "olm", "cat")
