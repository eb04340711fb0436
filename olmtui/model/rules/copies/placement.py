"""Copied CSVs (R-COPY-*): where OLM keeps a copy of each CSV, and why a copy that
is present but not expected is there (R-COPY-2..7).

A source CSV's copies are decided by one :class:`CopySource`; each present copy is then
judged against it alone, so a change to one copy never needs to look at the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from olmtui.frozen import frozen
from olmtui.model.primitives import nsset
from olmtui.model.records import findings
from olmtui.model.records.types import Finding, ref
from olmtui.model.rules.membership.checks import is_copiable
from olmtui.objects import Obj, spec, status

COPIED_FROM_LABEL = "olm.copiedFrom"
OPERATOR_NAMESPACE_ANNOTATION = "olm.operatorNamespace"


def copies_disabled(olmconfig: Obj | None) -> bool:
    """R-COPY-7: disabled only by the ``cluster`` OLMConfig's
    ``spec.features.disableCopiedCSVs: true``."""
    if not olmconfig:
        return False
    features = spec(olmconfig).get("features") or {}
    return isinstance(features, Mapping) and features.get("disableCopiedCSVs") is True


def copy_source(copy: Obj) -> tuple[str, str]:
    """The ``(namespace, name)`` of the CSV a copy was made from: the namespace named by
    ``olm.operatorNamespace`` (what OLM's garbage collection follows), else ``olm.copiedFrom``."""
    # Read inline, not through objects.meta: this runs for every copy.
    copy_meta = copy.get("metadata") or {}
    namespace = (copy_meta.get("annotations") or {}).get(OPERATOR_NAMESPACE_ANNOTATION)
    if namespace is None:
        namespace = (copy_meta.get("labels") or {}).get(COPIED_FROM_LABEL) or ""
    return namespace, copy_meta.get("name", "")


def has_operator_namespace(copy: Obj) -> bool:
    # Read inline, not through objects.meta: this runs for every copy.
    annotations = (copy.get("metadata") or {}).get("annotations") or {}
    return OPERATOR_NAMESPACE_ANNOTATION in annotations


def expected_copy_namespaces(
    og_namespace: str,
    status: tuple[str, ...] | None,
    namespaces: Iterable[str],
    disabled: bool,
    protected: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """R-COPY-2/3/7 for an eligible source (active member, copiable): every existing
    namespace other than the group's that ``status.namespaces`` contains. A group that targets
    only its own namespace copies nothing; a global group copies only into ``protected``
    namespaces while copies are disabled."""
    targets = frozenset(status or ())
    if status is not None and tuple(status) == (og_namespace,):
        return frozenset()
    if nsset.is_all(targets):
        if disabled:
            return frozenset(n for n in protected if n != og_namespace)
        return frozenset(n for n in namespaces if n != og_namespace)
    return frozenset(n for n in namespaces if n in targets and n != og_namespace)


@frozen
class CopySource:
    """Everything that decides the copies of one source CSV.

    ``expected`` are the namespaces OLM keeps a copy in. ``gc_reason`` is set when OLM's
    garbage collection deletes every copy of this source (R-COPY-6: parent gone or failed
    with a conflict); ``parent_targets`` is the parent's parsed ``olm.targetNamespaces``;
    ``not_copied`` explains why an existing parent expects no copies at all; ``group`` is the
    parent's group reference, for the per-namespace reason (R-COPY-3).
    """

    expected: frozenset[str] = frozenset()
    gc_reason: str | None = None
    parent_targets: nsset.NSSet = nsset.ALL
    not_copied: str | None = None
    group: str | None = None
    #: ``namespace/name`` of the source CSV, for the messages.
    parent: str = ""


def stale_reason(namespace: str, annotated: bool, source: CopySource) -> str | None:
    """Why a copy present in ``namespace`` is not expected there, or ``None`` when it is.

    The reasons never name the copy's own namespace, so the copies of one source group by
    reason.

    OLM deletes the copy for the R-COPY-6 reasons; for the others it either prunes it
    (R-COPY-5 queues it for the R-COPY-6 checks, R-COPY-7) or leaves it behind without
    refreshing it.
    """
    if not annotated:
        return "it has no olm.operatorNamespace annotation, so OLM deletes it (R-COPY-6)"
    if source.gc_reason:
        return source.gc_reason
    if not nsset.contains(source.parent_targets, namespace):
        return (
            f"the olm.targetNamespaces of {source.parent} no longer include its "
            "namespace, so OLM deletes it (R-COPY-6)"
        )
    if namespace in source.expected:
        return None
    if source.not_copied:
        return source.not_copied
    # An active, copiable parent whose targets include the namespace: only a namespace that
    # does not exist (any more) gets no copy (R-COPY-3).
    return (
        f"its namespace is not an existing namespace that OperatorGroup {source.group} "
        "targets, so OLM keeps no copy there (R-COPY-3)"
    )


def olmconfig_condition(disabled: bool, missing: bool, unexpected: bool) -> tuple[str, str, str]:
    """R-COPY-8: the ``DisabledCopiedCSVs`` condition OLM writes on the OLMConfig, as
    ``(status, reason, message)``. ``missing``: some CSV of a global group lacks a copy;
    ``unexpected``: copies of a global group's CSV exist while copies are disabled."""
    if not disabled:
        if missing:
            return (
                "False",
                "CopiedCSVsEnabled",
                "Copied CSVs are enabled and at least one copied CSVs is missing",
            )
        return (
            "False",
            "CopiedCSVsEnabled",
            "Copied CSVs are enabled and present across the cluster",
        )
    if unexpected:
        return (
            "False",
            "CopiedCSVsDisabled",
            "Copied CSVs are disabled and at least one unexpected copied CSV was found for "
            "an operator installed in AllNamespace mode",
        )
    return (
        "True",
        "CopiedCSVsDisabled",
        "Copied CSVs are disabled and no unexpected copied CSVs were found for operators "
        "installed in AllNamespace mode",
    )


def observed_condition(olmconfig: Obj | None) -> tuple[str, str, str] | None:
    """The ``DisabledCopiedCSVs`` condition as the OLMConfig's status shows it."""
    for condition in status(olmconfig or {}).get("conditions") or []:
        if isinstance(condition, Mapping) and condition.get("type") == "DisabledCopiedCSVs":
            return (
                str(condition.get("status") or ""),
                str(condition.get("reason") or ""),
                str(condition.get("message") or ""),
            )
    return None


def parent_gc_reason(parent: str, phase: str | None, reason: str | None) -> str | None:
    """R-COPY-6: why OLM's garbage collection deletes every copy of an existing parent."""
    if phase == "Failed" and reason == "InterOperatorGroupOwnerConflict":
        return (
            f"its parent {parent} is Failed/InterOperatorGroupOwnerConflict, so OLM "
            "deletes it (R-COPY-6)"
        )
    return None


def not_copied_reason(
    parent: str,
    group: str | None,
    namespace: str,
    group_count: int,
    drift: bool,
    after: tuple[str | None, str | None],
    status: tuple[str, ...] | None,
    disabled: bool,
) -> str | None:
    """R-COPY-2/7: why an existing parent in ``namespace`` expects no copies at all, or
    ``None`` when it is copied. ``after`` is its (phase, reason) once the group rules have
    ruled; ``drift`` says its group annotations disagree (R-MEM-8); ``status`` is its group's
    ``status.namespaces``; ``group`` is its OperatorGroup, ``None`` unless its namespace has
    exactly one."""
    if group is None:
        return (
            f"{namespace} has {group_count} OperatorGroups, so {parent} is not copied "
            "(R-COPY-2); OLM leaves this copy as it is"
        )
    after_phase, after_reason = after
    if drift:
        return (
            f"{parent} is not an active member of {group} (R-MEM-8), so OLM "
            "neither copies nor refreshes it"
        )
    if not is_copiable(after_phase, after_reason):
        return (
            f"its parent {parent} is {after_phase or '(no phase)'}/"
            f"{after_reason or ''} and not copiable (R-COPY-2); OLM no longer "
            "refreshes it but does not delete it"
        )
    if status is not None and tuple(status) == (namespace,):
        return (
            f"{group} targets only its own namespace, so OLM neither copies nor prunes (R-COPY-2)"
        )
    if nsset.is_all(frozenset(status or ())) and disabled:
        return (
            "copied CSVs are disabled by OLMConfig cluster, so OLM deletes copies "
            "of AllNamespaces operators (R-COPY-7)"
        )
    return None


def orphaned_source(source: tuple[str, str]) -> CopySource:
    """R-COPY-6: the context of copies whose parent CSV no longer exists."""
    parent = ref(*source)
    return CopySource(
        gc_reason=f"its parent {parent} no longer exists, so OLM deletes it (R-COPY-6)",
        parent=parent,
    )


def copy_findings(
    source: tuple[str, str],
    missing: Iterable[str] | None,
    context: CopySource | None,
    stale: Mapping[str, str] | None,
    parent_exists: bool,
) -> tuple[Finding, ...]:
    """R-COPY-3 (expected copies missing) and R-COPY-4..7 (copies present but not expected,
    grouped by reason) for one source CSV."""
    found: list[Finding] = []
    if missing and context is not None and context.group:
        found.append(
            findings.missing_copies(source[0], source[1], tuple(sorted(missing)), context.group)
        )
    if stale:
        by_reason: dict[str, list[str]] = {}
        for namespace, reason in stale.items():
            by_reason.setdefault(reason, []).append(namespace)
        found.append(findings.stale_copies(ref(*source), by_reason, parent_exists))
    return tuple(found)


def olmconfig_findings(
    olmconfig: Obj | None,
    active_namespaces: int,
    global_sources: int,
    copies_per_global_source: Iterable[int],
) -> tuple[Finding, ...]:
    """R-COPY-7 and R-COPY-8 for the ``cluster`` OLMConfig: ``global_sources`` CSVs belong
    to global groups, with ``copies_per_global_source`` copies each (only counted when the
    OLMConfig shows the condition)."""
    disabled = copies_disabled(olmconfig)
    found: list[Finding] = []
    if disabled:
        found.append(findings.copies_disabled(global_sources))
    observed = observed_condition(olmconfig)
    if observed is not None:
        # R-COPY-8 counts, for every CSV of a global group, its copies against the Active
        # namespaces minus one, whatever the CSV's own state.
        wanted = active_namespaces - 1
        counts = list(copies_per_global_source)
        expected = olmconfig_condition(
            disabled, any(n != wanted for n in counts), any(n > 0 for n in counts)
        )
        if observed != expected:
            found.append(findings.olmconfig_condition_stale(observed, expected))
    return tuple(found)
