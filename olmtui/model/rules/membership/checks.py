"""CSV membership in its namespace's OperatorGroup (R-MEM-0..8) and the
recoveries OLM makes once the group rules pass again (R-CSV-F 1-4).

``group_checks`` walks OLM's checks in OLM's order and stops at the first that decides; the
API step (R-MEM-7) lives in ``apis`` and is wired by the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from olmtui.frozen import frozen
from olmtui.model.records import findings
from olmtui.model.records.types import Finding, Verdict
from olmtui.model.rules.installmodes.supported_modes import install_mode_set, install_mode_verdict
from olmtui.model.rules.operatorgroups.targets import (
    FAIL_FORWARD,
    build_target_namespaces,
    status_namespaces,
    upgrade_strategy,
)
from olmtui.objects import Obj, annotations_of, meta, spec, status

OPERATOR_GROUP_ANNOTATION = "olm.operatorGroup"
OPERATOR_NAMESPACE_ANNOTATION = "olm.operatorNamespace"
TARGETS_ANNOTATION = "olm.targetNamespaces"

NO_RETRY = "InstallComponentFailedNoRetry"
#: R-CSV-F 2: group reasons a Failed CSV recovers from once the group rules pass.
RECOVERABLE_GROUP_REASONS = frozenset(
    {"NoTargetNamespaces", "NoOperatorGroup", "TooManyOperatorGroups", "UnsupportedOperatorGroup"}
)
#: R-COPY-2: a CSV with one of these reasons (or phase ``""``) is never copied.
UNCOPIABLE_REASONS = frozenset(
    {
        "Copied",
        "InvalidInstallModes",
        "NoTargetNamespaces",
        "UnsupportedOperatorGroup",
        "NoOperatorGroup",
        "TooManyOperatorGroups",
        "InterOperatorGroupOwnerConflict",
        "CannotModifyStaticOperatorGroupProvidedAPIs",
    }
)

NO_GROUP = Verdict(
    "Failed", "NoOperatorGroup", "csv in namespace with no operatorgroups", "R-MEM-1"
)
TOO_MANY = Verdict(
    "Failed",
    "TooManyOperatorGroups",
    "csv created in namespace with multiple operatorgroups, can't pick one automatically",
    "R-MEM-2",
)
NOTHING_SELECTED = Verdict(
    "Failed",
    "NoTargetNamespaces",
    "no targetNamespaces are matched operatorgroups namespace selection",
    "R-MEM-3",
)
NO_TARGETS_ANNOTATION = Verdict(
    "Failed", "NoTargetNamespaces", "csv missing olm.targetNamespaces annotation", "R-MEM-5"
)


def status_of(csv: Obj) -> tuple[str | None, str | None, str | None]:
    csv_status = status(csv)
    return csv_status.get("phase"), csv_status.get("reason"), csv_status.get("message")


@frozen
class GroupCheck:
    """Outcome of R-MEM-0..6 for one CSV.

    ``proceed`` says the API step (R-MEM-7) runs next. ``verdict`` is the failure a check
    wrote. ``annotation_drift`` holds ``(key, expected, actual)`` triples when OLM will
    rewrite the CSV's group annotations first (R-MEM-3). ``skipped`` names the R-MEM-0
    pre-check that makes OLM ignore the CSV.
    """

    proceed: bool
    verdict: Verdict | None = None
    group: Obj | None = None
    annotation_drift: tuple[tuple[str, str, str | None], ...] = ()
    skipped: str | None = None


def expected_annotations(og: Obj) -> dict[str, str | None]:
    """R-MEM-3: the three annotations an agreeing member carries (targets only once the
    group's ``status.namespaces`` exists)."""
    og_meta = meta(og)
    status = status_namespaces(og)
    return {
        OPERATOR_NAMESPACE_ANNOTATION: og_meta.get("namespace", ""),
        OPERATOR_GROUP_ANNOTATION: og_meta.get("name", ""),
        TARGETS_ANNOTATION: None if status is None else build_target_namespaces(status),
    }


def annotation_drift(csv: Obj, og: Obj) -> tuple[tuple[str, str, str | None], ...]:
    """R-MEM-3: the annotations that disagree, as ``(key, expected, actual)``.

    A group without ``status.namespaces`` expects ``""`` as its target string (R-OG-3).
    """
    have = annotations_of(csv)
    want = expected_annotations(og)
    drift: list[tuple[str, str, str | None]] = []
    for key in (OPERATOR_NAMESPACE_ANNOTATION, OPERATOR_GROUP_ANNOTATION, TARGETS_ANNOTATION):
        expected = want[key] or ""
        if have.get(key) != expected:
            drift.append((key, expected, have.get(key)))
    return tuple(drift)


def is_active_member(csv: Obj, og: Obj) -> bool:
    """R-MEM-8: only active members get copies and target-namespace RBAC."""
    return not annotation_drift(csv, og)


def group_checks(
    csv: Obj,
    groups: Sequence[Obj],
    spec_targets: tuple[str, ...] | None,
    malformed_crds: Sequence[str] = (),
) -> GroupCheck:
    """R-MEM-0 to R-MEM-6 for a non-copied CSV.

    ``groups`` are the OperatorGroups of the CSV's namespace; ``spec_targets`` is what the
    single group selects from its spec now (R-OG-1), which OLM consults only when it has to
    rewrite the CSV's annotations.
    """
    _, reason, _ = status_of(csv)
    if reason == NO_RETRY:
        return GroupCheck(False, skipped="R-MEM-0")
    if malformed_crds:
        return GroupCheck(False, skipped="R-API-1")
    if not groups:
        return GroupCheck(False, NO_GROUP)
    if len(groups) > 1:
        return GroupCheck(False, TOO_MANY)
    og = groups[0]
    drift = annotation_drift(csv, og)
    if drift:
        if not spec_targets:
            return GroupCheck(False, NOTHING_SELECTED, og, drift)
        return GroupCheck(False, None, og, drift)
    modes = install_mode_set(spec(csv).get("installModes"))
    if modes.duplicates:
        return GroupCheck(
            False, Verdict("Failed", "InvalidInstallModes", modes.duplicates, "R-MEM-4"), og
        )
    have = annotations_of(csv)
    if TARGETS_ANNOTATION not in have:
        return GroupCheck(False, NO_TARGETS_ANNOTATION, og)
    targets = have[TARGETS_ANNOTATION].split(",")
    csv_namespace = meta(csv).get("namespace", "")
    message = install_mode_verdict(modes.supported, targets, csv_namespace)
    if message is not None:
        return GroupCheck(
            False, Verdict("Failed", "UnsupportedOperatorGroup", message, "R-MEM-6"), og
        )
    return GroupCheck(True, None, og)


def recovery_verdict(csv: Obj, og: Obj, replaced_by: str | None) -> Verdict | None:
    """R-CSV-F 1-4: what a Failed CSV becomes once the group rules pass; ``None`` when it is
    not Failed for a group reason. ``replaced_by`` is the CSV whose ``spec.replaces`` names
    this one, if any (fail-forward)."""
    phase, reason, _ = status_of(csv)
    if phase != "Failed":
        return None
    if reason not in RECOVERABLE_GROUP_REASONS and reason not in (
        "InterOperatorGroupOwnerConflict",
        "CannotModifyStaticOperatorGroupProvidedAPIs",
    ):
        return None
    if upgrade_strategy(og) == FAIL_FORWARD and replaced_by:
        return Verdict(
            "Replacing",
            "BeingReplaced",
            f"Fail Forward is enabled, allowing Failed csv to be replaced by csv: {replaced_by}",
            "R-CSV-F",
        )
    if reason in RECOVERABLE_GROUP_REASONS:
        message = "InstallModes now support target namespaces"
    elif reason == "InterOperatorGroupOwnerConflict":
        message = "OperatorGroup no longer intersecting with conflicting owner"
    else:
        message = "static OperatorGroup and intersecting groups now support providedAPIs"
    return Verdict("Pending", "RequirementsUnknown", message, "R-CSV-F")


OWNER_CONFLICT = Verdict("Failed", "OwnerConflict", "conflicting CRD owner in namespace", "R-CSV-O")


def is_copiable(phase: str | None, reason: str | None) -> bool:
    """R-COPY-2: phase set and reason not in the uncopiable list."""
    return bool(phase) and reason not in UNCOPIABLE_REASONS


def blocked_findings(
    namespace: str,
    name: str,
    check: GroupCheck,
    group_ref: str | None,
    platform: bool = False,
    supported: frozenset[str] | None = None,
) -> list[Finding]:
    """The verdict of a CSV the group rules stop (R-MEM-1..6), and why; ``supported`` (its
    install modes) makes the advice name the group shapes that fit (R-IM-1)."""
    if check.verdict is None:
        return []
    detail = ""
    if check.annotation_drift and check.verdict.reason == "NoTargetNamespaces":
        # R-MEM-3: the group selects nothing, so its status.namespaces stays absent and OLM
        # never writes the targets annotation that would let the CSV in.
        detail = (
            " OLM writes no olm.targetNamespaces on it while the group's "
            "status.namespaces is absent, so this lasts until the group selects "
            "a namespace."
        )
    return [
        findings.verdict_finding(
            namespace,
            name,
            check.verdict,
            group_ref,
            detail,
            platform=platform,
            supported=supported,
        )
    ]


def recovery(
    namespace: str,
    name: str,
    csv: Obj,
    og: Obj,
    group_ref: str,
    successor: str | None,
    owners: Sequence[tuple[str, Sequence[str]]],
) -> tuple[Verdict | None, list[Finding]]:
    """Once the group and API rules let a CSV proceed: its fail-forward or recovery verdict
    (R-CSV-F) and the CRD owner conflicts in its namespace (R-CSV-O). ``owners`` are
    :func:`olmtui.model.rules.apis.reconcile.crd_owner_conflicts`'s."""
    phase, reason, _ = status_of(csv)
    verdict = recovery_verdict(csv, og, successor)
    found: list[Finding] = []
    if verdict is None and owners and phase == "Pending":
        verdict = OWNER_CONFLICT
        found.append(findings.owner_conflict(namespace, name, owners, False))
    elif owners and phase == "Failed" and reason == "OwnerConflict":
        found.append(findings.owner_conflict(namespace, name, owners, True))
    if verdict is not None and verdict is not OWNER_CONFLICT:
        found.append(findings.verdict_finding(namespace, name, verdict, group_ref))
    return verdict, found


def member_findings(
    namespace: str,
    name: str,
    check: GroupCheck,
    malformed_crds: Sequence[str],
    group_ref: str | None,
    og: Obj | None,
    spec_targets: tuple[str, ...],
) -> list[Finding]:
    """What the group rules skipped (R-MEM-0, R-API-1) and the group annotations OLM is about
    to rewrite (R-MEM-3)."""
    found: list[Finding] = []
    if check.skipped == "R-MEM-0":
        found.append(findings.no_retry(namespace, name))
    elif check.skipped == "R-API-1":
        found.append(findings.malformed_crds(namespace, name, malformed_crds))
    if check.annotation_drift and group_ref and og is not None and check.verdict is None:
        found.append(
            findings.annotation_drift(
                namespace,
                name,
                group_ref,
                check.annotation_drift,
                status_namespaces(og),
                spec_targets,
            )
        )
    return found
