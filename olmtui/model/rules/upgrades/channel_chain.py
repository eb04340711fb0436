"""One channel's replacement chain, head first, as OLM's ``sortChannel`` computes it (R-UPG-1,
R-RES-11.1), with OLM's error texts byte for byte.

The upgrade graphs (``upgrades.channel_order``, over catalog ``ChannelEntry`` records) and
the resolver (``resolution.channel_order.sort_channel``, over its ``Entry`` records) both
order a channel this way; this one walk serves both, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from olmtui.model.primitives.go_text import go_quote
from olmtui.model.rules.upgrades.chain_ends import ChainEnds, Ends


class Linked(Protocol):
    """What the walk reads of an entry: its name and the names it replaces and skips."""

    @property
    def name(self) -> str: ...

    @property
    def replaces(self) -> str | None: ...

    @property
    def skips(self) -> tuple[str, ...]: ...


E = TypeVar("E", bound=Linked)


def replacement_chain(
    entries: Sequence[E], package: str, channel: str
) -> tuple[list[E], str | None]:
    """R-UPG-1: the single replacement chain from the channel's head, and ``None``; or no
    entries and OLM's error (no head, a cycle, several heads). An entry is replaced by the
    entries whose ``replaces`` or ``skips`` name it; skipped entries and entries off the
    chain are left out; names outside the channel are ignored. Of several entries of one
    name, the last given stands for the name."""
    if not entries:
        return [], None
    by_name = {e.name: e for e in entries}
    replaced: set[str] = set()
    skipped: set[str] = set()
    for e in entries:
        if e.replaces and e.replaces in by_name:
            replaced.add(e.replaces)
        for s in e.skips:
            if s in by_name:
                replaced.add(s)
                skipped.add(s)
    where = f"in channel {go_quote(channel)} of package {go_quote(package)}"
    heads = [e for e in entries if e.name not in replaced]
    if not heads:
        return [], f"no channel heads (entries not replaced by another entry) found {where}"
    # Each head's walk, summed up over walks shared from entry to entry (R-UPG-1).
    following = {n: e.replaces for n, e in by_name.items() if e.replaces and e.replaces in by_name}
    walks = ChainEnds(following, skipped)
    chains: list[Ends] = []
    for head in heads:
        ends = walks.walk(head.name, head.replaces if head.replaces in by_name else None)
        if ends.loops:
            return [], (
                "a cycle exists in the chain of replacement beginning with "
                f"{go_quote(head.name)} {where}"
            )
        chains.append(ends)
    if len(chains) > 1:
        shown = ", ".join(c.text() for c in chains)
        return [], (
            "a unique replacement chain within a channel is required to determine the relative "
            f"order between channel entries, but {len(chains)} replacement chains were found "
            f"{where}: {shown}"
        )
    chain: list[E] = []
    current: E | None = heads[0]
    while current is not None:  # the one walk, without a loop
        if current.name not in skipped:
            chain.append(current)
        current = by_name.get(current.replaces) if current.replaces else None
    return chain, None
