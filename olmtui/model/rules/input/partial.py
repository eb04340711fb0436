"""What the model may not conclude from input read only in part (R-SRC-1).

An archive that ends early, documents that could not be parsed, a live sync that has not
listed every kind yet: each leaves out objects that exist. Findings that say something is
missing (``access.ABSENCE_CODES``: no group in a namespace, labels no group accounts for,
a copy or a referenced object not found) are then invented from what was lost: half a
must-gather gave 21 false ``NamespaceLabelDrift`` warnings. So while the input of a kind is
partial, the findings resting on the absence of its objects are withheld and one warning
says how many and why; findings about objects present stay (what was read is still true).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from olmtui.frozen import frozen
from olmtui.model.records.types import Finding
from olmtui.model.rules.input.access import ABSENCE_CODES, OBSERVED_SEVERITY

#: The code of the warning that stands for the findings withheld.
INCOMPLETE = "InputIncomplete"


@frozen
class PartialInput:
    """What of the input is known to be missing: ``reasons`` in one line each (the archive
    ended early, unreadable documents, the live sync not finished); ``kinds`` the kinds read
    only in part, ``None`` when any kind may be missing (an archive cut short, a document
    whose kind cannot be told)."""

    reasons: tuple[str, ...] = ()
    kinds: frozenset[str] | None = frozenset()

    @property
    def partial(self) -> bool:
        return self.kinds is None or bool(self.kinds)


COMPLETE = PartialInput()


def rests_on_partial(code: str, kinds: frozenset[str] | None) -> bool:
    """Whether a finding ``code`` rests on the absence of objects of a kind read in part."""
    if kinds is None:
        return any(code in codes for codes in ABSENCE_CODES.values())
    return any(code in ABSENCE_CODES.get(kind, ()) for kind in kinds)


def complete_findings(findings: Iterable[Finding], partial: PartialInput) -> list[Finding]:
    """``findings`` without those resting on the absence of objects the partial input may
    have lost (R-SRC-1), and one warning for them when any was withheld."""
    if not partial.partial:
        return list(findings)
    kept: list[Finding] = []
    withheld: Counter[str] = Counter()
    for finding in findings:
        observed = OBSERVED_SEVERITY.get(finding.code) == finding.severity
        if not observed and rests_on_partial(finding.code, partial.kinds):
            withheld[finding.code] += 1
        else:
            kept.append(finding)
    if withheld:
        kept.append(withheld_finding(withheld, partial))
    return kept


def withheld_finding(withheld: Counter[str], partial: PartialInput) -> Finding:
    """The one warning that says what was withheld, and why."""
    total = sum(withheld.values())
    codes = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in sorted(withheld.items()))
    what = (
        "objects of any kind may be missing"
        if partial.kinds is None
        else f"{', '.join(sorted(partial.kinds))} objects may be missing"
    )
    return Finding(
        "warning",
        INCOMPLETE,
        "",
        "",
        "",
        f"The input is incomplete ({'; '.join(partial.reasons)}): {what}, so {total} "
        f"finding(s) that would rest on their absence are withheld ({codes}). "
        "Check again with complete input.",
        rule="R-SRC-1",
    )
