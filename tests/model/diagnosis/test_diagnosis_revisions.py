"""R-DIAG-28, R-DIAG-29: a ClusterExtension's stuck rollout and its revisions' findings are one
incident: the deadline owns the probe failures, a collision causes the stuck or retrying
rollout. States built from operator-controller's own texts (``tests/v1_objects.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulation_support import session_of
from v1_objects import DEPLOYMENT_PROBE_FAILURE, condition, extension, object_set

from olmtui.model.records.diagnosis import Incident

Obj = dict[str, Any]
CE = ("ClusterExtension", "", "argocd")


def _incidents(tmp_path: Path, objects: list[Obj]) -> list[Incident]:
    """The incidents that are not info (no catalog content: the resolution is unknown)."""
    found = session_of(objects, tmp_path).analysis.diagnosis().incidents()
    return [i for i in found if i.severity != "info"]


def _stuck(message: str = "Revision has not rolled out for 10 minute(s).") -> Obj:
    return extension(
        progress_deadline_minutes=10,
        conditions=[
            condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
            condition("Progressing", "False", "ProgressDeadlineExceeded", message),
        ],
    )


def test_the_deadline_is_the_root_of_its_revisions_probe_failures(tmp_path: Path) -> None:
    objects = [
        _stuck(),
        object_set("argocd-1", revision=1),
        object_set(state="deadline", probe=DEPLOYMENT_PROBE_FAILURE),
    ]
    (incident,) = _incidents(tmp_path, objects)
    assert incident.root == ("ClusterExtensionDeadlineExceeded", *CE)
    assert incident.consequences == (
        ("ClusterObjectSetProbeFailure", "ClusterObjectSet", "", "argocd-2"),
    )


def test_a_collision_is_the_root_of_the_retrying_extension(tmp_path: Path) -> None:
    collision = object_set(state="collision")
    message = collision["status"]["conditions"][0]["message"]
    retrying = extension(
        conditions=[
            condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
            condition("Progressing", "True", "Retrying", message),
        ]
    )
    (incident,) = _incidents(tmp_path, [retrying, collision])
    assert incident.root == ("ClusterObjectSetCollision", "ClusterObjectSet", "", "argocd-2")
    assert ("ClusterExtensionRetrying", *CE) in incident.consequences


def test_a_collision_past_the_deadline_is_the_root_of_the_deadline(tmp_path: Path) -> None:
    collision = object_set(state="collision")
    said = collision["status"]["conditions"][0]["message"]
    last = f"Revision has not rolled out for 10 minute(s). Last status: {said}"
    collision["status"]["conditions"] = [
        condition("Progressing", "False", "ProgressDeadlineExceeded", last)
    ]
    (incident,) = _incidents(tmp_path, [_stuck(last), collision])
    assert incident.root == ("ClusterObjectSetCollision", "ClusterObjectSet", "", "argocd-2")
    assert incident.consequences == (("ClusterExtensionDeadlineExceeded", *CE),)


def test_an_upgrade_rolling_out_is_no_incident(tmp_path: Path) -> None:
    rolling = extension(
        conditions=[
            condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
            condition("Progressing", "True", "RollingOut", "Revision 2 is rolling out."),
        ]
    )
    objects = [rolling, object_set("argocd-1", revision=1), object_set(state="rolling-out")]
    assert _incidents(tmp_path, objects) == []
