"""R-UPG-1 (the resolver's channel order, with OLM's exact errors) and R-UPG-7 (opm's
catalog validation), on hand-made channels."""

from __future__ import annotations

from olmtui.model.records.catalog import Catalog, Channel, ChannelEntry, Package
from olmtui.model.rules.upgrades.graph import channel_order, channel_states, validate_channel


def E(
    name: str,
    replaces: str | None = None,
    skips: tuple[str, ...] = (),
    skip_range: str | None = None,
) -> ChannelEntry:
    return ChannelEntry(name, replaces, skips, skip_range)


def ch(*entries: ChannelEntry, name: str = "stable", package: str = "pkg") -> Channel:
    return Channel(package, name, entries)


def test_r_upg_1_order_follows_replaces_head_first() -> None:
    order, errors = channel_order(ch(E("a.v1"), E("a.v3", "a.v2"), E("a.v2", "a.v1")))
    assert (order, errors) == (["a.v3", "a.v2", "a.v1"], [])


def test_r_upg_1_skipped_entries_are_left_out_of_the_order() -> None:
    order, errors = channel_order(
        ch(E("a.v3", "a.v2", skips=("a.v2",)), E("a.v2", "a.v1"), E("a.v1"))
    )
    assert (order, errors) == (["a.v3", "a.v1"], [])


def test_r_upg_1_replaces_and_skips_outside_the_channel_are_ignored() -> None:
    order, errors = channel_order(ch(E("a.v2", "a.v1", skips=("gone.v0",)), E("a.v1", "a.v0")))
    assert (order, errors) == (["a.v2", "a.v1"], [])


def test_r_upg_1_entries_unreachable_by_replaces_from_the_head_are_dropped() -> None:
    # a.v1 is "replaced" only through a skip of an entry outside the replaces chain.
    order, errors = channel_order(ch(E("a.v3", "a.v2"), E("a.v2", skips=("a.v1",)), E("a.v1")))
    assert (order, errors) == (["a.v3", "a.v2"], [])


def test_r_upg_1_no_heads_error() -> None:
    assert channel_order(ch(E("a", "b"), E("b", "a"))) == (
        [],
        [
            'no channel heads (entries not replaced by another entry) found in channel "stable" '
            'of package "pkg"'
        ],
    )


def test_r_upg_1_cycle_error_names_the_head_it_started_from() -> None:
    assert channel_order(ch(E("h", "a"), E("a", "b"), E("b", "a"))) == (
        [],
        [
            'a cycle exists in the chain of replacement beginning with "h" in channel "stable" '
            'of package "pkg"'
        ],
    )


def test_r_upg_1_several_heads_error_lists_chains_in_discovery_order() -> None:
    order, errors = channel_order(
        ch(E("x.v2", "x.v1"), E("x.v1"), E("y.v1"), E("z.v3", "z.v2"), E("z.v2", "z.v1"), E("z.v1"))
    )
    assert order == []
    assert errors == [
        "a unique replacement chain within a channel is required to determine the relative "
        'order between channel entries, but 3 replacement chains were found in channel "stable"'
        ' of package "pkg": x.v2...x.v1, y.v1, z.v3...z.v1'
    ]


def test_r_upg_1_entries_skipping_each_other_are_both_out_of_the_order() -> None:
    # A skip counts as "replaced by" (so neither is a head) and marks the entry skipped.
    order, errors = channel_order(ch(E("h"), E("t", skips=("s",)), E("s", skips=("t",))))
    assert (order, errors) == (["h"], [])


def test_r_upg_1_empty_channel_has_no_order_and_no_error() -> None:
    assert channel_order(ch()) == ([], [])


def test_r_upg_1_packagemanifest_channel_knows_only_its_head() -> None:
    pm = Channel("pkg", "stable", (E("a.v1"), E("a.v2")), reported_head="a.v2")
    assert channel_order(pm) == (["a.v2"], [])
    assert validate_channel(pm) == []


def test_r_upg_7_valid_channel_has_no_errors() -> None:
    assert (
        validate_channel(ch(E("a.v3", "a.v2", skips=("a.v1",)), E("a.v2", "a.v1"), E("a.v1"))) == []
    )


def test_r_upg_7_tail_may_replace_an_absent_bundle() -> None:
    assert validate_channel(ch(E("a.v2", "a.v1"), E("a.v1", "a.v0"))) == []


def test_r_upg_7_stranded_bundles_are_sorted() -> None:
    errors = validate_channel(ch(E("a.v3", "a.v2"), E("a.v2"), E("z.v1"), E("b.v1", "z.v1")))
    assert errors == ["multiple channel heads found in graph: a.v3, b.v1"]
    errors = validate_channel(
        ch(
            E("a.v3", "a.v2", skips=("q.v1", "c.v1")),
            E("a.v2"),
            E("q.v1", "c.v1"),
            E("c.v1"),
            E("p.v1", skips=("a.v3",)),
            E("zz", skips=("p.v1",)),
        )
    )
    assert errors == ["channel contains one or more stranded bundles: a.v2"]


def test_r_upg_7_skipped_replaces_target_ends_the_walk() -> None:
    # v2 replaces v1 but v3 skips v1: the walk stops at v2, and v1 is skipped, not stranded.
    assert validate_channel(
        ch(E("v3", "v2", skips=("v1",)), E("v2", "v1"), E("v1", "v0"), E("v0"))
    ) == ["channel contains one or more stranded bundles: v0"]


def test_r_upg_7_cycle_message_starts_where_the_cycle_closes() -> None:
    assert validate_channel(ch(E("h", "a"), E("a", "b"), E("b", "c"), E("c", "a"))) == [
        "detected cycle in replaces chain of upgrade graph: a -> b -> c -> a"
    ]


def test_r_upg_7_no_head_and_several_heads() -> None:
    assert validate_channel(ch(E("a", "b"), E("b", "a"))) == ["no channel head found in graph"]
    assert validate_channel(ch(E("b"), E("a"))) == ["multiple channel heads found in graph: a, b"]


def test_r_upg_7_unparsable_skip_range_is_a_validation_error() -> None:
    errors = validate_channel(ch(E("a.v2", "a.v1", skip_range=">v0.1.0"), E("a.v1"), name="fast"))
    assert len(errors) == 1
    assert errors[0].startswith(
        'invalid bundle "a.v2": invalid skipRange ">v0.1.0" in channel "fast": '
    )


def test_channel_states_sorted_with_resolver_errors_before_validation_errors() -> None:
    pkg = Package(
        "pkg",
        "stable",
        {
            "stable": ch(E("a.v2", "a.v1"), E("a.v1")),
            "beta": ch(E("b"), E("a", skip_range=">1.00.1"), name="beta"),
        },
    )
    states = channel_states(
        [Catalog("ns/cat", "x", packages={"pkg": pkg}), Catalog(None, "y", packages={"pkg": pkg})]
    )
    assert [(s.catalog, s.channel) for s in states] == [
        (None, "beta"),
        (None, "stable"),
        ("ns/cat", "beta"),
        ("ns/cat", "stable"),
    ]
    beta = states[0]
    assert beta.head is None and beta.order == ()
    assert beta.errors[0].startswith("a unique replacement chain")
    assert beta.errors[1] == "multiple channel heads found in graph: a, b"
    assert beta.errors[2].startswith('invalid bundle "a": invalid skipRange ">1.00.1"')
    assert states[1].head == "a.v2" and states[1].order == ("a.v2", "a.v1")
    assert states[1].errors == ()
