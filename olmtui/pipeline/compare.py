"""Two sessions compared (R-REC-6..8): each session's OLM objects and its ``check`` report
gathered as plain data (``model/diff``'s :class:`DiffSide`), then compared. ``olmtui diff``
calls :func:`compare_sessions`; so can the dashboard, with a marked session and the one
shown."""

from __future__ import annotations

from collections import Counter
from typing import Any

from olmtui.kinds import CSV
from olmtui.model.diff.compare import COMPARED_KINDS, CopySource, DiffSide, compare
from olmtui.model.diff.records import StateDiff
from olmtui.model.records.types import ObjectRef
from olmtui.objects import COPIED_FROM_LABEL, OPERATOR_NAMESPACE_ANNOTATION, Obj, is_copied_csv
from olmtui.pipeline.session import Session


def diff_side(session: Session) -> DiffSide:
    """What of ``session`` a comparison reads: its objects of the compared kinds (copies
    counted per CSV they copy), its report as ``check`` builds it (remedies not tried) and
    what it could not read."""
    store = session.store
    objects: dict[ObjectRef, Obj] = {}
    copies: Counter[CopySource] = Counter()
    for kind in COMPARED_KINDS:
        for key, obj in store.items(kind):
            if kind == CSV and is_copied_csv(obj):
                copies[(_copied_from(obj), key.name)] += 1
            else:
                objects[ObjectRef(key.kind, key.namespace, key.name)] = obj
    unreadable = {
        kind: (held.namespaces, held.scope) for kind, held in store.unreadable.items()
    }
    report: dict[str, Any] = dict(session.analysis.report())
    return DiffSide(objects, report, dict(copies), unreadable, store.read_namespaces)


def _copied_from(copy: Obj) -> str:
    """The namespace of the CSV a copy copies (its ``olm.copiedFrom`` label, else its
    operator namespace annotation)."""
    metadata = copy.get("metadata") or {}
    label = (metadata.get("labels") or {}).get(COPIED_FROM_LABEL)
    if label:
        return str(label)
    return str((metadata.get("annotations") or {}).get(OPERATOR_NAMESPACE_ANNOTATION, ""))


def compare_sessions(before: Session, after: Session) -> tuple[StateDiff, DiffSide, DiffSide]:
    """What changed from ``before`` to ``after``, with both sides as compared (their
    reports' ``source`` say what each was)."""
    old, new = diff_side(before), diff_side(after)
    return compare(old, new), old, new
