"""Two sessions compared (R-REC-6..8): each session's OLM objects and its ``check`` report
gathered as plain data (``model/diff``'s :class:`DiffSide`), then compared. ``olmtui diff``
calls :func:`compare_sessions`; so can the dashboard, with a marked session and the one
shown."""

from __future__ import annotations

from typing import Any

from olmtui.model.diff.compare import COMPARED_KINDS, DiffSide, compare
from olmtui.model.diff.gather import gather
from olmtui.model.diff.records import StateDiff
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.session import Session


def diff_side(session: Session) -> DiffSide:
    """What of ``session`` a comparison reads: its objects of the compared kinds (copies
    counted per CSV they copy), its report as ``check`` builds it (remedies not tried) and
    what it could not read."""
    store = session.store
    held = gather(
        (ObjectRef(key.kind, key.namespace, key.name), obj)
        for kind in COMPARED_KINDS
        for key, obj in store.items(kind)
    )
    unreadable = {kind: (u.namespaces, u.scope) for kind, u in store.unreadable.items()}
    report: dict[str, Any] = dict(session.analysis.report())
    return DiffSide(
        held.objects,
        report,
        dict(held.copies),
        unreadable,
        store.read_namespaces,
        frozenset(held.inferred),
    )


def compare_sessions(before: Session, after: Session) -> tuple[StateDiff, DiffSide, DiffSide]:
    """What changed from ``before`` to ``after``, with both sides as compared (their
    reports' ``source`` say what each was)."""
    old, new = diff_side(before), diff_side(after)
    return compare(old, new), old, new
