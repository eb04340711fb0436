"""The ``/`` filter over a table's rows, fast while typing over a hundred thousand of them.

k9s semantics: a case-insensitive substring match; a leading ``!`` inverts. Typing narrows a
filter one key at a time, and every row that matches ``app-04207`` also matches ``app-0420``,
so a longer needle is looked for only among the rows the shorter one kept; Backspace goes
back to a needle typed a moment ago, whose answer is kept. Both are exact: the answer is
always the rows a full scan would give, in the same order.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

#: Answers kept per set of rows (Backspace over a long query, or switching between a few).
KEPT = 64

Needle = tuple[str, bool]  # (lower-case text, inverted)


def parse_query(query: str) -> Needle | None:
    """``(needle, inverted)``, or None when the query keeps every row (empty, or ``!``)."""
    query = query.strip()
    invert = query.startswith("!")
    needle = (query[1:].strip() if invert else query).lower()
    return (needle, invert) if needle else None


class RowFilter:
    """Matches queries against one set of rows' haystacks (lower case, in row order)."""

    def __init__(self, haystacks: Sequence[str]) -> None:
        self._haystacks = haystacks
        self._answers: OrderedDict[Needle, list[int]] = OrderedDict()

    def matches(self, query: str) -> list[int] | None:
        """Indices of the rows the query keeps, in order; None when it keeps every row."""
        parsed = parse_query(query)
        if parsed is None:
            return None
        answer = self._answers.get(parsed)
        if answer is None:
            answer = self._scan(parsed, self._candidates(parsed))
            self._answers[parsed] = answer
            if len(self._answers) > KEPT:
                self._answers.popitem(last=False)
        else:
            self._answers.move_to_end(parsed)
        return answer

    def _candidates(self, parsed: Needle) -> list[int] | None:
        """The smallest kept answer that holds every row ``parsed`` keeps (None: all rows).
        A row containing ``needle`` contains each part of it; a row lacking ``needle``
        lacks every longer text around it."""
        needle, invert = parsed
        best: list[int] | None = None
        for (kept, kept_invert), answer in self._answers.items():
            if kept_invert != invert:
                continue
            holds = needle in kept if invert else kept in needle
            if holds and (best is None or len(answer) < len(best)):
                best = answer
        return best

    def _scan(self, parsed: Needle, candidates: list[int] | None) -> list[int]:
        needle, invert = parsed
        hay = self._haystacks
        if candidates is None:
            if invert:
                return [i for i, h in enumerate(hay) if needle not in h]
            return [i for i, h in enumerate(hay) if needle in h]
        if invert:
            return [i for i in candidates if needle not in hay[i]]
        return [i for i in candidates if needle in hay[i]]
