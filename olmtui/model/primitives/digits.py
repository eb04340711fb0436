"""Decimal numbers read from cluster or catalog text: versions, ranges, CEL literals.

Python's ``int()`` refuses a text of over 4,300 digits (``ValueError``, its guard against
quadratic conversion) where Go's ``strconv`` says the value is out of range. A ClusterVersion,
a CSV or a bundle may carry such a text, so the model converts a run of digits only
once it is known to fit the range the Go code reads it into.
"""

from __future__ import annotations

UINT64_MAX = 2**64 - 1
INT64_MAX = 2**63 - 1


def bounded(digits: str, limit: int) -> int | None:
    """The value of ``digits`` (ASCII digits only) when it is at most ``limit``; ``None``
    when it is larger, without converting a text longer than ``limit``'s."""
    if len(digits.lstrip("0")) > len(str(limit)):
        return None
    value = int(digits)
    return value if value <= limit else None
