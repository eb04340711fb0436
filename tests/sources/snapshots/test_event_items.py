"""R-EVD-1: an Event of the shape ``oc`` writes is read with one regular expression
(``event_items``) and gives the loader and the cache exactly what the full parse gives:
varied values (quoted, folded, multi-line, unicode, dates, numbers as text), odd text
(comments, flow style, anchors, CRLF, odd indentation) and Events of other shapes, which are
read line by line or parsed in full. And a Pod's skipped spec never swallows what follows."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from evidence_lists_support import as_the_cache_reads, assert_same, go_yaml, listed
from hypothesis import given, settings
from hypothesis import strategies as st
from model_builders import cluster_event, pod

from olmtui.sources.snapshots import block_lines
from olmtui.sources.snapshots.event_items import event_item, left_out_pod_event
from olmtui.sources.snapshots.evidence_lists import evidence_list
from olmtui.sources.snapshots.snapshot_documents import load_yaml, parse_documents
from olmtui.sources.snapshots.snapshot_objects import object_problem
from olmtui.store_evidence import event_subject

NS = "openshift-marketplace"

#: Two Events exactly as ``oc adm inspect`` writes them (Go's encoder: double quotes, an
#: empty reporting component, ``eventTime: null``, a long message folded).
OC_EVENTS = """---
apiVersion: v1
items:
- apiVersion: v1
  count: 12
  eventTime: null
  firstTimestamp: "2021-09-13T14:52:57Z"
  involvedObject:
    apiVersion: v1
    fieldPath: spec.containers{registry-server}
    kind: Pod
    name: certified-operators-mj8cg
    namespace: openshift-marketplace
    resourceVersion: "19477"
    uid: 8a6e4b0a-2f2e-4d4b-9d0c-5a0d1f3e2b11
  kind: Event
  lastTimestamp: "2021-09-13T15:02:11Z"
  message: 'Readiness probe failed: timeout: failed to connect service ":50051" within
    1s'
  metadata:
    creationTimestamp: "2021-09-13T14:52:57Z"
    name: certified-operators-mj8cg.16a4a2b6a3e0c7f2
    namespace: openshift-marketplace
    resourceVersion: "20113"
    uid: 0b5e1c77-9a41-4f3c-8f0e-0c1b2d3e4f50
  reason: Unhealthy
  reportingComponent: ""
  reportingInstance: ""
  source:
    component: kubelet
    host: ci-ln-k7vx6h2-002ac-w7gjh-worker-eastus21-gqtkz
  type: Warning
- apiVersion: v1
  count: 1
  eventTime: null
  firstTimestamp: "2021-09-13T14:52:40Z"
  involvedObject:
    apiVersion: operators.coreos.com/v1alpha1
    kind: Subscription
    name: etcd
    namespace: openshift-marketplace
    resourceVersion: "19001"
    uid: 3f2b0d6e-1c4a-4e2f-b1d0-9e8f7a6b5c4d
  kind: Event
  lastTimestamp: "2021-09-13T14:52:40Z"
  message: |-
    Bundle unpacking failed - DeadlineExceeded: Job was active longer than specified deadline.
    Auto-retry in ~5 min
  metadata:
    creationTimestamp: "2021-09-13T14:52:40Z"
    name: etcd.16a4a2b2c1d0e9f8
    namespace: openshift-marketplace
    resourceVersion: "19002"
    uid: 5d4c3b2a-1908-4f7e-a6d5-c4b3a2918070
  reason: BundleUnpackFailed
  reportingComponent: ""
  reportingInstance: ""
  source:
    component: operator-lifecycle-manager
  type: Warning
kind: EventList
metadata:
  resourceVersion: "20200"
"""


def _items(text: str) -> list[bytes]:
    """The items of an EventList's text as ``evidence_lists`` hands them to ``event_item``."""
    body = text.encode().removeprefix(b"---\n")
    start = body.index(b"\nitems:\n") + len(b"\nitems:\n")
    end = body.index(b"\nkind: EventList")
    return [b"  " + piece.removeprefix(b"- ") + b"\n" for piece in body[start:end].split(b"\n- ")]


def test_the_events_oc_writes_are_read_by_the_expression_and_give_the_cache_the_same() -> None:
    read = [event_item(text) for text in _items(OC_EVENTS)]
    assert all(obj is not None for obj in read)
    assert_same(OC_EVENTS)


def test_what_the_cache_drops_is_not_built() -> None:
    first = event_item(_items(OC_EVENTS)[0])
    assert first is not None
    assert not {"source", "reportingComponent", "reportingInstance"} & set(first)
    assert first["involvedObject"] == {
        "kind": "Pod",
        "name": "certified-operators-mj8cg",
        "namespace": NS,
    }
    assert first["message"] == (
        'Readiness probe failed: timeout: failed to connect service ":50051" within 1s'
    )


def test_the_list_of_such_events_needs_no_check_by_libyaml(monkeypatch: Any) -> None:
    checked: list[bool] = []
    real = block_lines.Checked.require

    def spy(self: Any) -> None:
        checked.append(True)
        real(self)

    monkeypatch.setattr(block_lines.Checked, "require", spy)
    assert evidence_list(OC_EVENTS.encode(), load_yaml) is not None
    assert not checked
    # an item of another shape is read line by line, once libyaml has checked the List
    odd = OC_EVENTS.replace("  reason: Unhealthy\n", "  reason: Unhealthy # why\n")
    assert evidence_list(odd.encode(), load_yaml) is not None
    assert checked
    assert_same(odd)


def _edit(old: str, new: str) -> Any:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    return edit


_FIRST_MESSAGE = (
    "message: 'Readiness probe failed: timeout: failed to connect service "
    '":50051" within\n    1s\''
)

#: Edits of the text ``oc`` writes, each of a form the expression does not read as it is.
EDITS: dict[str, Any] = {
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "comment-line": _edit("  reason: Unhealthy\n", "  # a comment\n  reason: Unhealthy\n"),
    "trailing-comment": _edit("reason: Unhealthy", "reason: Unhealthy # x"),
    "flow-metadata": _edit(
        '  metadata:\n    creationTimestamp: "2021-09-13T14:52:57Z"\n',
        '  metadata: {creationTimestamp: x}\n  x:\n    creationTimestamp: "2021-09-13T14:52:57Z"\n',
    ),
    "flow-involved": _edit("  involvedObject:\n", "  involvedObject: {kind: Pod, name: p}\n  x:\n"),
    "anchor-alias": _edit("reason: Unhealthy", "reason: &r Unhealthy\n  note: *r"),
    "odd-indentation": _edit("    kind: Pod\n", "     kind: Pod\n"),
    "deeper-metadata": _edit("    name: etcd.16a", "    labels:\n      a: b\n    name: etcd.16a"),
    "managed-fields": _edit(
        "    name: etcd.16a",
        "    managedFields:\n    - manager: olm\n      operation: Update\n    name: etcd.16a",
    ),
    "key-twice": _edit("  reason: Unhealthy\n", "  reason: Unhealthy\n  reason: Other\n"),
    "keys-out-of-order": _edit(
        '  reason: Unhealthy\n  reportingComponent: ""\n',
        '  reportingComponent: ""\n  reason: Unhealthy\n',
    ),
    "unknown-key": _edit("  reason: Unhealthy\n", "  reason: Unhealthy\n  zzz: 1\n"),
    "note-and-regarding": _edit(
        "  reason: Unhealthy\n", "  note: n\n  reason: Unhealthy\n  regarding:\n    kind: Pod\n"
    ),
    "unicode": _edit("reason: Unhealthy", "reason: Unhéalthy"),
    "unicode-message": _edit("within\n    1s'", "within\n    1s \u2014 é'"),
    "escape": _edit('reportingComponent: ""', 'reportingComponent: "a\\tb"'),
    "quote-doubled": _edit("component: kubelet", "component: 'kube''let'"),
    "bad-date-dropped": _edit("component: kubelet", "component: 2021-13-45"),
    "date-kept": _edit("reason: Unhealthy", "reason: 2021-09-13"),
    "tag": _edit("reason: Unhealthy", "reason: !!str 12"),
    "count-text": _edit("count: 12", 'count: "12"'),
    "count-float": _edit("count: 12", "count: 12.5"),
    "count-octal": _edit("count: 12", "count: 012"),
    "count-huge": _edit("count: 12", "count: " + "9" * 30),
    "type-bool": _edit("type: Warning", "type: yes"),
    "null-tilde": _edit("eventTime: null", "eventTime: ~"),
    "empty-value": _edit("eventTime: null", "eventTime:"),
    "blank-line-in-message": _edit("within\n    1s'", "within\n    \n    1s'"),
    "blank-line-in-literal": _edit("deadline.\n    Auto", "deadline.\n        \n    Auto"),
    "literal-keep": _edit("  message: |-\n", "  message: |\n"),
    "folded-block": _edit("  message: |-\n", "  message: >-\n"),
    "blanks-around-folds": _edit("within\n    1s'", "within  \n    more   \n     1s'"),
    "quote-runs-on": _edit("within\n    1s'", "within\n  1s'"),
    "plain-message-folded": _edit(
        _FIRST_MESSAGE,
        "message: Readiness probe failed timeout failed to connect service 50051\n    within 1s",
    ),
    "plain-message-with-colon": _edit(
        _FIRST_MESSAGE,
        "message: Readiness probe\n    failed: timeout",
    ),
    "typed-items": lambda t: t.replace("  kind: Event\n", ""),
    "kind-not-event": _edit("  kind: Event\n", "  kind: Pod\n"),
    "tab": _edit("reason: Unhealthy", "reason:\tUnhealthy"),
    "dash-item-indented": lambda t: t.replace("\n- ", "\n  - ").replace("\n  ", "\n    "),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_event_gives_the_cache_what_the_full_parse_gives(edit: str) -> None:
    assert_same(EDITS[edit](OC_EVENTS))


#: Text an Event's fields may hold: quotes, colons, hashes, brackets, line feeds, blanks,
#: non-ASCII letters, and what YAML reads as no string (dates, numbers, booleans, null).
_TEXTS = st.one_of(
    st.text(
        alphabet=st.sampled_from(list("ab Z09:#'\"-[]{},.\n\t\\é—/?!%@`|>=~")),
        max_size=120,
    ),
    st.sampled_from(["", " ", "null", "yes", "12", "012", "1.5", "2021-09-13", "2021-13-45", "~"]),
)


@settings(max_examples=150, deadline=None)
@given(
    message=_TEXTS,
    reason=_TEXTS,
    component=_TEXTS,
    kind=st.sampled_from(["Pod", "Secret", "CatalogSource", "Job"]),
    name=st.sampled_from(["e1", "0x12", "2021-09-13", "ok"]),
    count=st.one_of(st.integers(min_value=-5, max_value=10**20), st.none()),
    width=st.integers(min_value=30, max_value=120),
)
def test_any_event_gives_the_cache_what_the_full_parse_gives(
    message: str,
    reason: str,
    component: str,
    kind: str,
    name: str,
    count: int | None,
    width: int,
) -> None:
    event = cluster_event(
        NS,
        name,
        kind=kind,
        obj_name="p",
        reason=reason,
        message=message,
        count=0 if count is None else count,
        extra={"eventTime": None, "reportingComponent": component},
    )
    if count is None:
        del event["count"]
    plain = cluster_event(NS, "plain", kind="Pod", obj_name="p", reason="BackOff")
    text = go_yaml(listed("Event", "v1", [plain, event, plain]), width=width)
    assert_same(text)
    # the plain Events around it are read by the expression whatever it holds
    documents = list(parse_documents(text.encode(), json_format=False))
    if "*" in text and "&" in text:
        return  # may hold aliases: the document is parsed in full
    assert documents[0].value is not None


def test_a_quoted_text_in_a_pods_spec_that_runs_on_past_it_is_not_skipped() -> None:
    """The spec ends at the first line as shallow as its key, unless a quoted text runs on:
    YAML does not ask a quoted text's lines to be indented. Skipped, the keys it swallows
    would come back as the Pod's own (a ``Failed`` phase the Pod does not have)."""
    base = pod(NS, "p")
    del base["metadata"]["managedFields"], base["status"]
    base["spec"] = {"priority": 1}
    text = go_yaml(listed("Pod", "v1", [base]))
    assert "    priority: 1\nkind: PodList\n" in text
    runs_on = text.replace(
        "    priority: 1\n", "    priority: 'runs\n  status:\n    phase: Failed\n  x: on'\n"
    )
    full = load_yaml(runs_on.encode())
    assert "status" not in full["items"][0]
    assert full["items"][0]["spec"]["priority"].startswith("runs status: phase: Failed")
    assert_same(runs_on)


def test_a_spec_whose_quoted_texts_close_on_their_lines_is_skipped() -> None:
    base = pod(NS, "p")
    del base["metadata"]["managedFields"]
    base["spec"] = {"env": [{"name": "A", "value": "true"}, {"name": "B", "value": "x: 'y'"}]}
    text = go_yaml(listed("Pod", "v1", [base]))
    assert "'" in text.split("  spec:")[1].split("  status:")[0]
    fast = evidence_list(text.encode(), load_yaml)
    assert fast is not None and fast["items"][0]["spec"] == {}
    assert as_the_cache_reads(fast) == as_the_cache_reads(load_yaml(text.encode()))


def _left_out_soundly(text: str, namespace: str = NS) -> int:
    """R-EVD-1: each item ``left_out_pod_event`` leaves out unread parses alone, builds into a
    well-formed Event (``object_problem``) about a Pod of ``namespace``: the loader would
    leave it out too. How many were left out."""
    if "\nkind: EventList" not in text or "\nitems:\n" not in text:
        return 0  # not an EventList the fast path reads (CRLF)
    left_out = 0
    for item in _items(text):
        if left_out_pod_event(item, namespace):
            obj = yaml.safe_load(item)
            assert object_problem(obj) is None, item
            assert (obj["apiVersion"], obj["kind"]) == ("v1", "Event")
            assert event_subject(obj) is not None
            assert event_subject(obj)[:2] == ("Pod", namespace)
            left_out += 1
    return left_out


def test_the_events_oc_writes_about_pods_are_left_out_unread() -> None:
    assert _left_out_soundly(OC_EVENTS) == 1  # the second is about a CSV
    assert _left_out_soundly(OC_EVENTS, "elsewhere") == 0


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_event_is_left_out_only_when_it_would_be(edit: str) -> None:
    try:
        text = EDITS[edit](OC_EVENTS)
    except AssertionError:
        return
    _left_out_soundly(text)


@pytest.mark.parametrize(
    "old, new",
    [
        ("uid: 8a6e4b0a", "uid: 2021-13-45T"),  # a date PyYAML fails on
        ("uid: 8a6e4b0a-2f2e-4d4b-9d0c-5a0d1f3e2b11", "uid: 0b_"),  # an int it fails on
        ("name: certified-operators-mj8cg.16a4a2b6a3e0c7f2", "name: 7"),  # no name
        ("name: certified-operators-mj8cg\n", "name: 7\n"),  # the pod's name no string
        ('namespace: openshift-marketplace\n    resourceVersion: "19477"', "namespace: x"),
        ("reason: Unhealthy", "reason: 'Unhealthy"),  # a quote that runs on
        ("reason: Unhealthy", "reason: [Unhealthy"),
        ("  kind: Event\n", "  kind: Secret\n"),
        ("apiVersion: v1\n  count: 12", "apiVersion: events.k8s.io/v1\n  count: 12"),
    ],
)
def test_an_event_the_loader_keeps_or_that_fails_is_not_left_out(old: str, new: str) -> None:
    assert old in OC_EVENTS
    item = _items(OC_EVENTS.replace(old, new, 1))[0]
    assert not left_out_pod_event(item, NS)


@settings(max_examples=150, deadline=None)
@given(
    message=_TEXTS,
    reason=_TEXTS,
    uid=_TEXTS,
    name=st.sampled_from(["e1", "0x12", "2021-09-13", "ok", "", "null"]),
    pod_name=st.sampled_from(["p", "12", "yes", "a b"]),
    width=st.integers(min_value=30, max_value=120),
)
def test_any_event_left_out_is_one_the_loader_leaves_out(
    message: str, reason: str, uid: str, name: str, pod_name: str, width: int
) -> None:
    event = cluster_event(NS, name, kind="Pod", obj_name=pod_name, reason=reason, message=message)
    event["involvedObject"]["uid"] = uid
    _left_out_soundly(go_yaml(listed("Event", "v1", [event]), width=width))
