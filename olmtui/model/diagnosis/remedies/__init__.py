"""Remedies as plans of steps: for a finding, read with the state around it,
the steps a person follows, each with the ``oc`` command shown and the state change a
simulation applies; ``None`` when there is nothing to do.

One module per chapter of docs/rules.md holds the plans of the codes its rules emit
(``PLANS``: code -> planner, ``None`` for "nothing to do"). Codes OLM writes itself come in
families a table cannot list: a CSV's phase (``CSV<phase>``), a Subscription's
``ResolutionFailed`` reason (R-SUB-7) and the input reader's skips (R-SRC-*); those are
planned by the rule the finding names (:data:`BY_RULE`).
"""

from __future__ import annotations

from collections.abc import Mapping

from olmtui.model.diagnosis.remedies import (
    apis,
    cluster_readiness,
    copies,
    csvs,
    documented,
    evidence,
    inputs,
    installplans,
    lifecycle,
    membership,
    operatorgroups,
    resolution,
    subscriptions,
    upgrades,
    v1,
)
from olmtui.model.diagnosis.remedies.context import IndexedContext, ObjectsContext, RemedyContext
from olmtui.model.diagnosis.remedies.planner import Planner
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding

__all__ = ["PLANS", "IndexedContext", "ObjectsContext", "RemedyContext", "has_plan", "remedy_for"]

_CHAPTERS = (
    operatorgroups,
    membership,
    apis,
    csvs,
    copies,
    upgrades,
    subscriptions,
    installplans,
    resolution,
    v1,
    documented,
    inputs,
    evidence,
    lifecycle,
    cluster_readiness,
)


def _merged() -> dict[str, Planner | None]:
    merged: dict[str, Planner | None] = {}
    for chapter in _CHAPTERS:
        twice = merged.keys() & chapter.PLANS.keys()
        if twice:
            raise ValueError(f"{chapter.__name__} plans codes another chapter plans: {twice}")
        merged.update(chapter.PLANS)
    return merged


#: Every code's planner; ``None``: olmtui says there is nothing to do.
PLANS: Mapping[str, Planner | None] = _merged()

#: Families of codes OLM (or the input) names, planned by rule: R-SUB-7 reasons, CSV phases
#: (a phase :data:`PLANS` does not list is one OLM waits in), and the input's skips.
BY_RULE: Mapping[str, Planner | None] = {
    "R-SUB-7": subscriptions.RESOLUTION_FAILED,
    **dict.fromkeys(("R-CSV-N", "R-CSV-IR", "R-CSV-I", "R-CSV-R", "R-CSV-D"), None),
    **dict.fromkeys(("R-SRC-1", "R-SRC-2", "R-SRC-3", "R-SRC-4"), None),
}


def has_plan(code: str, rule: str = "") -> bool:
    """Whether olmtui says something for ``code``: a plan, or "nothing to do"."""
    return code in PLANS or rule in BY_RULE


def remedy_for(finding: Finding, context: RemedyContext) -> Remedy | None:
    """The plan for ``finding`` in the state ``context`` shows, or ``None`` (nothing to do,
    or a code no chapter plans)."""
    planner = PLANS[finding.code] if finding.code in PLANS else BY_RULE.get(finding.rule)
    return planner(finding, context) if planner is not None else None
