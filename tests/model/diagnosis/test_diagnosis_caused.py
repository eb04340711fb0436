"""``Diagnosis.caused``: what a remedy of a finding must clear besides it (R-DIAG-9): a root's
whole incident, or the part of it below a consequence."""

from __future__ import annotations

from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.records.types import Finding


def test_a_consequence_causes_only_what_lies_below_it() -> None:
    findings = [
        Finding("error", f"C{i}", "Subscription", "ns", f"s{i}", "m", "R") for i in range(5)
    ]
    # 0 <- 1 <- 2, 0 <- 3; 4 alone
    diagnosis = Diagnosis(findings, {1: 0, 2: 1, 3: 0})
    assert diagnosis.caused(0) == [1, 2, 3]
    assert diagnosis.caused(1) == [2]
    assert diagnosis.caused(2) == []
    assert diagnosis.caused(3) == []
    assert diagnosis.caused(4) == []
