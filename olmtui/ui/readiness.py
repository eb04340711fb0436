"""``OLM v1 readiness (heuristic)`` in the detail of an installed (non-copied) v0 CSV: the
checklist of ``model.v1.eligibility`` (R-V1-23) as ``Analysis.v1_readiness`` fills it, then
the migration tool's verdict on the Subscription that installed it (R-MIG-12: its state and
the rules C1..C10 it does not pass; ``:migration`` has them all). Information only, never a
finding."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from olmtui.model.rules.v1.eligibility import Point
from olmtui.pipeline.session import Session
from olmtui.ui import palette
from olmtui.ui.formatting import section
from olmtui.ui.screens.migration import rule_line

Obj = dict[str, Any]
_VERDICT = {
    "blocks": ("✖ blocks", palette.ERROR),
    "needs": ("▲ needs", palette.WARNING),
    "ok": ("✓ ok", palette.OK),
}


def readiness(session: Session, csv: Obj | None) -> list[RenderableType]:
    """The section for a CSV object (nothing for a copy or a missing object)."""
    result = session.analysis.v1_readiness(csv)
    if result is None:
        return []
    head = Text(
        "no point blocks a move to OLM v1 for this version"
        if result.movable
        else "OLM v1 would refuse this version as it is",
        style=palette.MUTED,
    )
    head.append(" (R-V1-23; a best-effort checklist, not a verdict)", style=palette.MUTED)
    points = [section("OLM v1 readiness (heuristic)"), head, *map(_point, result.points)]
    return [*points, *_migration(session, csv)]


def _migration(session: Session, csv: Obj | None) -> list[RenderableType]:
    """The migration tool's state of the operator (R-MIG-12) and the rules it does not pass."""
    row = session.analysis.migration_of_csv(csv)
    if row is None:
        return []
    head = Text("  migration tool (R-MIG-12): ", style=palette.MUTED)
    head.append(row.state, style=palette.OK if row.state == "Eligible" else palette.WARNING)
    head.append(f": {row.reason} (:migration shows every rule and the ClusterExtension)")
    return [head, *(rule_line(r) for r in row.failing)]


def _point(point: Point) -> Text:
    word, style = _VERDICT[point.verdict]
    out = Text("  ")
    out.append(word, style=style)
    out.append(f": {point.text}")
    return out
