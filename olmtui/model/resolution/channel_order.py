"""The order of one channel's entries, newest first, as OLM's ``sortChannel`` computes it
(R-RES-11.1).

Candidate order and dependency order both walk a channel from its head down the ``replaces``
chain; a channel with no head, a cycle or several heads stops the whole resolution with OLM's
own error text, which is reproduced here byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from olmtui.model.chain_ends import ChainEnds, Ends
from olmtui.model.resolution.entries import Entry


class ResolutionError(Exception):
    """An error that stops OLM's resolution (``ErrorPreventedResolution``, R-RES-19); the
    message is OLM's text."""


def go_quote(text: str) -> str:
    """Go's ``%q`` for the names that appear in channel errors."""
    return json.dumps(text, ensure_ascii=False)


def sort_channel(entries: Sequence[Entry]) -> list[Entry]:
    """R-RES-11.1: the single replacement chain from the head; skipped entries and entries off
    the chain are dropped. Raises ``ResolutionError`` with OLM's texts."""
    if not entries:
        return []
    package, channel = go_quote(entries[0].package), go_quote(entries[0].channel)
    by_name = {e.name: e for e in entries}
    replaced: set[str] = set()
    replaces: dict[str, Entry] = {}
    skipped: set[str] = set()
    for entry in entries:
        if entry.replaces and entry.replaces in by_name:
            replaced.add(entry.replaces)
            replaces[entry.name] = by_name[entry.replaces]
        for skip in entry.skips:
            if skip in by_name:
                replaced.add(skip)
                skipped.add(skip)
    heads = [e for e in entries if e.name not in replaced]
    if not heads:
        raise ResolutionError(
            "no channel heads (entries not replaced by another entry) found in channel "
            f"{channel} of package {package}"
        )
    # Each head's walk, summed up over walks shared from entry to entry.
    following = {name: entry.name for name, entry in replaces.items()}
    walks = ChainEnds(following, skipped)
    chains: list[Ends] = []
    for head in heads:
        ends = walks.walk(head.name, following.get(head.name))
        if ends.loops:
            raise ResolutionError(
                "a cycle exists in the chain of replacement beginning with "
                f"{go_quote(head.name)} in channel {channel} of package {package}"
            )
        chains.append(ends)
    if len(chains) > 1:
        raise ResolutionError(
            "a unique replacement chain within a channel is required to determine the relative "
            f"order between channel entries, but {len(chains)} replacement chains were found in "
            f"channel {channel} of package {package}: " + ", ".join(c.text() for c in chains)
        )
    chain: list[Entry] = []
    current: Entry | None = heads[0]
    while current is not None:  # the one walk, without a loop
        if current.name not in skipped:
            chain.append(current)
        current = replaces.get(current.name)
    return chain
