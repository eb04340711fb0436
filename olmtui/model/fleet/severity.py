"""Severities in their order, worst first, for the roll-up's "worst over the clusters"."""

from __future__ import annotations

from collections.abc import Iterable

ORDER: tuple[str, ...] = ("error", "warning", "info")


def rank(severity: str) -> int:
    """0 for ``error``, then ``warning``, ``info``; anything else after them."""
    return ORDER.index(severity) if severity in ORDER else len(ORDER)


def worst(severities: Iterable[str]) -> str:
    """The worst of ``severities`` (``info`` for none)."""
    return min(severities, key=rank, default="info")
