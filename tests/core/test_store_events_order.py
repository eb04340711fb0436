"""``Store.events_in_order``: the Events about one object, as ``list(EVENT)`` orders them, after
any sequence of adds, updates (an involved object changed included), deletions and the
cap's evictions; and the rules that read it report what grouping every Event reported."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from model_builders import catalog_source, cluster_event, pod, subscription

from olmtui.kinds import EVENT
from olmtui.model.rules.evidence.bundle_unpack import unpack_findings
from olmtui.model.rules.evidence.catalog_pods import (
    catalog_pod_findings,
    event_evidence,
    events_about,
)
from olmtui.store import Store
from olmtui.store_evidence import EVENTS_PER_OBJECT

SUBJECTS = [("Pod", "ns-a", "p1"), ("Pod", "ns-a", "p2"), ("Subscription", "ns-b", "s1")]
TIMES = ["2026-05-01T10:00:00Z", "2026-05-01T10:00:01Z", "2026-05-01T10:00:02Z"]

_operation = st.tuples(
    st.sampled_from(["ADDED", "MODIFIED", "DELETED"]),
    st.integers(0, 30),  # the Event's name: few, so that updates and deletions meet them
    st.sampled_from(SUBJECTS),
    st.sampled_from(TIMES),  # few: many Events of the same time (ties)
    st.sampled_from(["ns-a", "ns-b"]),  # the Event's own namespace
)


def _event(name: int, subject: tuple[str, str, str], last: str, namespace: str) -> dict:
    kind, involved_ns, obj_name = subject
    event = cluster_event(namespace, f"e{name}", kind=kind, obj_name=obj_name, reason="R")
    event["involvedObject"]["namespace"] = involved_ns
    event["lastTimestamp"] = last
    event["message"] = f"{name} {last}"
    return event


def _grouped(store: Store) -> dict[tuple[str, str, str], list[dict]]:
    """Every cached Event grouped by what it is about, in ``list(EVENT)`` order."""
    found: dict[tuple[str, str, str], list[dict]] = {}
    for event in store.list(EVENT):
        involved = event["involvedObject"]
        subject = (involved["kind"], involved["namespace"], involved["name"])
        found.setdefault(subject, []).append(event)
    return found


@settings(max_examples=200, deadline=None)
@given(st.lists(_operation, max_size=120), st.booleans())
def test_events_about_an_object_come_in_the_caches_order(
    operations: list[tuple[str, int, tuple[str, str, str], str, str]], copied: bool
) -> None:
    store = Store()
    for event_type, name, subject, last, namespace in operations:
        store.apply(event_type, _event(name, subject, last, namespace))
    if copied:
        store = store.copy()
    grouped = _grouped(store)
    for subject in SUBJECTS:
        assert list(store.events_in_order(*subject)) == grouped.get(subject, [])
        assert len(store.events_in_order(*subject)) <= EVENTS_PER_OBJECT + 30


def test_an_event_whose_involved_object_changed_moves_to_its_new_object() -> None:
    store = Store()
    first = _event(1, SUBJECTS[0], TIMES[0], "ns-a")
    store.apply_many([first, _event(2, SUBJECTS[1], TIMES[0], "ns-a")])
    store.apply("MODIFIED", _event(1, SUBJECTS[1], TIMES[1], "ns-a"))
    assert store.events_in_order(*SUBJECTS[0]) == ()
    assert [e["metadata"]["name"] for e in store.events_in_order(*SUBJECTS[1])] == ["e1", "e2"]


def test_the_catalog_pod_and_unpack_findings_show_the_events_grouping_showed() -> None:
    """Ties (Events of one time) come in the order grouping every Event gave them."""
    crash = pod("ns-a", "p1", labels={"olm.catalogSource": "cat"}, waiting="CrashLoopBackOff")
    sub = subscription(
        "ns-b", "s1", conditions=(("BundleUnpackFailed", "True", "UnpackFailed", "m"),)
    )
    events = [
        _event(n, subject, TIMES[n % 2], "ns-a")
        for n in range(12)
        for subject in (SUBJECTS[0], SUBJECTS[2])
    ]
    for event in events:
        event["reason"] = "BundleUnpackFailed"
        event["metadata"]["name"] += event["involvedObject"]["kind"]
    store = Store()
    store.apply_many(
        [catalog_source("ns-a", "cat", state="TRANSIENT_FAILURE"), crash, sub, *events]
    )
    grouped = events_about(store.list(EVENT))  # how the rules grouped them before

    catalogs, pods = list(store.list("CatalogSource")), list(store.list("Pod"))
    (crashing,) = catalog_pod_findings(catalogs, pods, store.events_in_order)
    expected = [event_evidence(e) for e in grouped[SUBJECTS[0]]]
    assert list(crashing.evidence[1:]) == expected and len(expected) == 12
    subs, jobs = list(store.list("Subscription")), list(store.list("Job"))
    (gone,) = unpack_findings(subs, jobs, store.events_in_order)
    expected = [event_evidence(e) for e in grouped[SUBJECTS[2]]]
    assert list(gone.evidence[1:]) == expected and len(expected) == 12
