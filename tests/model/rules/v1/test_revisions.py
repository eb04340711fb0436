"""A ClusterExtension's revisions (R-V1-24) and what is said of them (R-V1-25..R-V1-27), from
upstream's own shapes: the ClusterObjectSet examples of operator-controller's
docs/draft/concepts/clusterobjectsets.md (tests/data/v1-revisions) and the conditions its
clusterobjectset_controller.go writes (``tests/v1_objects.py``)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from data_paths import DATA
from report_records import validate_report
from v1_objects import (
    DEPLOYMENT_PROBE_FAILURE,
    condition,
    extension,
    healthy_conditions,
    object_set,
    revision_conditions,
)

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings
from olmtui.model.rules.v1.extensions import decode_extension
from olmtui.model.rules.v1.findings import condition_findings
from olmtui.model.rules.v1.revision_findings import revision_findings
from olmtui.model.rules.v1.revisions import decode_revision, extension_revisions
from olmtui.report import render_text, report_json
from olmtui.store import Store

REVISIONS = DATA / "v1-revisions"


def _doc(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((REVISIONS / name).read_text())
    return loaded


def _stored(*objects: dict[str, Any]) -> Store:
    store = Store()
    store.apply_many(list(objects))
    return store


def test_the_docs_inline_example_keeps_names_and_identities_only() -> None:
    store = _stored(_doc("clusterobjectset-inline.yaml"))
    (kept,) = store.list("ClusterObjectSet")
    # R-V1-24: no manifest is kept, only each object's identity.
    assert "openAPIV3Schema" not in str(kept) and "containers" not in str(kept)
    revision = decode_revision(kept)
    assert (revision.number, revision.lifecycle_state, revision.active) == (1, "Active", True)
    assert revision.collision_protection == "Prevent"
    assert [p.name for p in revision.phases] == ["crds", "rbac", "deploy"]
    assert [o.label for o in revision.phases[1].objects] == [
        "ServiceAccount my-app-system/my-app-controller",
        "ClusterRole my-app-manager-role",
    ]


def test_the_docs_secret_reference_example_keeps_the_references() -> None:
    kept = _stored(_doc("clusterobjectset-refs.yaml")).get("ClusterObjectSet", "", "my-app-rev1")
    assert kept is not None
    revision = decode_revision(kept)
    assert revision.phases[0].objects[0].label == (
        "manifest in Secret olmv1-system/my-app-rev1-3a7f1b9c0e2d4f68 key "
        "K8sTl2xQa0vNpR7mW4dYcJfHbE9gUiAoZX1sDj6wFCy"
    )


def _rolling_extension(**kwargs: Any) -> dict[str, Any]:
    return extension(
        conditions=[
            condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
            condition("Progressing", "True", "RollingOut", "Revision 2 is rolling out."),
        ],
        **kwargs,
    )


@pytest.mark.parametrize(
    ("objects", "label"),
    [
        ([object_set("argocd-1", revision=1)], "1 active"),
        (
            [
                object_set("argocd-1", revision=1, lifecycle_state="Archived", state="archived"),
                object_set("argocd-2"),
            ],
            "1 active, 1 archived",
        ),
        # R-V1-24: old and new both active during an upgrade.
        (
            [object_set("argocd-1", revision=1), object_set("argocd-2", state="rolling-out")],
            "2 active (rolling out)",
        ),
        (
            [
                object_set("argocd-1", revision=1),
                object_set("argocd-2", state="deadline", probe="x"),
            ],
            "2 active (deadline exceeded)",
        ),
        # The older name, owned through the labels only.
        ([object_set(kind="ClusterExtensionRevision", labels_only=True)], "1 active"),
        # Another extension's revision is not this one's.
        ([object_set(owner="other")], ""),
    ],
)
def test_the_revisions_column(objects: list[dict[str, Any]], label: str) -> None:
    store = _stored(*objects)
    kept = [*store.list("ClusterObjectSet"), *store.list("ClusterExtensionRevision")]
    assert extension_revisions(extension(), kept).label == label


def test_active_revisions_named_by_the_extension_but_not_read_are_shown() -> None:
    listed = [{"name": "argocd-3", "conditions": revision_conditions("rolling-out", 3)}]
    revisions = extension_revisions(_rolling_extension(active_revisions=listed), [])
    (revision,) = revisions.revisions
    assert (revision.name, revision.number, revision.active) == ("argocd-3", None, True)
    assert revisions.label == "1 active"


def _codes(found: list[Any]) -> list[tuple[str, str, str]]:
    return sorted((f.code, f.kind, f.name) for f in found)


@pytest.mark.parametrize(
    ("ext", "revisions", "expected"),
    [
        # Settled (Progressing=True/Succeeded, R-V1-5) and rolling out: no finding.
        (extension(), [object_set()], []),
        (
            _rolling_extension(),
            [object_set("argocd-1", revision=1), object_set("argocd-2", state="rolling-out")],
            [],
        ),
        # R-V1-26: probes failing before the deadline: a warning on the revision.
        (
            _rolling_extension(),
            [object_set(state="rolling-out", probe=DEPLOYMENT_PROBE_FAILURE)],
            [("ClusterObjectSetProbeFailure", "ClusterObjectSet", "argocd-2")],
        ),
        # R-V1-25: past the deadline: an error on the extension, the probe failure beside it.
        (
            _rolling_extension(progress_deadline_minutes=10),
            [
                object_set("argocd-1", revision=1),
                object_set(state="deadline", probe=DEPLOYMENT_PROBE_FAILURE),
            ],
            [
                ("ClusterExtensionDeadlineExceeded", "ClusterExtension", "argocd"),
                ("ClusterObjectSetProbeFailure", "ClusterObjectSet", "argocd-2"),
            ],
        ),
        # R-V1-27: an object another owner holds.
        (
            _rolling_extension(),
            [object_set(state="collision")],
            [("ClusterObjectSetCollision", "ClusterObjectSet", "argocd-2")],
        ),
        # An archived revision's old probe failure says nothing.
        (
            extension(),
            [
                object_set(
                    "argocd-1",
                    revision=1,
                    lifecycle_state="Archived",
                    state="rolling-out",
                    probe="x",
                )
            ],
            [],
        ),
    ],
)
def test_revision_findings(
    ext: dict[str, Any], revisions: list[dict[str, Any]], expected: list[tuple[str, str, str]]
) -> None:
    store = _stored(ext, *revisions)
    found = revision_findings(store.list("ClusterExtension"), store.list("ClusterObjectSet"))
    assert _codes(found) == expected
    # The from-scratch pass holds them too (one family, R-V1-25..27).
    every = health_findings(store)
    assert set(expected) <= set(_codes(every))


def test_the_deadline_finding_rests_on_the_probe_failures() -> None:
    ext = _rolling_extension(progress_deadline_minutes=10)
    store = _stored(ext, object_set(state="deadline", probe=DEPLOYMENT_PROBE_FAILURE))
    (deadline, probe) = sorted(
        revision_findings(store.list("ClusterExtension"), store.list("ClusterObjectSet")),
        key=lambda f: f.code,
    )
    assert deadline.severity == "error" and "10 minute(s)" in deadline.message
    assert [(e.kind, e.name, e.value) for e in deadline.evidence] == [
        ("ClusterObjectSet", "argocd-2", DEPLOYMENT_PROBE_FAILURE)
    ]
    # R-V1-26: the phase holding the Deployment the probe names.
    assert probe.severity == "warning" and "in phase deploy" in probe.message


def test_a_deadline_on_the_extension_is_not_also_blocked() -> None:
    ext = extension(
        conditions=[
            *healthy_conditions()[:-1],
            condition(
                "Progressing",
                "False",
                "ProgressDeadlineExceeded",
                "Revision has not rolled out for 10 minute(s).",
            ),
        ]
    )
    assert [f.code for f in condition_findings(decode_extension(ext))] == []
    assert _codes(revision_findings([ext], [])) == [
        ("ClusterExtensionDeadlineExceeded", "ClusterExtension", "argocd")
    ]


def test_the_collision_names_its_phase() -> None:
    (found,) = revision_findings([_rolling_extension()], [object_set(state="collision")])
    assert "in phase deploy" in found.message and "collision protection Prevent" in found.message


def test_the_report_lists_revisions_as_the_contract_says() -> None:
    store = _stored(
        _rolling_extension(progress_deadline_minutes=30),
        object_set("argocd-1", revision=1),
        object_set("argocd-2", state="rolling-out", probe=DEPLOYMENT_PROBE_FAILURE),
    )
    report = report_json("snapshot", Model(store), store)
    validate_report(report)
    (entry,) = report["clusterExtensions"]
    assert entry["progressDeadlineMinutes"] == 30
    first, second = entry["revisions"]
    assert {k: first[k] for k in ("name", "revision", "lifecycleState", "phase", "active")} == {
        "name": "argocd-1",
        "revision": 1,
        "lifecycleState": "Active",
        "phase": None,
        "active": True,
    }
    assert (second["phase"], second["conditions"]["Available"]["reason"]) == (
        "deploy",
        "ProbeFailure",
    )


def test_the_text_report_names_each_revision() -> None:
    store = _stored(
        _rolling_extension(),
        object_set("argocd-1", revision=1),
        object_set("argocd-2", state="rolling-out"),
    )
    text = render_text(report_json("snapshot", Model(store), store))
    assert "revisions #1 Active Succeeded, #2 Active RollingOut" in text


def test_the_text_report_says_archived_once() -> None:
    store = _stored(
        extension(),
        object_set("argocd-1", revision=1, lifecycle_state="Archived", state="archived"),
        object_set("argocd-2"),
    )
    text = render_text(report_json("snapshot", Model(store), store))
    assert "revisions #1 Archived, #2 Active Succeeded" in text


def test_a_first_install_past_its_deadline_says_nothing_keeps_running() -> None:
    first = _rolling_extension(installed=None, progress_deadline_minutes=10)
    (deadline, _) = sorted(
        revision_findings([first], [object_set(revision=1, state="deadline", probe="x")]),
        key=lambda f: f.code,
    )
    assert "Nothing is installed yet" in deadline.message
    assert "keeps running" not in deadline.message
