"""A channel's order (R-UPG-1, R-RES-11.1) from shared walks: the same order and
the same OLM errors as a walk per head, on random channels (several heads, loops, skips,
self-replacement, duplicate names, missing targets), and linear on a fan of thousands of
heads over one long chain. The reference is the former walk of the upgrade graphs, one per
head; the resolver's order is the same walk (``model/rules/upgrades/channel_chain.py``)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.model.records.catalog import Channel, ChannelEntry
from olmtui.model.rules.resolution.channel_order import ResolutionError, sort_channel
from olmtui.model.rules.resolution.entries import CatalogKey, Entry
from olmtui.model.rules.upgrades.graph import channel_order

WHERE = 'in channel "stable" of package "p"'


def _chain_text(chain: list[str]) -> str:
    return "[]" if not chain else chain[0] if len(chain) == 1 else f"{chain[0]}...{chain[-1]}"


def _reference_upgrades(entries: list[ChannelEntry]) -> tuple[list[str], list[str]]:
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
    heads = [e for e in entries if e.name not in replaced]
    if not heads:
        return [], [f"no channel heads (entries not replaced by another entry) found {WHERE}"]
    chains: list[list[str]] = []
    for head in heads:
        chain: list[str] = []
        visited: set[str] = set()
        current = head
        while True:
            visited.add(current.name)
            if current.name not in skipped:
                chain.append(current.name)
            nxt = by_name.get(current.replaces) if current.replaces else None
            if nxt is None:
                break
            if nxt.name in visited:
                return [], [
                    "a cycle exists in the chain of replacement beginning with "
                    f"{json.dumps(head.name)} {WHERE}"
                ]
            current = nxt
        chains.append(chain)
    if len(chains) > 1:
        return [], [
            "a unique replacement chain within a channel is required to determine the relative "
            f"order between channel entries, but {len(chains)} replacement chains were found "
            f"{WHERE}: {', '.join(_chain_text(c) for c in chains)}"
        ]
    return chains[0], []


NAMES = ["a", "b", "c", "d", "e", "f", "g"]
SHAPES = st.lists(
    st.tuples(
        st.sampled_from(NAMES),
        st.none() | st.sampled_from([*NAMES, "gone"]),
        st.lists(st.sampled_from(NAMES), max_size=2),
    ),
    min_size=1,
    max_size=8,
)


def _upgrades(entries: list[ChannelEntry]) -> tuple[list[str], list[str]]:
    return channel_order(Channel("p", "stable", tuple(entries)))


def _resolution(entries: list[Entry]) -> list[str] | str:
    try:
        return [e.name for e in sort_channel(entries)]
    except ResolutionError as exc:
        return str(exc)


def _entry(name: str, replaces: str | None, skips: tuple[str, ...] = ()) -> Entry:
    catalog = CatalogKey("c", "olm")
    return Entry(name, "p", "stable", catalog, replaces=replaces or "", skips=skips)


@settings(max_examples=500, deadline=None)
@given(SHAPES)
def test_shared_walks_order_and_fail_as_a_walk_per_head(
    shape: list[tuple[str, str | None, list[str]]],
) -> None:
    entries = [ChannelEntry(n, r, tuple(s)) for n, r, s in shape]
    assert _upgrades(entries) == _reference_upgrades(entries)


@settings(max_examples=500, deadline=None)
@given(SHAPES)
def test_the_upgrade_graphs_and_the_resolver_order_a_channel_alike(
    shape: list[tuple[str, str | None, list[str]]],
) -> None:
    """One walk (``model/rules/upgrades/channel_chain.py``) for both: the same order or the same
    error, duplicate names included (a head walks its own ``replaces``)."""
    order, errors = _upgrades([ChannelEntry(n, r, tuple(s)) for n, r, s in shape])
    resolved = _resolution([_entry(n, r, tuple(s)) for n, r, s in shape])
    assert resolved == (errors[0] if errors else order)


def test_a_head_of_a_duplicated_name_walks_its_own_replaces_in_both() -> None:
    """The case the two former walks disagreed on: the resolver's went on from another
    entry of the head's name."""
    shape = [("a", None, ()), ("a", "b", ()), ("b", None, ())]
    expected = (
        "a unique replacement chain within a channel is required to determine the relative "
        f"order between channel entries, but 2 replacement chains were found {WHERE}: a, a...b"
    )
    assert _upgrades([ChannelEntry(n, r, s) for n, r, s in shape]) == ([], [expected])
    assert _resolution([_entry(n, r, s) for n, r, s in shape]) == expected


def test_a_fan_of_3000_heads_over_a_chain_of_3000_names_each_chain_by_its_ends() -> None:
    n = 3000
    chain = [ChannelEntry(f"v{i}", f"v{i - 1}" if i else None) for i in range(n)]
    fan = [ChannelEntry(f"h{i}", f"v{n - 1}") for i in range(n)]
    order, errors = _upgrades(chain + fan)
    assert order == []
    assert f"but {n} replacement chains were found" in errors[0]
    assert errors[0].endswith(f"h0...v0, h1...v0, {', '.join(f'h{i}...v0' for i in range(2, n))}")
    resolution = [_entry(e.name, e.replaces) for e in chain + fan]
    assert _resolution(resolution) == errors[0]
