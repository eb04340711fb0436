"""R-EVD-1: a must-gather's Pod, Event and Job Lists read without building what the cache
drops (``evidence_lists``) give the cache exactly what the full parse gives it: the same
objects trimmed, the same wrong-typed fields, the same skipped documents at the same lines.
Text the fast path does not recognise goes to the full parse."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from evidence_lists_support import EDIT_PIECES, assert_same, go_yaml, listed
from hypothesis import given, settings
from hypothesis import strategies as st
from model_builders import cluster_event, job, pod

from olmtui.sources.snapshots.evidence_lists import evidence_list
from olmtui.sources.snapshots.snapshot_documents import load_yaml

NS = "openshift-marketplace"
NETWORK = '[{\n    "name": "openshift-sdn",\n    "interface": "eth0",\n    "dns": {}\n}]'


def long_spec(name: str) -> dict[str, Any]:
    """A catalog pod's spec, as long as real ones are."""
    probe = {
        "exec": {"command": ["grpc_health_probe", "-addr=:50051"]},
        "failureThreshold": 3,
        "periodSeconds": 10,
    }
    return {
        "containers": [
            {
                "image": "registry.redhat.io/redhat/certified-operator-index:v4.8",
                "livenessProbe": probe,
                "readinessProbe": copy.deepcopy(probe),
                "name": "registry-server",
                "ports": [{"containerPort": 50051, "name": "grpc", "protocol": "TCP"}],
                "resources": {"requests": {"cpu": "10m", "memory": "50Mi"}},
                "securityContext": {"capabilities": {"drop": ["MKNOD"]}},
                "volumeMounts": [{"mountPath": "/var/run/secrets", "readOnly": True}],
            }
        ],
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "priority": 2000000000,
        "serviceAccountName": name,
        "tolerations": [{"effect": "NoExecute", "operator": "Exists", "tolerationSeconds": 300}],
        "volumes": [{"name": "token", "projected": {"defaultMode": 420, "sources": []}}],
        "emptyish": {},
    }


def pods_list() -> dict[str, Any]:
    crashing = pod(
        NS,
        "cat-x",
        labels={"olm.catalogSource": "cat"},
        waiting="CrashLoopBackOff",
        waiting_message="back-off 5m0s restarting failed container=registry-server pod=cat-x "
        "in a message long enough to be folded over several lines by the encoder",
        last_terminated="OOMKilled",
        restarts=12,
        spec=long_spec("cat"),
        annotations={"k8s.v1.cni.cncf.io/network-status": NETWORK, "openshift.io/scc": "anyuid"},
    )
    del crashing["metadata"]["managedFields"]
    crashing["metadata"]["creationTimestamp"] = "2021-09-13T14:52:57Z"
    crashing["status"]["conditions"][0]["lastProbeTime"] = None
    running = pod(NS, "other", spec=long_spec("other"))
    return listed("Pod", "v1", [crashing, running])


def events_list() -> dict[str, Any]:
    kept = cluster_event(NS, "e1", kind="Pod", obj_name="cat-x", reason="BackOff", count=42)
    kept["message"] = "Back-off restarting failed container registry-server in pod cat-x_" * 3
    dropped = cluster_event(NS, "e2", kind="Secret", obj_name="s", reason="Created")
    # no "&" beside the "*": a document with both may hold aliases and is parsed in full
    dropped["message"] = "Created: a Secret! with *stars* and a ? in it"
    olm = cluster_event(NS, "e3", kind="CatalogSource", obj_name="cat", reason="Unhealthy")
    return listed("Event", "v1", [kept, dropped, olm])


def jobs_list() -> dict[str, Any]:
    unpack = {"operatorframework.io/bundle-unpack-ref": "abc123"}
    return listed("Job", "batch/v1", [job(NS, "abc123", labels=unpack, failed="DeadlineExceeded")])


LISTS = {"pods": pods_list, "events": events_list, "jobs": jobs_list}


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_plain_list_is_read_fast_and_gives_the_cache_the_same(name: str) -> None:
    text = go_yaml(LISTS[name]())
    fast = evidence_list(text.encode(), load_yaml)
    assert fast is not None  # the plain shape is recognised
    assert_same(text)


def test_a_pods_spec_is_not_built() -> None:
    fast = evidence_list(go_yaml(pods_list()).encode(), load_yaml)
    assert fast is not None and [item["spec"] for item in fast["items"]] == [{}, {}]


def test_an_event_about_a_kind_not_kept_is_left_as_its_identity() -> None:
    fast = evidence_list(go_yaml(events_list()).encode(), load_yaml)
    assert fast is not None
    dropped = fast["items"][1]
    assert set(dropped) == {"apiVersion", "kind", "metadata"}
    assert "message" in fast["items"][0] and "message" in fast["items"][2]


def test_the_kubectl_folded_and_block_forms_are_read_as_pyyaml_reads_them() -> None:
    text = go_yaml(pods_list())
    assert "|-\n" in text or "|\n" in text  # the annotation's block
    folded = [line for line in text.splitlines() if line.startswith("          ")]
    assert folded  # a folded message
    assert_same(text)


def _replace(old: str, new: str, count: int = 1) -> Any:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)

    return edit


#: Edits of a plain List's text: hostile, odd or merely unusual.
EDITS: dict[str, Any] = {
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "bom": lambda t: "\ufeff" + t,
    "comment": _replace("\n  kind: ", "\n  # a comment\n  kind: "),
    "comment-in-spec": _replace("\n    nodeSelector:", "\n    # here\n    nodeSelector:"),
    "blank-line": _replace("\n  kind: ", "\n\n  kind: "),
    "flow-spec": _replace("\n  spec:\n", "\n  spec: {a: [1, 2]}\n  x:\n"),
    "spec-list": _replace("\n  spec:\n", "\n  spec:\n  - 1\n  x:\n"),
    "spec-null": _replace("\n  spec:\n", "\n  spec: null\n  x:\n"),
    "anchor-alias": _replace("priority: 2000000000", "priority: &p 2000000000\n    p2: *p"),
    "alias-undefined": _replace("priority: 2000000000", "priority: *nowhere"),
    "alias-in-status": _replace("phase: Running", "phase: *nowhere"),
    "duplicate-anchor": lambda t: t.replace("priority: 2000000000", "priority: &p 1", 2),
    "tag-in-spec": _replace("priority: 2000000000", "priority: !!str 2000000000"),
    "bad-tag-in-spec": _replace("priority: 2000000000", "priority: !nope 1"),
    "bad-date-in-spec": _replace("priority: 2000000000", "priority: 2021-13-45"),
    "date-in-status": _replace("phase: Running", "phase: 2021-09-13"),
    "bad-date-in-status": _replace("phase: Running", "phase: 2021-13-45"),
    "binary-number-in-spec": _replace("priority: 2000000000", "priority: 0b_"),
    "value-tag-in-spec": _replace("priority: 2000000000", "priority: ="),
    "flow-key-in-spec": _replace("priority: 2000000000", "priority: 1\n    [a]: 1"),
    "complex-key-in-spec": _replace("priority: 2000000000", "priority: 1\n    ? a\n    : 1"),
    "merge-key-in-spec": _replace("priority: 2000000000", "priority: 1\n    <<: 3"),
    "broken-quote-in-spec": _replace("priority: 2000000000", 'priority: "unclosed'),
    "broken-indent": _replace("\n  status:\n", "\n status:\n"),
    "name-int": _replace("name: cat-x", "name: 12"),
    "name-missing": _replace("name: cat-x", "nome: cat-x"),
    "labels-list": _replace("    labels:\n", "    labels:\n    - a\n    x:\n"),
    "status-list": _replace("\n  status:\n", "\n  status:\n  - 1\n  x:\n"),
    "status-flow": _replace("\n  status:\n", "\n  status: {phase: Failed}\n  x:\n"),
    "restarts-text": _replace("restartCount: 12", "restartCount: '12'"),
    "restarts-float": _replace("restartCount: 12", "restartCount: 12.0"),
    "restarts-octal": _replace("restartCount: 12", "restartCount: 012"),
    "ready-yes": _replace("ready: true", "ready: yes"),
    "null-tilde": _replace("lastProbeTime: null", "lastProbeTime: ~"),
    "key-true": _replace("phase: Running", "phase: Running\n    true: 1"),
    "duplicate-key": _replace("phase: Running", "phase: Running\n    phase: Failed"),
    "unicode": _replace("phase: Running", "phase: Rünning"),
    "line-separator": _replace("phase: Running", "phase: Run\u2028ning"),
    "tab": _replace("phase: Running", "phase:\tRunning"),
    "trailing-comment": _replace("phase: Running", "phase: Running # yes"),
    "double-quoted-escape": _replace("phase: Running", 'phase: "Run\\tning"'),
    "single-quoted-quote": _replace("phase: Running", "phase: 'Run''ning'"),
    "folded-block": _replace("phase: Running", "phase: >\n      Run\n      ning"),
    "literal-keep": _replace("phase: Running", "phase: |+\n      Running\n"),
    "quoted-multiline": _replace("phase: Running", "phase: 'Run\n      ning'"),
    "plain-multiline": _replace("phase: Running", "phase: Run\n      ning"),
    "typed-items": lambda t: t.replace("- apiVersion: v1\n  kind: Pod\n", "- "),
    "indented-items": lambda t: t.replace("\n- ", "\n  - ").replace("\n  ", "\n    "),
    "empty-items": lambda t: t.split("items:")[0] + "items: []\nkind: PodList\nmetadata: {}\n",
    "second-document": lambda t: t + t,
    "list-of-another-kind": lambda t: t.replace("kind: PodList", "kind: SecretList"),
    "catalog-source-in-pod-list": _replace(
        "- apiVersion: v1\n  kind: Pod\n",
        "- apiVersion: operators.coreos.com/v1alpha1\n  kind: CatalogSource\n",
    ),
    "job-in-pod-list": _replace(
        "- apiVersion: v1\n  kind: Pod\n", "- apiVersion: batch/v1\n  kind: Job\n"
    ),
    "pod-of-another-group": _replace("- apiVersion: v1\n", "- apiVersion: example.com/v1\n"),
    "no-end-of-line": lambda t: t.rstrip("\n"),
    "huge-number-in-spec": _replace("priority: 2000000000", "priority: " + "9" * 5000),
    "deep-in-spec": _replace("priority: 2000000000", "priority: " + "[" * 2000 + "]" * 2000),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_pod_list_gives_the_cache_what_the_full_parse_gives(edit: str) -> None:
    assert_same(EDITS[edit](go_yaml(pods_list())))


EVENT_EDITS: dict[str, Any] = {
    "involved-kind-quoted": _replace("kind: Secret", "kind: 'Secret'"),
    "involved-kind-kept": _replace("kind: Secret", "kind: Job"),
    "involved-missing": _replace("  involvedObject:\n", "  involvedObjekt:\n"),
    "involved-flow": _replace("  involvedObject:\n", "  involvedObject: {kind: Pod}\n  x:\n"),
    "dropped-name-missing": _replace("name: e2", "nome: e2"),
    "dropped-labels-list": _replace("name: e2", "name: e2\n    labels: [a]"),
    "dropped-bad-date": _replace("reason: Created", "reason: 2021-13-45"),
    "regarding": _replace(
        "  involvedObject:\n", "  regarding:\n    kind: Pod\n    name: p\n  x:\n"
    ),
    "no-kind": lambda t: t.replace("  kind: Event\n", ""),
    "count-text": _replace("count: 42", "count: '42'"),
}


@pytest.mark.parametrize("edit", sorted(EVENT_EDITS))
def test_an_edited_event_list_gives_the_cache_what_the_full_parse_gives(edit: str) -> None:
    assert_same(EVENT_EDITS[edit](go_yaml(events_list())))


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(sorted(LISTS)),
    where=st.floats(min_value=0, max_value=1),
    piece=st.sampled_from(EDIT_PIECES),
    cut=st.integers(min_value=0, max_value=3),
)
def test_any_small_edit_gives_the_cache_what_the_full_parse_gives(
    name: str, where: float, piece: str, cut: int
) -> None:
    text = go_yaml(LISTS[name]())
    at = int(where * len(text))
    assert_same(text[:at] + piece + text[at + cut :])
