"""The findings for what one snapshot file could not give: documents that do not parse,
objects that are not usable, said once per reason and file, with the count.

A 7 MB file of a million documents ``{}`` made a million ``InvalidObject`` findings, and
they alone took 2 GiB on their way to the report. So the skips of one file are grouped by
what went wrong (the reason without its line, column or list item): one skip reads as it
always did, several of one reason as one finding with their count and the first of them.
At most :data:`MAX_REASONS` reasons are told apart per file; the rest are counted together
(a million parse errors each quoting its own text would make a million reasons).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from olmtui.model.records.types import Finding

#: Reasons told apart in one file; skips for any other reason are counted in one finding.
MAX_REASONS = 20
#: Where a skip is, at the start of its detail: its line (and column), its list item.
_PLACE = re.compile(r"(?:line \d+(?:, column \d+)?: |item \d+ of this \S+: )*")


@dataclass(slots=True)
class _Reason:
    """The skips of one reason: the first's code, line and detail, and how many."""

    code: str
    line: int
    detail: str
    count: int = 1


class FileSkips:
    """The skips of one file, grouped by reason, in the order each reason first came."""

    def __init__(self, file_name: str) -> None:
        self.file_name = file_name
        self.reasons: dict[tuple[str, str], _Reason] = {}
        self.other: _Reason | None = None

    def add(self, code: str, line: int, detail: str) -> None:
        key = (code, _PLACE.sub("", detail, count=1))
        reason = self.reasons.get(key)
        if reason is None and len(self.reasons) < MAX_REASONS:
            self.reasons[key] = _Reason(code, line, detail)
        elif reason is not None:
            reason.count += 1
        elif self.other is None:
            self.other = _Reason(code, line, detail)
        else:
            self.other.count += 1

    def findings(self) -> list[Finding]:
        """One warning per reason (R-SRC-1), and one for the rest."""
        found = [self._finding(reason, _message(reason)) for reason in self.reasons.values()]
        if self.other is not None:
            other = self.other
            found.append(
                self._finding(
                    other,
                    f"{other.count:,} more documents or objects of this file were skipped for "
                    f"other reasons, the first at line {other.line} ({other.detail}).",
                )
            )
        return found

    def _finding(self, reason: _Reason, message: str) -> Finding:
        return Finding("warning", reason.code, "File", "", self.file_name, message, rule="R-SRC-1")


def _message(reason: _Reason) -> str:
    line, detail, count = reason.line, reason.detail, reason.count
    if reason.code == "InvalidObject":
        if count == 1:
            return f"The object in the document at line {line} was skipped: {detail}."
        return (
            f"{count:,} objects of this file were skipped for this reason, the first in the "
            f"document at line {line}: {detail}."
        )
    if count == 1:
        return (
            f"The document starting at line {line} does not parse ({detail}); "
            "it was skipped and the rest of the file was read."
        )
    return (
        f"{count:,} documents of this file do not parse for this reason, the first starting "
        f"at line {line} ({detail}); they were skipped and the rest of the file was read."
    )
