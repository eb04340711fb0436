"""R-SRC-1: while the input of a kind is partial, nothing is said missing of it."""

from __future__ import annotations

from olmtui.kinds import CSV, NAMESPACE, OPERATOR_GROUP
from olmtui.model.records.types import Finding
from olmtui.model.rules.input.partial import (
    COMPLETE,
    INCOMPLETE,
    PartialInput,
    complete_findings,
)


def _finding(code: str, severity: str = "warning") -> Finding:
    return Finding(severity, code, NAMESPACE, "", "team-a", f"{code} text", rule="R-OG-5")


def test_complete_input_keeps_every_finding():
    found = [_finding("NamespaceLabelDrift"), _finding("NoOperatorGroup", "error")]
    assert complete_findings(found, COMPLETE) == found


def test_an_archive_cut_short_withholds_every_absence_finding_and_says_so():
    partial = PartialInput(("the archive ends early",), None)
    found = [
        _finding("NamespaceLabelDrift"),
        _finding("NamespaceLabelDrift"),
        _finding("NoOperatorGroup", "error"),
        _finding("CSVPending"),  # about an object read: it stays
    ]
    kept = complete_findings(found, partial)
    assert [f.code for f in kept] == ["CSVPending", INCOMPLETE]
    warning = kept[-1]
    assert warning.severity == "warning" and warning.rule == "R-SRC-1"
    assert "the archive ends early" in warning.message
    assert "3 finding(s)" in warning.message
    assert "NamespaceLabelDrift ×2, NoOperatorGroup" in warning.message


def test_a_kind_read_in_part_withholds_only_what_rests_on_it():
    partial = PartialInput(("1 unreadable document(s)",), frozenset({CSV}))
    found = [_finding("NamespaceLabelDrift"), _finding("MissingCopiedCSV")]
    kept = complete_findings(found, partial)
    assert [f.code for f in kept] == ["NamespaceLabelDrift", INCOMPLETE]
    assert "ClusterServiceVersion objects may be missing" in kept[-1].message


def test_what_olm_wrote_itself_stays():
    """InstallPlanMissing as an error is OLM's own condition, observed, not derived."""
    partial = PartialInput(("live sync not finished",), frozenset({"InstallPlan"}))
    found = [_finding("InstallPlanMissing", "error")]
    assert complete_findings(found, partial) == found


def test_nothing_withheld_means_no_warning():
    partial = PartialInput(("live sync not finished (OperatorGroup)",), frozenset({OPERATOR_GROUP}))
    found = [_finding("CSVPending")]
    assert complete_findings(found, partial) == found
