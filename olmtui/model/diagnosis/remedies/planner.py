"""The shape every chapter's plans share: a planner turns one finding, read with the state
around it, into a :class:`Remedy` or ``None`` (nothing to do).

Each chapter module holds ``PLANS``: finding code -> planner, or ``None`` where olmtui says
explicitly that there is nothing to do. :func:`advise` makes the planner of a one-step plan
whose text does not depend on the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.steps import other, plan
from olmtui.model.records.diagnosis import Remedy, Step, StepAction
from olmtui.model.records.types import Finding, ObjectRef

Planner = Callable[[Finding, RemedyContext], Remedy | None]
#: A chapter's plans: ``None`` says "nothing to do" for that code.
Plans = Mapping[str, Planner | None]


def subject(finding: Finding) -> ObjectRef | None:
    """The object a finding is about, when it names one."""
    return ObjectRef(finding.kind, finding.namespace, finding.name) if finding.name else None


def advise(action: StepAction, text: str) -> Planner:
    """A planner of one ``action`` step on the finding's object (no change to apply: what it
    asks needs a person's judgement, e.g. which label to set or which bundle to publish)."""

    def planner(finding: Finding, _context: RemedyContext) -> Remedy:
        if action == "other":
            return plan(other(text, subject(finding)))
        return plan(Step(action, text, object=subject(finding)))

    return planner
