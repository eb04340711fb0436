"""Properties of R-UPG-1/2/5 over random channels: what holds whatever the graph looks like."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.model.records.catalog import Bundle, Channel, ChannelEntry, Package
from olmtui.model.rules.upgrades.graph import (
    UpgradeGraph,
    admitting_edge,
    channel_order,
    validate_channel,
)

NAMES = [f"op.v1.{i}.0" for i in range(8)]
RANGES = [None, ">=1.0.0 <1.3.0", ">=1.2.0 <1.6.0", "<1.7.0", ">=1.x <1.5.0", ">v1.0.0"]


@st.composite
def channels(draw: st.DrawFn) -> Package:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=8, unique=True))
    entries = []
    for name in names:
        replaces = draw(st.none() | st.sampled_from(NAMES))
        skips = tuple(draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True)))
        entries.append(ChannelEntry(name, replaces, skips, draw(st.sampled_from(RANGES))))
    prohibited = set(draw(st.lists(st.sampled_from(names), max_size=2)))
    bundles = {n: Bundle(n, "op", n[4:], prohibited=n in prohibited) for n in names}
    return Package("op", "stable", {"stable": Channel("op", "stable", tuple(entries))}, bundles)


@settings(max_examples=150, deadline=None)
@given(channels())
def test_r_upg_1_order_is_a_replaces_chain_without_skipped_entries(package: Package) -> None:
    channel = package.channels["stable"]
    order, errors = channel_order(channel)
    assert not (order and errors)
    if errors:
        return
    names = {e.name for e in channel.entries}
    skipped = {s for e in channel.entries for s in e.skips if s in names}
    assert len(order) == len(set(order))
    assert not skipped & set(order)
    by_name = {e.name: e for e in channel.entries}
    for newer, older in itertools.pairwise(order):
        # The next entry is reached by replaces links, stepping over skipped entries only.
        current = by_name[newer].replaces
        while current != older:
            assert current in skipped
            current = by_name[current].replaces
    assert isinstance(validate_channel(channel), list)


@settings(max_examples=150, deadline=None)
@given(channels(), st.sampled_from(NAMES))
def test_r_upg_2_every_hop_is_admitted_and_nearest_the_head(
    package: Package, installed: str
) -> None:
    graph = UpgradeGraph(package, list(package.channels.values()))
    version = graph.version(installed)
    hop = graph.next(installed, version)
    candidates = [
        e
        for e in graph.ranked
        if admitting_edge(e, installed, version)
        and (e.name == installed or not graph.prohibited(e.name))
    ]
    if hop is None:
        assert not candidates or candidates[0].name == installed
    else:
        assert candidates[0].name == hop.target
        assert admitting_edge(candidates[0], installed, version) == hop.via
        assert not graph.prohibited(hop.target)
    path = graph.path(installed, version)
    assert len({h.target for h in path} | {installed}) == len(path) + 1
    for a, b in itertools.pairwise(path):
        assert a.target == b.source
