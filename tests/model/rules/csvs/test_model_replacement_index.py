"""The replacement index answers as the walks it replaced: each CSV's successor,
loop and CRD owner conflicts, on random ``spec.replaces`` graphs (chains, forks, loops,
self-replacement, missing targets). The references are those former walks, one per CSV (the
chain's with one correction, said below)."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.model.rules.apis.reconcile import CrdOwners
from olmtui.model.rules.csvs.replacements import ReplacementIndex

Replaces = Mapping[str, str | None]


def _replaced_by(name: str, replaces: Replaces) -> str | None:
    for other in sorted(replaces):
        if other != name and replaces[other] == name:
            return other
    return None


def _replaces_existing(name: str, replaces: Replaces) -> str | None:
    target = replaces.get(name)
    return target if target and target != name and target in replaces else None


def _cycle(name: str, replaces: Replaces) -> tuple[str, ...]:
    seen = [name]
    current = name
    while (target := _replaces_existing(current, replaces)) is not None:
        if target == name:
            return tuple(seen)
        if target in seen:
            return ()
        seen.append(target)
        current = target
    return ()


def _chain(name: str, replaces: Replaces) -> frozenset[str]:
    chain = {name}
    current = name
    while (previous := replaces.get(current)) and previous in replaces and previous not in chain:
        chain.add(previous)
        current = previous
    replaced_by: dict[str, list[str]] = {}
    for csv_name, target in replaces.items():
        if target:
            replaced_by.setdefault(target, []).append(csv_name)
    # Forward from ``name`` whatever the backward walk added: the former walk stopped at a CSV
    # the backward walk had met, so on a loop it missed a fork off the loop (c2 replacing c0
    # where c0 and c1 replace each other: c2 is c1's descendant). OLM follows one successor
    # per step (the first its map iteration yields), so it may take that fork or not.
    descendants = {name}
    frontier = [name]
    while frontier:
        for successor in replaced_by.get(frontier.pop(), ()):
            if successor not in descendants:
                descendants.add(successor)
                frontier.append(successor)
    return frozenset(chain | descendants)


def _conflicts(
    name: str, owned: Mapping[str, frozenset[str]], replaces: Replaces
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    mine = owned.get(name, frozenset())
    if not mine:
        return ()
    chain = _chain(name, replaces)
    found = []
    for other, crds in owned.items():
        if other in chain:
            continue
        shared = mine & crds
        if shared:
            found.append((other, tuple(sorted(shared))))
    return tuple(sorted(found))


NAMES = [f"c{i}" for i in range(9)]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.none() | st.sampled_from([*NAMES, "gone"]),
            st.frozensets(st.sampled_from(["a.crd", "b.crd"]), max_size=2),
        ),
        min_size=1,
        max_size=9,
    )
)
def test_the_index_answers_as_a_walk_per_csv(
    shape: list[tuple[str | None, frozenset[str]]],
) -> None:
    replaces = {NAMES[i]: target for i, (target, _) in enumerate(shape)}
    owned = {NAMES[i]: crds for i, (_, crds) in enumerate(shape)}
    index = ReplacementIndex(replaces)
    owners = CrdOwners(owned, index)
    for name in replaces:
        assert index.replaced_by(name) == _replaced_by(name, replaces)
        assert index.replaces_existing(name) == _replaces_existing(name, replaces)
        assert index.cycle(name) == _cycle(name, replaces)
        assert index.loop_size(name) == len(_cycle(name, replaces))
        chain = _chain(name, replaces)
        assert {n for n in replaces if index.same_chain(name, n)} == chain
        assert owners.conflicts(name) == _conflicts(name, owned, replaces)
