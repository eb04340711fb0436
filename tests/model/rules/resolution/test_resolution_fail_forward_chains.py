"""R-RES-21 over long ``spec.replaces`` chains: each CSV's fail-forward chain is
decided by one walk per namespace, with the outcomes and OLM's error messages of a walk per
CSV (the reference below is olmtui's former walk, OLM's loop written out)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from model_builders import csv as csv_object

from olmtui.model.rules.resolution.existing import SourceError, existing_entries

PHASES = ("Replacing", "Failed", "Succeeded", "Pending")


def _csv(name: str, phase: str, replaces: str | None) -> dict[str, Any]:
    return csv_object("ns", name, bare=True, phase=phase, reason=None, replaces=replaces)


def _reference(csv: dict[str, Any], replaced_by: Mapping[str, dict[str, Any]]) -> bool:
    """R-RES-21 for one CSV, walked on its own; raises ``SourceError``."""
    seen: set[str] = set()
    current = csv
    while (successor := replaced_by.get(current["metadata"]["name"])) is not None:
        name, phase = current["metadata"]["name"], current["status"]["phase"]
        if phase != "Replacing":
            raise SourceError(f"csv ns/{name} in phase {phase} instead of Replacing")
        if name in seen:
            raise SourceError(f"csv ns/{name} has already been seen")
        seen.add(name)
        current = successor
    return bool(current["status"]["phase"] == "Failed")


def _expected(csvs: list[dict[str, Any]]) -> list[str] | str:
    """The entry names ``existing_entries`` keeps, or the first error, by the reference."""
    replaced_by = {c["spec"]["replaces"]: c for c in csvs if c["spec"].get("replaces")}
    kept = []
    for csv in csvs:
        try:
            failed = _reference(csv, replaced_by)
        except SourceError as exc:
            return str(exc)
        if not (failed and csv["status"]["phase"] == "Replacing"):
            kept.append(csv["metadata"]["name"])
    return kept


def _actual(csvs: list[dict[str, Any]]) -> list[str] | str:
    try:
        return [e.name for e in existing_entries("ns", csvs, [], fail_forward=True)]
    except SourceError as exc:
        return str(exc)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(PHASES), st.none() | st.integers(0, 7)),
        min_size=1,
        max_size=8,
    )
)
def test_one_walk_per_namespace_decides_as_a_walk_per_csv(
    shape: list[tuple[str, int | None]],
) -> None:
    """Random graphs over 8 names: chains, forks, loops, self-replacement, missing targets."""
    csvs = [
        _csv(f"c{i}", phase, None if target is None else f"c{target}")
        for i, (phase, target) in enumerate(shape)
    ]
    assert _actual(csvs) == _expected(csvs)


def test_a_loop_names_the_csv_the_walk_comes_back_to() -> None:
    """b replaces a, c replaces b, d replaces c and a replaces d; e replaces c too but OLM's
    map keeps one successor per CSV (the last listed: d)."""
    loop = [
        _csv("a", "Replacing", "d"),
        _csv("b", "Replacing", "a"),
        _csv("e", "Replacing", "c"),
        _csv("c", "Replacing", "b"),
        _csv("d", "Replacing", "c"),
    ]
    assert _actual(loop) == _expected(loop) == "csv ns/a has already been seen"
    assert _actual(loop[1:]) == _expected(loop[1:])


def test_a_chain_of_5000_replacing_csvs_ending_in_failure_keeps_only_the_failed_one() -> None:
    n = 5000
    csvs = [
        _csv(f"v{i}", "Failed" if i == n - 1 else "Replacing", f"v{i - 1}" if i else None)
        for i in range(n)
    ]
    assert _actual(csvs) == [f"v{n - 1}"]
