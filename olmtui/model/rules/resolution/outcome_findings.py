"""Findings from what the resolver predicts for each namespace (``resolution[]``).

The resolver (``olmtui.model.rules.resolution``) says what OLM's next sync of a namespace would
decide; these findings put the outcomes worth acting on beside the others, so that the text,
Markdown and JSON reports and ``check``'s exit status agree. They are predictions from the
objects and catalog content given, and say so. Where OLM has already written the same outcome
on a Subscription of the namespace (its ``ResolutionFailed`` condition, read by R-SUB-7) or
the namespace is known to resolve nothing (R-SUB-9), that finding already speaks and no
prediction is added: the Resolution section of the report still shows the whole outcome.
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.kinds import CSV, NAMESPACE, SUBSCRIPTION
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.resolution.result import ExplainedConstraint, NamespaceResolution

#: The kinds an explanation's objects name that are Kubernetes objects (the rest are
#: catalog bundles, ``bundle X (catalog ns/name)``).
OBJECT_KINDS = (SUBSCRIPTION, CSV)
#: Findings on a Subscription that already say its namespace resolves nothing: OLM's own
#: condition (R-SUB-7; ``ResolutionFailed`` when OLM wrote no reason) and R-SUB-9.
ALREADY_SAID = frozenset(
    {
        "ConstraintsNotSatisfiable",
        "ErrorPreventedResolution",
        "ResolutionFailed",
        "SubscriptionStalled",
    }
)


def explanation_objects(explanation: Iterable[ExplainedConstraint]) -> tuple[ObjectRef, ...]:
    """The Subscriptions and CSVs an explanation names (``Subscription ns/S``,
    ``ClusterServiceVersion ns/X``), once each, in the order they first appear."""
    found: dict[ObjectRef, None] = {}
    for constraint in explanation:
        for text in constraint.objects:
            kind, _, ref = text.partition(" ")
            namespace, slash, name = ref.partition("/")
            if kind in OBJECT_KINDS and slash and namespace and name:
                found.setdefault(ObjectRef(kind, namespace, name), None)
    return tuple(found)


def _already_said(findings: Iterable[Finding]) -> set[str]:
    """Namespaces where a Subscription's finding already says that resolution fails."""
    return {
        f.namespace
        for f in findings
        if f.kind == SUBSCRIPTION and f.code in ALREADY_SAID and f.severity == "error"
    }


def _would_fail(resolution: NamespaceResolution) -> Finding:
    # R-RES-18: no choice of operators keeps every constraint; OLM writes
    # ResolutionFailed / ConstraintsNotSatisfiable on every Subscription of the namespace.
    ns = resolution.namespace
    explanation = resolution.explanation
    cause = ""
    if explanation:
        first = explanation[0]
        which = (
            "The cause"
            if len(explanation) == 1
            else f"The cause, first of {len(explanation)} constraints that cannot all hold"
        )
        cause = f" {which}: {first.constraint}." + (f" Fix: {first.fix}." if first.fix else "")
    return Finding(
        "warning",
        "ResolutionWouldFail",
        NAMESPACE,
        "",
        ns,
        f"From the objects and catalog content given, OLM's next resolution of namespace {ns} "
        "cannot succeed: no set of operators satisfies every constraint, so OLM would set "
        "ResolutionFailed (ConstraintsNotSatisfiable) on every Subscription there and install "
        f"or upgrade nothing in it.{cause} `olmtui explain {ns}` shows the whole explanation.",
        "R-RES-18",
        explanation_objects(explanation),
    )


def _would_stop(resolution: NamespaceResolution) -> Finding:
    # R-RES-19: an error before or instead of solving (ErrorPreventedResolution).
    ns = resolution.namespace
    error = (resolution.reason or "no message").rstrip(".")
    return Finding(
        "warning",
        "ResolutionWouldStop",
        NAMESPACE,
        "",
        ns,
        f"From the objects and catalog content given, OLM's next resolution of namespace {ns} "
        f"stops with an error before it can decide: {error}. OLM would set ResolutionFailed "
        "(ErrorPreventedResolution) on every Subscription there and install or upgrade nothing "
        "in it until the error is fixed.",
        "R-RES-19",
    )


def _not_evaluated(resolution: NamespaceResolution) -> Finding:
    # R-RES-22: olmtui lacks an input the resolver needs; unknown is not a failure.
    ns = resolution.namespace
    return Finding(
        "info",
        "ResolutionNotEvaluated",
        NAMESPACE,
        "",
        ns,
        f"olmtui cannot predict OLM's next resolution of namespace {ns}: "
        f"{(resolution.reason or 'an input is missing').rstrip('.')}. This says nothing about "
        "whether OLM succeeds there.",
        "R-RES-22",
    )


def resolution_outcome_findings(
    resolutions: Iterable[NamespaceResolution],
    *,
    catalog_content: bool,
    known: Iterable[Finding] = (),
) -> list[Finding]:
    """A warning per namespace whose next resolution would fail (R-RES-18) or stop (R-RES-19),
    unless a finding in ``known`` (the others of the same report) already says so for one
    of its Subscriptions; an info per namespace the resolver could not evaluate (R-RES-22),
    only when ``catalog_content`` was given (without it, resolution was not asked for).
    A namespace that resolves adds nothing: the report's Resolution section lists its
    changes."""
    said = _already_said(known)
    found: list[Finding] = []
    for resolution in resolutions:
        if resolution.status == "unsatisfiable" and resolution.namespace not in said:
            found.append(_would_fail(resolution))
        elif resolution.status == "failed" and resolution.namespace not in said:
            found.append(_would_stop(resolution))
        elif resolution.status == "not-evaluated" and catalog_content:
            found.append(_not_evaluated(resolution))
    return found
