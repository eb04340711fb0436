"""Findings about a ClusterExtension's revisions (R-V1-25..R-V1-27): a rollout past its
progress deadline, a revision whose objects fail their probes, and objects another owner
holds.

Two active revisions (``Progressing=True/RollingOut``) are an upgrade in progress and
``Progressing=True/Succeeded`` is done (R-V1-5): neither is a finding. Only
``Progressing=False/ProgressDeadlineExceeded`` says a rollout is stuck; the probe failures of
the revision that has not rolled out are what it rests on, so they are its evidence.
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.kinds import CLUSTER_EXTENSION
from olmtui.model.records.types import FieldEvidence, Finding, ObjectRef
from olmtui.model.rules.v1.extensions import Condition, conditions_by_type, decode_extension
from olmtui.model.rules.v1.revisions import (
    DEADLINE_EXCEEDED,
    ExtensionRevisions,
    Revision,
    progress_deadline_minutes,
    revisions_by_extension,
)
from olmtui.objects import Obj, meta

DEADLINE_CODE = "ClusterExtensionDeadlineExceeded"
PROBE_FAILURE_CODE = "ClusterObjectSetProbeFailure"
COLLISION_CODE = "ClusterObjectSetCollision"
#: A quoted condition message longer than this is cut in a finding's text (the evidence
#: keeps it whole).
_QUOTE_LIMIT = 600


def _quote(message: str) -> str:
    return repr(message if len(message) <= _QUOTE_LIMIT else message[:_QUOTE_LIMIT] + "…")


def _ref(revision: Revision) -> ObjectRef:
    return ObjectRef(revision.kind, "", revision.name)


def _named(revision: Revision) -> str:
    number = f"revision {revision.number} " if revision.number is not None else "revision "
    return f"{number}({revision.kind} {revision.name})"


def _deadline_finding(
    extension: Obj, revisions: ExtensionRevisions, progressing: Condition | None
) -> Finding | None:
    """R-V1-25: the extension's or an active revision's Progressing=False/
    ProgressDeadlineExceeded, with the stuck revisions' probe failures as evidence."""
    name = str(meta(extension).get("name") or "")
    stuck = [r for r in revisions.active if r.deadline_exceeded]
    extension_stuck = (
        progressing is not None
        and progressing.status == "False"
        and progressing.reason == DEADLINE_EXCEEDED
    )
    if not stuck and not extension_stuck:
        return None
    minutes = progress_deadline_minutes(extension)
    if minutes is None:
        minutes = next(
            (r.progress_deadline_minutes for r in stuck if r.progress_deadline_minutes), None
        )
    deadline = f"{minutes} minute(s)" if minutes is not None else "its progress deadline"
    said = stuck[0].conditions["Progressing"].message if stuck else ""
    if not said and progressing is not None:
        said = progressing.message
    who = ", ".join(_named(r) for r in stuck) if stuck else "the new revision"
    evidence = tuple(
        FieldEvidence(r.kind, "", r.name, "status.conditions[Available].message", failure)
        for r in stuck
        if (failure := r.probe_failure) is not None
    )
    failing = "; its objects fail their readiness probes (evidence)" if evidence else ""
    # R-V1-3: only with a bundle installed does an older revision keep running.
    keeps = (
        "The installed revision keeps running; "
        if decode_extension(extension).installed is not None
        else "Nothing is installed yet; "
    )
    message = (
        f"the rollout of {who} has not finished within {deadline}: {_quote(said)}{failing}. "
        f"{keeps}fix what the probes or the Progressing "
        "message name, and the rollout completes on its own once they pass"
    )
    return Finding(
        "error",
        DEADLINE_CODE,
        CLUSTER_EXTENSION,
        "",
        name,
        message,
        "R-V1-25",
        related=tuple(_ref(r) for r in revisions.active),
        evidence=evidence,
    )


def _probe_finding(extension: str, revision: Revision) -> Finding | None:
    """R-V1-26: an active revision whose objects fail their readiness probes."""
    failure = revision.probe_failure
    if failure is None or not revision.active:
        return None
    phase = revision.current_phase
    where = f" in phase {phase}" if phase else ""
    return Finding(
        "warning",
        PROBE_FAILURE_CODE,
        revision.kind,
        "",
        revision.name,
        f"{_named(revision)} of ClusterExtension {extension} waits{where}: objects fail their "
        f"readiness probes: {_quote(failure)}; the next phase is not applied until they pass",
        "R-V1-26",
        related=(ObjectRef(CLUSTER_EXTENSION, "", extension),),
        evidence=(
            FieldEvidence(
                revision.kind, "", revision.name, "status.conditions[Available].message", failure
            ),
        ),
    )


def _collision_finding(extension: str, revision: Revision) -> Finding | None:
    """R-V1-27: objects of an active revision that another owner holds."""
    collision = revision.collision
    if collision is None or not revision.active:
        return None
    phase = revision.current_phase
    where = f" in phase {phase}" if phase else ""
    protection = revision.collision_protection or "Prevent"
    return Finding(
        "error",
        COLLISION_CODE,
        revision.kind,
        "",
        revision.name,
        f"{_named(revision)} of ClusterExtension {extension} cannot take objects{where} that "
        f"another owner holds (collision protection {protection}): {_quote(collision)}; "
        "remove the other owner (or the object, when nothing else needs it): a revision's "
        "collision protection cannot be changed",
        "R-V1-27",
        related=(ObjectRef(CLUSTER_EXTENSION, "", extension),),
        evidence=(
            FieldEvidence(
                revision.kind,
                "",
                revision.name,
                "status.conditions[Progressing].message",
                collision,
            ),
        ),
    )


def revision_findings(extensions: Iterable[Obj], revision_objs: Iterable[Obj]) -> list[Finding]:
    """Every finding about the ClusterExtensions' revisions (R-V1-25..R-V1-27)."""
    extensions = list(extensions)
    by_extension = revisions_by_extension(extensions, revision_objs)
    found: list[Finding] = []
    for extension in extensions:
        name = str(meta(extension).get("name") or "")
        revisions = by_extension[name]
        progressing = conditions_by_type(extension).get("Progressing")
        deadline = _deadline_finding(extension, revisions, progressing)
        if deadline is not None:
            found.append(deadline)
        for revision in revisions.revisions:
            for finding in (_probe_finding(name, revision), _collision_finding(name, revision)):
                if finding is not None:
                    found.append(finding)
    return found
