"""The loopback server's object store: resourceVersions, identity fields, history."""

from __future__ import annotations

import datetime as dt

import pytest
from apiserver_support import must_gather_objects
from model_builders import namespace

from olmtui.apiserver import ClusterState, ObjectExists, ObjectNotFound
from olmtui.apiserver.resources import by_kind
from olmtui.apiserver.state import ResourceVersionTooOld

CSV = by_kind("ClusterServiceVersion")


def _namespace(name: str, **extra: object) -> dict:
    return {**namespace(name, bare=True), **extra}


def test_every_change_gets_the_next_resource_version() -> None:
    state = ClusterState()
    first = state.create(_namespace("a"))
    second = state.create(_namespace("b"))
    updated = state.update({**_namespace("a"), "status": {"phase": "Terminating"}})
    deleted = state.delete("Namespace", None, "b")
    rvs = [int(o["metadata"]["resourceVersion"]) for o in (first, second, updated, deleted)]
    assert rvs == sorted(rvs) and len(set(rvs)) == 4
    assert state.resource_version == str(rvs[-1])


def test_create_assigns_uid_timestamp_and_generation_but_keeps_real_ones() -> None:
    state = ClusterState()
    fresh = state.create(_namespace("fresh"))["metadata"]
    assert fresh["uid"] and fresh["generation"] == 1
    assert dt.datetime.strptime(fresh["creationTimestamp"], "%Y-%m-%dT%H:%M:%SZ")
    real = next(o for o in must_gather_objects() if o["kind"] == "Subscription")
    stored = state.create(real)["metadata"]
    assert stored["uid"] == real["metadata"]["uid"]
    assert stored["creationTimestamp"] == real["metadata"]["creationTimestamp"]
    assert stored["resourceVersion"] != real["metadata"]["resourceVersion"]


def test_spec_change_bumps_generation_status_change_does_not() -> None:
    state = ClusterState()
    sub = next(o for o in must_gather_objects() if o["kind"] == "Subscription")
    state.create(sub)
    sub["status"] = {"state": "UpgradePending"}
    assert state.update(sub)["metadata"]["generation"] == 1
    sub["spec"] = {**sub["spec"], "channel": "beta"}
    assert state.update(sub)["metadata"]["generation"] == 2


def test_update_that_changes_nothing_is_a_no_op() -> None:
    state = ClusterState()
    stored = state.create(_namespace("a"))
    assert state.update(_namespace("a")) == stored
    assert state.resource_version == stored["metadata"]["resourceVersion"]


def test_create_of_existing_and_update_or_delete_of_missing_are_refused() -> None:
    state = ClusterState()
    state.create(_namespace("a"))
    with pytest.raises(ObjectExists):
        state.create(_namespace("a"))
    with pytest.raises(ObjectNotFound):
        state.update(_namespace("b"))
    with pytest.raises(ObjectNotFound):
        state.delete("ns", None, "b")


def test_namespaced_object_needs_a_namespace_and_unknown_kinds_are_refused() -> None:
    state = ClusterState()
    with pytest.raises(ValueError, match=r"without metadata\.namespace"):
        state.create({"kind": "Subscription", "metadata": {"name": "s"}})
    with pytest.raises(KeyError):
        state.create({"kind": "ReplicaSet", "metadata": {"name": "d", "namespace": "x"}})
    assert state.load([{"kind": "ReplicaSet", "metadata": {"name": "d"}}], skip_unknown=True) == 0


def test_load_expands_lists_and_apply_updates_in_place() -> None:
    state = ClusterState()
    objs = must_gather_objects()
    assert state.load([{"apiVersion": "v1", "kind": "List", "items": objs}]) == len(objs)
    assert len(state.list("csv")) == 9
    assert len(state.list("csv", "default")) == 2
    rv = state.resource_version
    state.load(objs)  # re-applying the same objects changes nothing
    assert state.resource_version == rv


def test_objects_are_served_at_the_resource_version_of_their_group() -> None:
    """OperatorGroups in dumps may say v1alpha2; the server serves operators.coreos.com/v1."""
    state = ClusterState()
    og = state.create(
        {
            "apiVersion": "operators.coreos.com/v1alpha2",
            "kind": "OperatorGroup",
            "metadata": {"name": "og", "namespace": "x"},
        }
    )
    assert og["apiVersion"] == "operators.coreos.com/v1"


def test_unquoted_yaml_timestamps_become_rfc3339_strings() -> None:
    state = ClusterState()
    when = dt.datetime(2021, 9, 13, 15, 30, 10, tzinfo=dt.UTC)
    stored = state.create(_namespace("a", status={"since": when}))
    assert stored["status"]["since"] == "2021-09-13T15:30:10Z"


def test_stored_objects_are_copies() -> None:
    state = ClusterState()
    obj = _namespace("a", status={"phase": "Active"})
    state.create(obj)
    obj["status"]["phase"] = "Terminating"
    got = state.get("Namespace", None, "a")
    assert got is not None and got["status"]["phase"] == "Active"
    got["status"]["phase"] = "Gone"
    assert state.get("Namespace", None, "a")["status"]["phase"] == "Active"


def test_history_replays_changes_after_a_resource_version() -> None:
    state = ClusterState()
    csv = next(o for o in must_gather_objects() if o["kind"] == "ClusterServiceVersion")
    start = state.current_rv
    state.create(_namespace("a"))
    state.create(csv)
    state.delete("csv", csv["metadata"]["namespace"], csv["metadata"]["name"])
    events = state.events_since(start, CSV)
    assert [e.type for e in events] == ["ADDED", "DELETED"]
    assert events[1].obj["metadata"]["resourceVersion"] == state.resource_version


def test_bounded_history_and_compaction_make_old_resource_versions_too_old() -> None:
    state = ClusterState(history=3)
    start = state.current_rv
    for name in "abcd":
        state.create(_namespace(name))
    with pytest.raises(ResourceVersionTooOld, match=f"too old resource version: {start}"):
        state.events_since(start, by_kind("Namespace"))
    assert len(state.events_since(start + 1, by_kind("Namespace"))) == 3
    state.compact()
    with pytest.raises(ResourceVersionTooOld):
        state.events_since(start + 1, by_kind("Namespace"))
    assert state.events_since(state.current_rv, by_kind("Namespace")) == []


def test_listeners_see_every_change_in_order() -> None:
    state = ClusterState()
    seen: list[tuple[str, int]] = []
    state.subscribe(lambda e: seen.append((e.type, e.rv)))
    state.create(_namespace("a"))
    state.update(_namespace("a", status={"phase": "Active"}))
    state.delete("Namespace", None, "a")
    assert [t for t, _ in seen] == ["ADDED", "MODIFIED", "DELETED"]
    assert [rv for _, rv in seen] == sorted(rv for _, rv in seen)
