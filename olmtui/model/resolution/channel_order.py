"""The order of one channel's entries, newest first, as OLM's ``sortChannel`` computes it
(R-RES-11.1).

Candidate order and dependency order both walk a channel from its head down the ``replaces``
chain; a channel with no head, a cycle or several heads stops the whole resolution with OLM's
own error text, which is reproduced here byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from olmtui.model.resolution.entries import Entry


class ResolutionError(Exception):
    """An error that stops OLM's resolution (``ErrorPreventedResolution``, R-RES-19); the
    message is OLM's text."""


def go_quote(text: str) -> str:
    """Go's ``%q`` for the names that appear in channel errors."""
    return json.dumps(text, ensure_ascii=False)


def _chain_text(chain: Sequence[Entry]) -> str:
    if not chain:
        return "[]"
    if len(chain) == 1:
        return chain[0].name
    return f"{chain[0].name}...{chain[-1].name}"


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
    chains: list[list[Entry]] = []
    for head in heads:
        chain: list[Entry] = []
        visited: set[str] = set()
        current: Entry | None = head
        while current is not None:
            visited.add(current.name)
            if current.name not in skipped:
                chain.append(current)
            current = replaces.get(current.name)
            if current is not None and current.name in visited:
                raise ResolutionError(
                    "a cycle exists in the chain of replacement beginning with "
                    f"{go_quote(head.name)} in channel {channel} of package {package}"
                )
        chains.append(chain)
    if len(chains) > 1:
        raise ResolutionError(
            "a unique replacement chain within a channel is required to determine the relative "
            f"order between channel entries, but {len(chains)} replacement chains were found in "
            f"channel {channel} of package {package}: " + ", ".join(_chain_text(c) for c in chains)
        )
    return chains[0]
