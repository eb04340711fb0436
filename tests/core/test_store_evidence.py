"""R-EVD-1: Pods, Jobs and Events are cached trimmed, Events only about OLM's objects and
theirs, and at most EVENTS_PER_OBJECT per involved object however many arrive."""

from __future__ import annotations

from model_builders import cluster_event, job, pod

from olmtui.store import Change, Store
from olmtui.store_evidence import EVENTS_PER_OBJECT

NS = "openshift-marketplace"


def at(second: int) -> str:
    return f"2026-05-01T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}Z"


def test_a_pod_keeps_its_phase_readiness_and_container_states_and_nothing_else() -> None:
    store = Store()
    store.apply_many(
        [
            pod(
                NS,
                "cat-x",
                labels={"olm.catalogSource": "cat"},
                ready=False,
                restarts=4,
                waiting="CrashLoopBackOff",
                last_terminated="OOMKilled",
            )
        ]
    )
    cached = store.get("Pod", NS, "cat-x")
    assert cached is not None
    assert "spec" not in cached and "managedFields" not in cached["metadata"]
    assert cached["metadata"]["labels"] == {"olm.catalogSource": "cat"}
    assert cached["status"]["conditions"] == [
        {"type": "Ready", "status": "False"},
        {"type": "PodScheduled", "status": "True"},
    ]
    assert cached["status"]["containerStatuses"] == [
        {
            "name": "registry-server",
            "restartCount": 4,
            "ready": False,
            "state": {"waiting": {"reason": "CrashLoopBackOff"}},
            "lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 137}},
        }
    ]


def test_a_job_keeps_its_unpack_label_and_failed_condition() -> None:
    label = {"operatorframework.io/bundle-unpack-ref": "abc123"}
    store = Store()
    store.apply_many([job(NS, "abc123", labels=label, failed="DeadlineExceeded")])
    cached = store.get("Job", NS, "abc123")
    assert cached is not None
    assert "spec" not in cached
    assert cached["metadata"]["labels"] == label
    assert cached["status"]["conditions"][0]["message"] == "DeadlineExceeded"
    assert cached["status"]["failed"] == 1


def test_an_event_is_kept_only_about_an_olm_object_or_a_pod_job_or_deployment() -> None:
    store = Store()
    store.apply_many(
        [
            cluster_event(NS, "e1", kind="Subscription", obj_name="s", reason="BundleUnpackFailed"),
            cluster_event(NS, "e2", kind="Pod", obj_name="cat-x", reason="BackOff"),
            cluster_event(NS, "e3", kind="Node", obj_name="n1", reason="NodeNotReady"),
            cluster_event(NS, "e4", kind="ConfigMap", obj_name="c", reason="Updated"),
        ]
    )
    assert sorted(e["metadata"]["name"] for e in store.list("Event")) == ["e1", "e2"]
    kept = store.get("Event", NS, "e1")
    assert kept is not None
    assert "source" not in kept
    assert kept["involvedObject"] == {"kind": "Subscription", "namespace": NS, "name": "s"}


def test_a_hundred_thousand_events_stay_bounded_per_involved_object() -> None:
    """100,000 events about 50 pods: the cache holds the newest 20 of each pod's."""
    pods = 50
    events = (
        cluster_event(
            NS, f"ev-{i}", kind="Pod", obj_name=f"p-{i % pods}", reason="BackOff", last=at(i)
        )
        for i in range(100_000)
    )
    store = Store()
    store.apply_many(events)
    assert store.count("Event") == pods * EVENTS_PER_OBJECT
    kept = {e["metadata"]["name"] for e in store.list("Event")}
    newest = {f"ev-{i}" for i in range(100_000 - pods * EVENTS_PER_OBJECT, 100_000)}
    assert kept == newest


def test_an_event_let_go_of_for_the_cap_is_published_as_deleted() -> None:
    store = Store()
    seen: list[Change] = []
    store.subscribe(seen.extend)
    for i in range(EVENTS_PER_OBJECT):
        store.apply(
            "ADDED",
            cluster_event(
                NS, f"ev-{i}", kind="Pod", obj_name="p", reason="BackOff", last=at(i + 10)
            ),
        )
    seen.clear()
    newer = cluster_event(NS, "newer", kind="Pod", obj_name="p", reason="BackOff", last=at(100))
    store.apply("ADDED", newer)
    assert [(c.type, c.key.name) for c in seen] == [("ADDED", "newer"), ("DELETED", "ev-0")]
    seen.clear()
    older = cluster_event(NS, "older", kind="Pod", obj_name="p", reason="BackOff", last=at(1))
    store.apply("ADDED", older)  # older than every event kept: not kept
    assert seen == []
    assert store.count("Event") == EVENTS_PER_OBJECT
    # a deleted event makes room again
    store.apply("DELETED", newer)
    store.apply("ADDED", older)
    assert store.get("Event", NS, "older") is not None


def test_a_copied_store_keeps_its_own_event_cap() -> None:
    store = Store()
    store.apply_many(
        cluster_event(NS, f"ev-{i}", kind="Pod", obj_name="p", reason="BackOff", last=at(i + 10))
        for i in range(EVENTS_PER_OBJECT)
    )
    other = store.copy()
    other.apply(
        "ADDED", cluster_event(NS, "new", kind="Pod", obj_name="p", reason="BackOff", last=at(99))
    )
    assert store.count("Event") == other.count("Event") == EVENTS_PER_OBJECT
    assert store.get("Event", NS, "ev-0") is not None
    assert other.get("Event", NS, "ev-0") is None
