"""R-CSV-R / R-CSV-R2: replacement chains on the cluster."""

from __future__ import annotations

import sys

from data_paths import ROOT
from model_builders import codes, model_of, namespace, operator_group
from model_builders import csv as make_csv

from olmtui.model.rules.csvs.replacements import ReplacementIndex

CHAIN = ReplacementIndex({"v1": None, "v2": "v1", "v3": "v2", "gone-parent": "v0"})


def test_r_csv_r2_being_replaced_and_replacing():
    assert CHAIN.replaced_by("v1") == "v2"
    assert CHAIN.replaced_by("v3") is None
    assert CHAIN.replaces_existing("v2") == "v1"
    assert CHAIN.replaces_existing("gone-parent") is None
    assert ReplacementIndex({"self": "self"}).replaces_existing("self") is None


def test_r_csv_r2_the_first_successor_by_name_is_the_one_replacing():
    index = ReplacementIndex({"v1": None, "v2-b": "v1", "v2-a": "v1", "self": "self"})
    assert index.replaced_by("v1") == "v2-a"
    assert index.replaced_by("self") is None


def test_r_csv_r_cycles_are_found_from_any_member():
    loop = ReplacementIndex({"a": "b", "b": "c", "c": "a", "d": "a"})
    assert loop.cycle("a") == ("a", "b", "c")
    assert loop.cycle("b") == ("b", "c", "a")
    assert loop.cycle("d") == ()
    assert CHAIN.cycle("v3") == ()


def test_r_csv_r_a_loop_reached_from_a_tail_is_found_once_and_the_tail_is_not_on_it():
    """The loop is found wherever the walk enters it (here from the tail first)."""
    index = ReplacementIndex({"t2": "t1", "t1": "a", "c": "b", "b": "a", "a": "c"})
    assert index.cycle("b") == ("b", "a", "c")
    assert index.cycle("c") == ("c", "b", "a")
    assert index.cycle("t1") == index.cycle("t2") == ()


def test_r_csv_r_a_chain_of_thousands_is_indexed_without_walking_it_per_member():
    """Deeper than Python's recursion limit, and each question constant time."""
    n = 5000
    replaces = {f"v{i}": f"v{i - 1}" if i else None for i in range(n)}
    index = ReplacementIndex(replaces)
    assert index.replaced_by("v0") == "v1"
    assert index.replaces_existing(f"v{n - 1}") == f"v{n - 2}"
    assert index.cycle("v10") == ()
    assert index.same_chain("v0", f"v{n - 1}")
    looped = ReplacementIndex({**replaces, "v0": f"v{n - 1}"})
    assert len(looped.cycle("v7")) == n
    assert looped.cycle("v7")[:2] == ("v7", "v6")


def test_r_csv_r_three_csvs_replacing_each_other_give_the_same_cycle_findings():
    """The indexed walk keeps the findings of a small loop as they were."""
    model, _ = model_of(
        namespace("n"),
        operator_group("n", "g", status=[""]),
        make_csv("n", "a", group="g", targets="", replaces="c"),
        make_csv("n", "b", group="g", targets="", replaces="a"),
        make_csv("n", "c", group="g", targets="", replaces="b"),
    )
    cycles = {f.name: f.message for f in model.findings() if f.code == "ReplacementCycle"}
    assert set(cycles) == {"a", "b", "c"}
    assert "spec.replaces forms a loop: a -> c -> b -> a." in cycles["a"]
    assert "spec.replaces forms a loop: b -> a -> c -> b." in cycles["b"]
    replaced = {f.name: f.message for f in model.findings() if f.code == "BeingReplaced"}
    assert set(replaced) == {"a", "b", "c"}
    assert "b replaces" in replaced["a"]


def test_r_csv_r_a_small_chain_keeps_its_findings():
    """v1 <- v2 <- v3, the two older Replacing: BeingReplaced on each older CSV,
    naming its successor, and the Replacing phase explained by it."""
    model, _ = model_of(
        namespace("n"),
        operator_group("n", "g", status=[""]),
        make_csv("n", "v1", group="g", targets="", phase="Replacing", reason="BeingReplaced"),
        make_csv("n", "v2", group="g", targets="", replaces="v1", phase="Replacing", reason="x"),
        make_csv("n", "v3", group="g", targets="", replaces="v2"),
    )
    by_name = {(f.name, f.code): f.message for f in model.findings()}
    assert sorted(k for k in by_name if k[1] == "BeingReplaced") == [
        ("v1", "BeingReplaced"),
        ("v2", "BeingReplaced"),
    ]
    assert "v2 replaces" in by_name[("v1", "BeingReplaced")]
    assert "v3 replaces" in by_name[("v2", "BeingReplaced")]
    assert "ReplacementCycle" not in codes(model)


def test_r_csv_r_findings_name_successor_and_waiting_link():
    model, _ = model_of(
        namespace("n"),
        operator_group("n", "g", status=[""]),
        make_csv("n", "v1", group="g", targets=""),
        make_csv("n", "v2", group="g", targets="", replaces="v1"),
        make_csv(
            "n",
            "v3",
            group="g",
            targets="",
            phase="Pending",
            reason="RequirementsUnknown",
            replaces="v2",
        ),
    )
    replaced = {f.name: f for f in model.findings() if f.code == "BeingReplaced"}
    assert set(replaced) == {"v1", "v2"}
    assert "v2 replaces" in replaced["v1"].message
    assert "waits until that one is gone" in replaced["v2"].message
    assert "ReplacementCycle" not in codes(model)


def test_r_csv_r_cycle_is_a_warning():
    model, _ = model_of(
        namespace("n"),
        operator_group("n", "g", status=[""]),
        make_csv("n", "a", group="g", targets="", replaces="b"),
        make_csv("n", "b", group="g", targets="", replaces="a"),
    )
    cycles = [f for f in model.findings() if f.code == "ReplacementCycle"]
    assert {f.name for f in cycles} == {"a", "b"}
    assert all(f.severity == "warning" for f in cycles)


def test_r_csv_p_a_held_successor_does_not_replace_anything_yet():
    """While OLM holds v2 for v1's OperatorCondition (R-CSV-P 1), nothing says v1
    is being replaced; once v2 moves on, BeingReplaced comes back."""
    held = make_csv(
        "n",
        "v2",
        group="g",
        targets="",
        phase="Pending",
        reason="OperatorConditionNotUpgradeable",
        replaces="v1",
    )
    model, store = model_of(
        namespace("n"),
        operator_group("n", "g", status=[""]),
        make_csv("n", "v1", group="g", targets=""),
        held,
    )
    assert "BeingReplaced" not in codes(model, "v1")
    store.apply("MODIFIED", {**held, "status": {"phase": "InstallReady", "reason": "x"}})
    assert "BeingReplaced" in codes(model, "v1")


def test_r_csv_r_a_loop_is_read_from_any_member_up_to_a_length() -> None:
    loop = ReplacementIndex({"a": "b", "b": "c", "c": "d", "d": "a"})
    assert loop.cycle("c", most=3) == ("c", "d", "a")
    assert loop.cycle("c", most=9) == ("c", "d", "a", "b")
    assert loop.loop_size("b") == 4
    assert CHAIN.loop_size("v2") == 0


def test_r_csv_r_a_loop_of_thousands_names_a_dozen_csvs_in_each_finding() -> None:
    """Each member's finding listing the whole loop made a loop of 2,000 CSVs hold
    4 million names (half a gigabyte); each names the loop's first CSVs and its length."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_replaces_chain import chain_objects, csv_name

    model, _ = model_of(*chain_objects(2000, cycle=True))
    cycles = {f.name: f for f in model.findings() if f.code == "ReplacementCycle"}
    assert len(cycles) == 2000
    first = cycles[csv_name(5)]
    names = " -> ".join(csv_name(i % 2000) for i in range(5, -7, -1))
    assert f"spec.replaces forms a loop (2000 CSVs): {names} -> ... -> {csv_name(5)}." in (
        first.message
    )
    assert all(len(f.related) == 11 for f in cycles.values())
