"""Two sides compared (R-REC-6..8): the one function ``olmtui diff`` and the dashboard's
mark-and-compare call, over plain data each side's session gives (``pipeline/compare.py``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CLUSTER_EXTENSION_REVISION,
    CLUSTER_OBJECT_SET,
    CSV,
    INSTALL_PLAN,
    NAMESPACE,
    OLM_CONFIG,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.diff.fields import FIELD_LIMIT, facts_of, field_changes, order_of
from olmtui.model.diff.gather import CopySource
from olmtui.model.diff.records import (
    FieldChange,
    NotCompared,
    ObjectChange,
    OperatorChange,
    StateDiff,
)
from olmtui.model.records.types import ObjectRef
from olmtui.objects import Obj

#: The kinds compared object by object (R-REC-6): OLM's state, v0 and v1, and the
#: Namespaces it lives in. Catalog content (PackageManifests), CRDs, platform kinds and
#: evidence (Pods, Jobs, Events, Deployments) are not: what they change shows in the
#: findings.
COMPARED_KINDS = (
    NAMESPACE,
    OPERATOR_GROUP,
    CSV,
    SUBSCRIPTION,
    INSTALL_PLAN,
    CATALOG_SOURCE,
    OPERATOR_CONDITION,
    OLM_CONFIG,
    CLUSTER_EXTENSION,
    CLUSTER_CATALOG,
    CLUSTER_OBJECT_SET,
    CLUSTER_EXTENSION_REVISION,
)
#: The fields a finding is matched by (R-REC-6): its code and its object, never its
#: message, which may carry times.
FINDING_IDENTITY = ("code", "kind", "namespace", "name")
#: The fields of a finding the difference lists.
FINDING_FIELDS = ("severity", "code", "kind", "namespace", "name", "message", "rule")


@dataclass(frozen=True)
class DiffSide:
    """One side as plain data: its OLM objects (copied CSVs left out: they are counted in
    ``copies``, present copies by the CSV they copy), its ``check`` report (findings,
    incidents, groups, CSVs, Subscriptions, ClusterExtensions, copies missing and
    stale), the kinds it could not read (kind -> namespaces, ``None`` for all; with the
    scope as a user says it), the namespaces it read (``None``: all) and those a snapshot
    lacked a Namespace object for and took to exist (``inferred``)."""

    objects: Mapping[ObjectRef, Obj]
    report: Mapping[str, Any]
    copies: Mapping[CopySource, int] = field(default_factory=dict)
    unreadable: Mapping[str, tuple[tuple[str, ...] | None, str]] = field(default_factory=dict)
    read_namespaces: frozenset[str] | None = None
    inferred: frozenset[str] = frozenset()

    def reads(self, ref: ObjectRef) -> bool:
        """Whether this side could see ``ref`` (R-REC-8): its kind readable where it
        lives, its namespace read; a Namespace made up for a snapshot was not seen."""
        namespace = ref.name if ref.kind == NAMESPACE else ref.namespace
        if ref.kind == NAMESPACE and namespace in self.inferred:
            return False
        read = self.read_namespaces
        if namespace and read is not None and namespace not in read:
            return False
        held = self.unreadable.get(ref.kind)
        if held is None:
            return True
        namespaces = held[0]
        return namespaces is not None and namespace not in namespaces


def compare(before: DiffSide, after: DiffSide) -> StateDiff:
    """What changed from ``before`` to ``after``."""
    seen = [ref for ref in {*before.objects, *after.objects} if _both_read(before, after, ref)]
    added = sorted((r for r in seen if r not in before.objects), key=_ref_order)
    removed = sorted((r for r in seen if r not in after.objects), key=_ref_order)
    changes: dict[ObjectRef, list[FieldChange]] = {}
    for ref in seen:
        if ref in before.objects and ref in after.objects:
            found = field_changes(ref.kind, before.objects[ref], after.objects[ref])
            if found:
                changes[ref] = found
    _add_derived(before, after, changes)
    facts: dict[ObjectRef, dict[str, Any]] = {
        **{r: facts_of(r.kind, after.objects[r]) for r in added},
        **{r: facts_of(r.kind, before.objects[r]) for r in removed},
    }
    for ref in facts.keys() & changes.keys():
        # a CSV installed or removed with its copies: they are said with it
        for change in changes.pop(ref):
            facts[ref][change.field] = change.after if ref in added else change.before
    changed = tuple(_object_change(ref, changes[ref]) for ref in sorted(changes, key=_ref_order))
    new_findings, resolved, unchanged = _findings(before, after)
    new_incidents, resolved_incidents = _incidents(before, after)
    return StateDiff(
        added=tuple(added),
        removed=tuple(removed),
        changed=changed,
        operators=_operators(before, after),
        new_findings=new_findings,
        resolved_findings=resolved,
        unchanged_findings=unchanged,
        new_incidents=new_incidents,
        resolved_incidents=resolved_incidents,
        not_compared=_not_compared(before, after),
        facts=facts,
    )


def _ref_order(ref: ObjectRef) -> tuple[str, str, str]:
    return ref.kind, ref.namespace, ref.name


def _both_read(before: DiffSide, after: DiffSide, ref: ObjectRef) -> bool:
    return before.reads(ref) and after.reads(ref)


def _object_change(ref: ObjectRef, found: list[FieldChange]) -> ObjectChange:
    ordered = sorted(found, key=order_of(ref.kind))
    return ObjectChange(ref, tuple(ordered[:FIELD_LIMIT]), max(len(ordered) - FIELD_LIMIT, 0))


def _add_derived(
    before: DiffSide, after: DiffSide, changes: dict[ObjectRef, list[FieldChange]]
) -> None:
    """The fields no object holds (R-REC-6): a group's members (the CSVs of its
    namespace), the bundle a ClusterExtension resolves to now, and the copies of each
    CSV (present, missing, stale), under the group of the CSV's namespace when both
    sides have it, else under the CSV."""
    groups_before, groups_after = _groups(before.report), _groups(after.report)
    for ref in groups_before.keys() & groups_after.keys():
        if not _both_read(before, after, ref):
            continue
        members = (groups_before[ref], groups_after[ref])
        if members[0] != members[1]:
            changes.setdefault(ref, []).append(FieldChange("members", *members))
    resolved_before, resolved_after = _resolved(before.report), _resolved(after.report)
    for ref in resolved_before.keys() & resolved_after.keys():
        picks = (resolved_before[ref], resolved_after[ref])
        if picks[0] != picks[1] and _both_read(before, after, ref):
            changes.setdefault(ref, []).append(FieldChange("resolved", *picks))
    copies_before, copies_after = _copies(before), _copies(after)
    for source in sorted(copies_before.keys() | copies_after.keys()):
        counts = (_count(copies_before.get(source)), _count(copies_after.get(source)))
        if counts[0] == counts[1]:
            continue
        namespace, name = source
        held = _group_in(groups_before, namespace) & _group_in(groups_after, namespace)
        owner = min(held, key=_ref_order) if held else ObjectRef(CSV, namespace, name)
        if _both_read(before, after, ObjectRef(CSV, namespace, name)):
            changes.setdefault(owner, []).append(FieldChange(f"copies of {name}", *counts))


def _groups(report: Mapping[str, Any]) -> dict[ObjectRef, list[str]]:
    """Each OperatorGroup's members as the report says them, sorted."""
    return {
        ObjectRef(OPERATOR_GROUP, g["namespace"], g["name"]): sorted(g.get("members") or ())
        for g in report.get("operatorGroups") or ()
    }


def _resolved(report: Mapping[str, Any]) -> dict[ObjectRef, Any]:
    """What each ClusterExtension resolves to from the catalog content given, as the
    report says it (``null``: none given, or no bundle fits)."""
    return {
        ObjectRef(CLUSTER_EXTENSION, "", e["name"]): e.get("resolved")
        for e in report.get("clusterExtensions") or ()
    }


def _group_in(groups: Mapping[ObjectRef, Any], namespace: str) -> set[ObjectRef]:
    return {ref for ref in groups if ref.namespace == namespace}


def _count(counts: Mapping[str, int] | None) -> dict[str, int]:
    held = counts or {}
    return {part: held.get(part, 0) for part in ("present", "missing", "stale")}


def _copies(side: DiffSide) -> dict[CopySource, dict[str, int]]:
    """Copies per CSV they copy (R-REC-6): present (counted from the objects), missing
    and stale (as the report's ``copiedCSVs`` says them), folded, never one row a copy."""
    folded: dict[CopySource, dict[str, int]] = defaultdict(dict)
    for source, present in side.copies.items():
        folded[source]["present"] = present
    copied = side.report.get("copiedCSVs") or {}
    for missing in copied.get("missing") or ():
        namespace, _, name = str(missing["csv"]).partition("/")
        entry = folded[(namespace, name)]
        entry["missing"] = entry.get("missing", 0) + 1
    for stale in copied.get("stale") or ():
        entry = folded[(stale["copiedFrom"], stale["name"])]
        entry["stale"] = entry.get("stale", 0) + 1
    return folded


def _operators(before: DiffSide, after: DiffSide) -> tuple[OperatorChange, ...]:
    """Installed versions per package and namespace (OLM v0) and per ClusterExtension
    (OLM v1) that moved; when either side could not read the kinds a version comes from,
    nothing is said of them (R-REC-8)."""
    v0 = all(k not in s.unreadable for k in (SUBSCRIPTION, CSV) for s in (before, after))
    v1 = all(CLUSTER_EXTENSION not in s.unreadable for s in (before, after))
    held_before, held_after = _installed(before, v0, v1), _installed(after, v0, v1)
    found = []
    for key in sorted(held_before.keys() | held_after.keys(), key=lambda k: (k[1], k[2], k[0])):
        old = held_before.get(key, (None, None))
        new = held_after.get(key, (None, None))
        if old == new:
            continue
        extension, package, namespace = key
        found.append(
            OperatorChange(package, namespace, old[0], new[0], old[1], new[1], extension or None)
        )
    return tuple(found)


#: ``(ClusterExtension name or "", package, namespace)`` -> ``(version, bundle)``.
Installed = dict[tuple[str, str, str], tuple[str | None, str | None]]


def _installed(side: DiffSide, v0: bool, v1: bool) -> Installed:
    report = side.report
    held: Installed = {}
    if v0:
        versions = {(c["namespace"], c["name"]): c.get("version") for c in report.get("csvs") or ()}
        for sub in sorted(
            report.get("subscriptions") or (), key=lambda s: (s["namespace"], s["name"])
        ):
            installed = sub.get("installedCSV")
            if installed is None:
                continue
            key = ("", str(sub.get("package")), sub["namespace"])
            held.setdefault(key, (versions.get((sub["namespace"], installed)), installed))
    if v1:
        for ext in report.get("clusterExtensions") or ():
            bundle = ext.get("installed") or {}
            if bundle.get("bundle") is None:
                continue
            key = (ext["name"], str(ext.get("package")), str(ext.get("namespace") or ""))
            held[key] = (bundle.get("version"), bundle.get("bundle"))
    return held


def _identity(entry: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(str(entry.get(part) or "") for part in FINDING_IDENTITY)


def _findings(
    before: DiffSide, after: DiffSide
) -> tuple[tuple[Mapping[str, Any], ...], tuple[Mapping[str, Any], ...], int]:
    """New and resolved findings, matched by :data:`FINDING_IDENTITY`; a finding about an
    object one side could not see is neither (R-REC-8)."""
    old = _keyed(before, after, before.report.get("findings") or ())
    new = _keyed(before, after, after.report.get("findings") or ())
    appeared = tuple(_brief(new[k]) for k in new if k not in old)
    gone = tuple(_brief(old[k]) for k in old if k not in new)
    return appeared, gone, sum(1 for k in new if k in old)


def _keyed(
    before: DiffSide, after: DiffSide, findings: Iterable[Mapping[str, Any]]
) -> dict[tuple[str, ...], Mapping[str, Any]]:
    held: dict[tuple[str, ...], Mapping[str, Any]] = {}
    for finding in findings:
        kind, namespace, name = (str(finding.get(p) or "") for p in ("kind", "namespace", "name"))
        if kind and not _both_read(before, after, ObjectRef(kind, namespace, name)):
            continue
        held.setdefault(_identity(finding), finding)
    return held


def _brief(finding: Mapping[str, Any]) -> dict[str, Any]:
    return {part: finding.get(part) for part in FINDING_FIELDS}


def _incidents(
    before: DiffSide, after: DiffSide
) -> tuple[tuple[Mapping[str, Any], ...], tuple[Mapping[str, Any], ...]]:
    """Incidents new and resolved, matched by their root finding's identity."""
    old = {_identity(i.get("root") or {}): i for i in before.report.get("incidents") or ()}
    new = {_identity(i.get("root") or {}): i for i in after.report.get("incidents") or ()}
    return (
        tuple(new[k] for k in new if k not in old),
        tuple(old[k] for k in old if k not in new),
    )


def _not_compared(before: DiffSide, after: DiffSide) -> tuple[NotCompared, ...]:
    return tuple(
        NotCompared(kind, label, scope)
        for label, side in (("from", before), ("to", after))
        for kind, (_, scope) in sorted(side.unreadable.items())
    )
