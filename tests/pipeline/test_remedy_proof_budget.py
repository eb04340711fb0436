"""``check``'s proof of remedies within its budget (``pipeline/remedy_proof.py``): a trial
costs in proportion to the findings, so a report of many tries a bounded number of distinct
plans, says so of the rest, and never builds the state a trial needs when none is allowed."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import pytest

from olmtui.model.records.diagnosis import Change, FindingKey, Remedy, Step
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline import remedy_proof
from olmtui.pipeline.remedy_proof import MAX_FINDINGS, RemedyProof


class _Simulator:
    """Counts the remedies it is asked to verify; proves every one."""

    def __init__(self) -> None:
        self.verified: list[Remedy] = []

    def verify(self, remedy: Remedy, clears: Collection[FindingKey]) -> Remedy:
        self.verified.append(remedy)
        return replace(remedy, verified="simulated", outcome="cleared")


def _delete(name: str, body: bool = False) -> Remedy:
    plan = ObjectRef("InstallPlan", "ns", name)
    change = (
        Change("create", plan, body={"kind": "InstallPlan"}) if body else Change("delete", plan)
    )
    return Remedy((Step("delete", f"Delete {name}", plan, changes=(change,)),))


def _proof(findings: int) -> tuple[RemedyProof, _Simulator, list[int]]:
    simulator = _Simulator()
    built: list[int] = []

    def made() -> _Simulator:
        built.append(1)
        return simulator

    return RemedyProof(made, findings), simulator, built  # type: ignore[arg-type]


def test_beyond_the_findings_bound_nothing_is_tried_nor_built() -> None:
    proof, simulator, built = _proof(MAX_FINDINGS + 1)
    remedy = proof(_delete("a"), {("C", "InstallPlan", "ns", "a")})
    assert remedy.verified == "not-simulated"
    assert remedy.missing is not None and remedy.missing.startswith("not tried: check tries at")
    assert "olmtui whatif tries this one" in remedy.missing
    assert not built and not simulator.verified


def test_distinct_trials_stop_at_the_budget_and_a_change_set_tried_is_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(remedy_proof, "TRIAL_WORK", 300)
    findings = 100  # three trials allowed
    proof, _, _ = _proof(findings)
    verdicts = [proof(_delete(n), ()).verified for n in ("a", "b", "a", "c", "d", "b")]
    assert verdicts == ["simulated"] * 4 + ["not-simulated", "simulated"]
    # a created body is not kept by the Simulator: each costs a trial
    proof, _, _ = _proof(findings)
    verdicts = [proof(_delete("a", body=True), ()).verified for _ in range(4)]
    assert verdicts == ["simulated"] * 3 + ["not-simulated"]


def test_a_remedy_without_changes_costs_no_trial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remedy_proof, "TRIAL_WORK", 100)
    proof, simulator, _ = _proof(100)  # one trial allowed
    nothing = Remedy((Step("wait", "Wait"),))
    for _ in range(3):
        proof(nothing, ())
    assert proof(_delete("a"), ()).verified == "simulated"
    assert proof(_delete("b"), ()).verified == "not-simulated"
    assert len(simulator.verified) == 4
