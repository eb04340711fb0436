"""``store_evidence.trim_event``, spelled out for speed, keeps what the reading through
``picked`` kept: the same fields, values and key order, over Events of every shape (wrong
types, missing fields, ``regarding`` for ``involvedObject``, ``note`` for ``message``)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from model_builders import cluster_event

from olmtui.store_evidence import EVENT, _metadata, event_subject, picked, trim_event


def reference_trim_event(obj: dict[str, Any]) -> dict[str, Any]:
    """``trim_event`` as it was written before (through ``picked`` and ``_metadata``)."""
    kept: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": EVENT,
        "metadata": _metadata(obj, labels=False),
    }
    kept.update(picked(obj, ("reason", "type", "firstTimestamp", "lastTimestamp", "eventTime")))
    message = obj.get("message") or obj.get("note")
    if isinstance(message, str):
        kept["message"] = message[:2048]
    count = obj.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        kept["count"] = count
    subject = event_subject(obj)
    if subject is not None:
        kind, namespace, name = subject
        kept["involvedObject"] = {"kind": kind, "namespace": namespace, "name": name}
    return kept


_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.text(max_size=4),
    st.just("x" * 3000),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.sampled_from(["kind", "name", "uid"]), st.text(max_size=3), max_size=3),
)
_FIELDS = [
    "reason",
    "type",
    "firstTimestamp",
    "lastTimestamp",
    "eventTime",
    "message",
    "note",
    "count",
    "source",
]
_META_FIELDS = ["name", "namespace", "uid", "resourceVersion", "creationTimestamp", "labels"]
_involved = st.one_of(
    _ANY,
    st.fixed_dictionaries(
        {},
        optional={"kind": _ANY, "namespace": _ANY, "name": _ANY, "apiVersion": _ANY},
    ),
)
_metadata_values = st.one_of(
    _ANY,
    st.dictionaries(st.sampled_from(_META_FIELDS), _ANY, max_size=6),
    st.fixed_dictionaries(
        {"name": st.text(max_size=3)},
        optional={"ownerReferences": st.one_of(_ANY, st.lists(_ANY, max_size=3))},
    ),
)
_events = st.fixed_dictionaries(
    {"kind": st.just(EVENT)},
    optional={
        "metadata": _metadata_values,
        "involvedObject": _involved,
        "regarding": _involved,
        **dict.fromkeys(_FIELDS, _ANY),
    },
)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal, with the same key order at every level."""
    if list(a) != list(b) or a != b:
        return False
    return all(_same(a[k], b[k]) for k in a if isinstance(a[k], dict))


@settings(max_examples=200, deadline=None)
@given(_events)
def test_trim_event_keeps_what_the_reading_through_picked_kept(event: dict[str, Any]) -> None:
    assert _same(trim_event(event), reference_trim_event(event))


def test_a_well_formed_event_is_trimmed_as_before() -> None:
    event = cluster_event("ns", "e1", kind="Pod", obj_name="p", reason="BackOff", message="m")
    event["metadata"]["ownerReferences"] = [{"kind": "Pod", "name": "p", "uid": "u", "x": 1}, 3]
    assert _same(trim_event(event), reference_trim_event(event))
    assert list(trim_event(event)) == [
        "apiVersion",
        "kind",
        "metadata",
        "reason",
        "type",
        "firstTimestamp",
        "lastTimestamp",
        "message",
        "count",
        "involvedObject",
    ]
