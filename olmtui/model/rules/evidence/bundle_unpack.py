"""A failed bundle unpack and what is left of it (R-EVD-3).

OLM unpacks a bundle with a Job in the catalog's namespace (label
``operatorframework.io/bundle-unpack-ref``); when it fails, the Subscription's
``BundleUnpackFailed`` condition says why and a Warning Event of that reason is recorded on
the Subscription. Since operator-lifecycle-manager#3832 the Job deletes itself 300 s after it
finishes, so a must-gather taken later holds no Job: that is by design, not a missing object,
and the condition and the Event are the evidence. Older OLMs keep the failed Job, whose
``Failed`` condition says why; it is a finding of its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.kinds import JOB, SUBSCRIPTION
from olmtui.model.records.types import Evidence, FieldEvidence, Finding
from olmtui.model.rules.evidence.catalog_pods import (
    EventsOf,
    event_evidence,
    newest_first,
    no_events,
)
from olmtui.objects import Obj, meta, name_of, namespace_of, spec, status

#: The label OLM puts on a bundle unpack Job.
UNPACK_LABEL = "operatorframework.io/bundle-unpack-ref"
_FAILED = "BundleUnpackFailed"


def _condition(obj: Obj, kind: str) -> Obj | None:
    for condition in status(obj).get("conditions") or ():
        if condition.get("type") == kind and condition.get("status") == "True":
            return condition  # type: ignore[no-any-return]
    return None


def unpack_failed(subscription: Obj) -> bool:
    """Whether the Subscription's ``BundleUnpackFailed`` condition is True."""
    return _condition(subscription, _FAILED) is not None


def failed_unpack_jobs(jobs: Iterable[Obj]) -> list[Obj]:
    """The unpack Jobs (their label) whose ``Failed`` condition is True."""
    return [
        j
        for j in jobs
        if (meta(j).get("labels") or {}).get(UNPACK_LABEL) and _condition(j, "Failed")
    ]


def unpack_jobs(jobs: Iterable[Obj]) -> list[Obj]:
    """Every unpack Job (its label)."""
    return [j for j in jobs if (meta(j).get("labels") or {}).get(UNPACK_LABEL)]


def unpack_findings(
    subscriptions: Iterable[Obj], jobs: Iterable[Obj], events: EventsOf = no_events
) -> list[Finding]:
    """R-EVD-3: per failed unpack, where its evidence is: the failed Job an older OLM keeps
    (a finding on the Job), or the condition and Events when the Job is gone by design."""
    all_jobs = unpack_jobs(jobs)
    findings: list[Finding] = []
    for job in failed_unpack_jobs(all_jobs):
        failed = _condition(job, "Failed") or {}
        why = failed.get("message") or failed.get("reason") or "no message"
        findings.append(
            Finding(
                "error",
                "BundleUnpackJobFailed",
                JOB,
                namespace_of(job),
                name_of(job),
                f"Bundle unpack Job {name_of(job)} failed: {why}. OLM keeps a failed unpack Job "
                "until it is deleted (before operator-lifecycle-manager#3832); deleting it "
                "lets OLM unpack the bundle again.",
                rule="R-EVD-3",
                evidence=(
                    FieldEvidence(
                        JOB,
                        namespace_of(job),
                        name_of(job),
                        "status.conditions[Failed].message",
                        why,
                    ),
                ),
            )
        )
    for sub in subscriptions:
        condition = _condition(sub, _FAILED)
        if condition is None:
            continue
        namespace, name = namespace_of(sub), name_of(sub)
        source_namespace = spec(sub).get("sourceNamespace") or namespace
        if any(namespace_of(j) == source_namespace for j in all_jobs):
            continue  # the Job is in the input: its own finding (if failed) says why
        warnings = [
            e
            for e in newest_first(events(SUBSCRIPTION, namespace, name))
            if e.get("reason") == _FAILED
        ]
        evidence: list[Evidence] = [
            FieldEvidence(
                SUBSCRIPTION,
                namespace,
                name,
                "status.conditions[BundleUnpackFailed].message",
                condition.get("message") or "",
            )
        ]
        evidence += map(event_evidence, warnings)
        seen = f" and {len(warnings)} Warning Event(s) of that reason" if warnings else ""
        findings.append(
            Finding(
                "info",
                "BundleUnpackJobGone",
                SUBSCRIPTION,
                namespace,
                name,
                f"Subscription {name}'s unpack Job is not in the input: since "
                "operator-lifecycle-manager#3832 an unpack Job deletes itself 300 s after it "
                f"finishes, so it is gone by design, not missing. The condition{seen} say why; "
                "OLM retries the unpack in about five minutes.",
                rule="R-EVD-3",
                evidence=tuple(evidence),
            )
        )
    return findings
