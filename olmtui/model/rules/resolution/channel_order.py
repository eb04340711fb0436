"""The order of one channel's entries, newest first, as OLM's ``sortChannel`` computes it
(R-RES-11.1).

Candidate order and dependency order both walk a channel from its head down the ``replaces``
chain; a channel with no head, a cycle or several heads stops the whole resolution with OLM's
own error text. The walk is the upgrade graphs' own (``model/rules/upgrades/channel_chain.py``,
R-UPG-1): here its error becomes the ``ResolutionError`` that stops resolution.
"""

from __future__ import annotations

from collections.abc import Sequence

from olmtui.model.rules.resolution.entries import Entry
from olmtui.model.rules.upgrades.channel_chain import replacement_chain


class ResolutionError(Exception):
    """An error that stops OLM's resolution (``ErrorPreventedResolution``, R-RES-19); the
    message is OLM's text."""


def sort_channel(entries: Sequence[Entry]) -> list[Entry]:
    """R-RES-11.1: the single replacement chain from the head; skipped entries and entries off
    the chain are dropped. Raises ``ResolutionError`` with OLM's texts."""
    if not entries:
        return []
    chain, error = replacement_chain(entries, entries[0].package, entries[0].channel)
    if error is not None:
        raise ResolutionError(error)
    return chain
