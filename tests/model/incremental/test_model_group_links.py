"""R-API-4: one OperatorGroup's view of the groups it meets, patched one entry at a time."""

from __future__ import annotations

from olmtui.model.incremental.group_links import GroupLinks, conflicts, link_entry
from olmtui.model.records.types import Conflict, Intersection

KAFKA = "Kafka.v1.kafka.strimzi.io"
TOPIC = "KafkaTopic.v1.kafka.strimzi.io"


def test_r_api_4_groups_meet_where_their_effective_sets_intersect() -> None:
    entry = link_entry(frozenset({"a", "b"}), ("b", "og"), frozenset({"b", "c"}), frozenset())
    assert entry == (Intersection("b/og", ("b",)), frozenset())
    assert link_entry(frozenset({"a"}), ("c", "og"), frozenset({"c"}), frozenset()) is None
    assert link_entry(frozenset({"a"}), ("c", "og"), None, frozenset()) is None


def test_r_api_4_claims_are_kept_per_api_and_sorted_by_group() -> None:
    links = GroupLinks()
    first = (Intersection("z/og", ("a",)), frozenset({KAFKA}))
    second = (Intersection("b/og", ("a",)), frozenset({KAFKA, TOPIC}))
    assert links.put(("z", "og"), first) == {KAFKA}
    assert links.put(("b", "og"), second) == {KAFKA, TOPIC}
    assert links.claims[KAFKA] == (("b/og", ("a",)), ("z/og", ("a",)))
    assert links.intersecting == (second[0], first[0])


def test_r_api_4_an_unchanged_entry_changes_no_claim() -> None:
    links = GroupLinks()
    entry = (Intersection("b/og", ("a",)), frozenset({KAFKA}))
    links.put(("b", "og"), entry)
    assert links.put(("b", "og"), entry) == frozenset()
    assert links.claims == {KAFKA: (("b/og", ("a",)),)}


def test_r_api_4_a_group_that_stops_meeting_drops_its_claims() -> None:
    links = GroupLinks()
    links.put(("b", "og"), (Intersection("b/og", ("a",)), frozenset({KAFKA, TOPIC})))
    links.put(("c", "og"), (Intersection("c/og", ("a",)), frozenset({KAFKA})))
    assert links.put(("b", "og"), None) == {KAFKA, TOPIC}
    assert links.claims == {KAFKA: (("c/og", ("a",)),)}
    assert [i.operator_group for i in links.intersecting] == ["c/og"]


def test_15_1_conflicts_name_each_claiming_group_with_its_apis() -> None:
    links = GroupLinks()
    links.put(("b", "og"), (Intersection("b/og", ("a",)), frozenset({KAFKA, TOPIC})))
    links.put(("c", "og"), (Intersection("c/og", ("x",)), frozenset({TOPIC})))
    assert conflicts(frozenset({KAFKA, TOPIC}), links) == (
        Conflict("b/og", (KAFKA, TOPIC), ("a",)),
        Conflict("c/og", (TOPIC,), ("x",)),
    )
    assert conflicts(frozenset({"Other.v1.example.com"}), links) == ()
