"""``OLM v1 readiness (heuristic)`` in the detail of an installed (non-copied) v0 CSV: the
checklist of ``model.v1.eligibility`` (R-V1-23), fed with the CSV's OperatorCondition and
how many namespaces hold an operator of its package. Information only, never a finding."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from olmtui.model.multitenancy import installed_instances, package_of
from olmtui.model.v1.eligibility import Point, eligibility
from olmtui.pipeline.session import Session
from olmtui.store import is_copied_csv
from olmtui.ui import derived, palette
from olmtui.ui.formatting import section

Obj = dict[str, Any]
_VERDICT = {
    "blocks": ("✖ blocks", palette.ERROR),
    "needs": ("▲ needs", palette.WARNING),
    "ok": ("✓ ok", palette.OK),
}


def _packages(session: Session) -> Mapping[tuple[str, str], tuple[str, int]]:
    """``(namespace, csv)`` -> (its package, how many namespaces hold that package), from one
    pass over the non-copied CSVs and the Subscriptions the HealthIndex keeps, rebuilt when
    one of them moved (its operators generation, which a copied CSV does not move)."""
    index = derived.health_index(session)

    def build() -> dict[tuple[str, str], tuple[str, int]]:
        instances = installed_instances(index.installed_csvs(), index.subscriptions())
        spread: dict[str, set[str]] = {}
        for i in instances:
            spread.setdefault(i.package, set()).add(i.namespace)
        return {(i.namespace, i.csv): (i.package, len(spread[i.package])) for i in instances}

    return derived.cached_on(session, "v1-readiness-packages", index.operators_generation, build)


def readiness(session: Session, csv: Obj | None) -> list[RenderableType]:
    """The section for a CSV object (nothing for a copy or a missing object)."""
    if csv is None or is_copied_csv(csv):
        return []
    meta = csv.get("metadata") or {}
    namespace, name = str(meta.get("namespace") or ""), str(meta.get("name") or "")
    package, spread = _packages(session).get((namespace, name), (package_of(csv, {}), 1))
    # OLM names a CSV's OperatorCondition after it
    condition = session.store.get("OperatorCondition", namespace, name)
    conditions = [] if condition is None else [condition]
    result = eligibility(csv, conditions, package, spread)
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
