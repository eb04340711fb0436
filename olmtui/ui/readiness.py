"""``OLM v1 readiness (heuristic)`` in the detail of an installed (non-copied) v0 CSV: the
checklist of ``model.v1.eligibility`` (R-V1-23) as ``Analysis.v1_readiness`` fills it,
drawn. Information only, never a finding."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from olmtui.model.rules.v1.eligibility import Point
from olmtui.pipeline.session import Session
from olmtui.ui import palette
from olmtui.ui.formatting import section

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
    return [section("OLM v1 readiness (heuristic)"), head, *map(_point, result.points)]


def _point(point: Point) -> Text:
    word, style = _VERDICT[point.verdict]
    out = Text("  ")
    out.append(word, style=style)
    out.append(f": {point.text}")
    return out
