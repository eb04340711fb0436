"""Namespaces stuck Terminating on OLM's objects (R-EVD-6).

Deleting a namespace deletes its objects first; an object carrying a finalizer stays until
the controller that set it removes it. OLM's olm-operator puts
``operators.coreos.com/csv-cleanup`` on every CSV and removes it once it has deleted what
the CSV made outside the namespace (webhook configurations, cluster roles); while olm-operator
is not running, or the CSV's cleanup fails, the CSV and so its namespace stay. The namespace
controller names what is left in the namespace's ``NamespaceFinalizersRemaining`` and
``NamespaceContentRemaining`` conditions.

A finding stands on the namespace (the root) when it is Terminating and the input shows an
OLM object of it carrying a finalizer, or its conditions name OLM's finalizers or kinds; each
such object has its own finding (the consequence, R-DIAG-23). A Terminating namespace whose
input shows nothing of OLM's is not OLM's to explain: no finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from olmtui.kinds import (
    CATALOG_SOURCE,
    CSV,
    INSTALL_PLAN,
    NAMESPACE,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.records.types import Evidence, FieldEvidence, Finding, ObjectRef
from olmtui.objects import Obj, meta, name_of, namespace_of, status

#: OLM's namespaced kinds, whose objects can hold a namespace with a finalizer.
OLM_NAMESPACED_KINDS = (
    CSV,
    SUBSCRIPTION,
    INSTALL_PLAN,
    OPERATOR_GROUP,
    CATALOG_SOURCE,
    OPERATOR_CONDITION,
)
#: The finalizer olm-operator puts on every CSV.
CSV_CLEANUP = "operators.coreos.com/csv-cleanup"
#: The prefixes of finalizers and API groups that are OLM's.
_OLM_MARKS = ("operators.coreos.com", "operatorframework.io")
_CONDITIONS = ("NamespaceFinalizersRemaining", "NamespaceContentRemaining")
NAMESPACE_HELD = "NamespaceHeldByOLM"
FINALIZER_HOLDS = "OLMFinalizerHoldsNamespace"


def terminating(namespace: Obj) -> bool:
    """Whether the namespace is being deleted: phase Terminating with a deletionTimestamp."""
    return status(namespace).get("phase") == "Terminating" and bool(
        meta(namespace).get("deletionTimestamp")
    )


def finalizers_of(obj: Obj) -> list[str]:
    """The object's finalizers (strings only)."""
    found = meta(obj).get("finalizers")
    return [f for f in found if isinstance(f, str)] if isinstance(found, list) else []


def _olm_conditions(namespace: Obj) -> list[Obj]:
    """The namespace's remaining-content conditions that name something of OLM's."""
    return [
        c
        for c in status(namespace).get("conditions") or ()
        if isinstance(c, dict)
        and c.get("type") in _CONDITIONS
        and c.get("status") == "True"
        and any(mark in str(c.get("message") or "") for mark in _OLM_MARKS)
    ]


def _holder_finding(kind: str, obj: Obj, finalizers: list[str]) -> Finding:
    namespace, name = namespace_of(obj), name_of(obj)
    listed = ", ".join(finalizers)
    if CSV_CLEANUP in finalizers:
        advice = (
            f"olm-operator removes {CSV_CLEANUP} once it has cleaned up what the CSV made "
            "outside the namespace: check that olm-operator is running and read its log for "
            "this CSV. Remove the finalizer by hand only if OLM is gone for good."
        )
    else:
        advice = (
            "the controller that set it removes it; check that it runs. Remove the finalizer "
            "by hand only if that controller is gone for good."
        )
    return Finding(
        "warning",
        FINALIZER_HOLDS,
        kind,
        namespace,
        name,
        f"{kind} {name} is being deleted with namespace {namespace} but keeps finalizer(s) "
        f"{listed}, so the namespace stays Terminating: {advice}",
        rule="R-EVD-6",
        related=(ObjectRef(NAMESPACE, "", namespace),),
        evidence=(FieldEvidence(kind, namespace, name, "metadata.finalizers", listed),),
    )


def terminating_namespace_findings(
    namespaces: Iterable[Obj], objects_in: Callable[[str, str], Iterable[Obj]]
) -> list[Finding]:
    """R-EVD-6: per Terminating namespace that OLM's objects hold, one finding on it and one
    on each OLM object in it carrying a finalizer. ``objects_in(kind, namespace)``: the
    objects of one kind in one namespace."""
    held = {name_of(ns): ns for ns in namespaces if terminating(ns)}
    holders: dict[str, list[tuple[str, Obj, list[str]]]] = {}
    for held_name in held:
        for kind in OLM_NAMESPACED_KINDS:
            for obj in objects_in(kind, held_name):
                finalizers = finalizers_of(obj)
                if finalizers:
                    holders.setdefault(held_name, []).append((kind, obj, finalizers))
    found: list[Finding] = []
    for name, namespace in sorted(held.items()):
        conditions = _olm_conditions(namespace)
        mine = holders.get(name, [])
        if not mine and not conditions:
            continue
        evidence: list[Evidence] = [
            FieldEvidence(NAMESPACE, "", name, "status.phase", "Terminating"),
            FieldEvidence(
                NAMESPACE,
                "",
                name,
                "metadata.deletionTimestamp",
                str(meta(namespace).get("deletionTimestamp")),
            ),
        ]
        evidence += [
            FieldEvidence(
                NAMESPACE,
                "",
                name,
                f"status.conditions[{c['type']}].message",
                str(c.get("message") or ""),
            )
            for c in conditions
        ]
        shown = ", ".join(f"{kind} {name_of(obj)}" for kind, obj, _ in mine)
        what = (
            f"OLM's objects in it keep finalizers ({shown})"
            if mine
            else "its conditions name OLM's finalizers or kinds as what remains"
        )
        found.append(
            Finding(
                "warning",
                NAMESPACE_HELD,
                NAMESPACE,
                "",
                name,
                f"Namespace {name} is stuck Terminating (deleted at "
                f"{meta(namespace).get('deletionTimestamp')}): {what}. The namespace goes once "
                "OLM removes them; if OLM's operators are not running it never does.",
                rule="R-EVD-6",
                related=tuple(ObjectRef(kind, name, name_of(obj)) for kind, obj, _ in mine),
                evidence=tuple(evidence),
            )
        )
        found += [_holder_finding(kind, obj, finalizers) for kind, obj, finalizers in mine]
    return found
