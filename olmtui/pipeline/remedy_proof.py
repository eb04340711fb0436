"""Every remedy ``check`` offers proven on the state first: each finding's plan
tried on the session's state by the :class:`~olmtui.pipeline.simulation.Simulator`, as the
report's entry is built.

A trial costs in proportion to the findings (the findings after are gathered and compared),
so ``check`` tries a bounded number of distinct plans: on a hostile input of a hundred
thousand findings it would otherwise run a trial per finding, each over all of them. A plan
left untried says so (``not-simulated``, with why in ``missing``); ``olmtui whatif`` tries
any one. The bound depends on the input only, never on time: two runs print the same report.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

from olmtui.model.records.diagnosis import Change, FindingKey, Remedy
from olmtui.pipeline.simulation import Simulator

#: Findings times distinct trials ``check`` may spend: at 500 findings (1,000 namespaces of
#: the bench) some 8,000 trials, at 20,000 findings 200.
TRIAL_WORK = 4_000_000
#: Beyond this many findings no trial is made (nor the state a trial needs, a second health
#: index over the whole input): ``check`` stays in its memory bound on hostile inputs.
MAX_FINDINGS = 20_000


class RemedyProof:
    """``Simulator.verify`` for the remedies of one report of ``findings`` findings, within
    the budget above. ``simulator`` is asked for only at the first trial: a report whose
    remedies change nothing olmtui holds builds no copy of the state."""

    def __init__(self, simulator: Callable[[], Simulator], findings: int) -> None:
        self._simulator = simulator
        self._findings = findings
        self._allowed = TRIAL_WORK // max(findings, 1) if findings <= MAX_FINDINGS else 0
        #: Change sets tried (a Simulator keeps each one's outcome: tried again, it is free).
        self._tried: set[tuple[Change, ...]] = set()
        self._trials = 0

    def __call__(self, remedy: Remedy, clears: Collection[FindingKey]) -> Remedy:
        changes = tuple(c for step in remedy.steps for c in step.changes)
        if changes and not self._affordable(changes):
            return replace(
                remedy,
                verified="not-simulated",
                outcome="",
                missing=(
                    f"not tried: check tries at most {self._allowed} remedies on an input with "
                    f"{self._findings} findings; olmtui whatif tries this one"
                ),
            )
        return self._simulator().verify(remedy, clears)

    def _affordable(self, changes: tuple[Change, ...]) -> bool:
        """Whether ``changes`` may be tried: once seen (without a created body, whose outcome
        the Simulator does not keep), or while trials are left."""
        cached = all(c.body is None for c in changes)
        if cached and changes in self._tried:
            return True
        if self._trials >= self._allowed:
            return False
        self._trials += 1
        if cached:
            self._tried.add(changes)
        return True
