"""R-CSV-R / R-CSV-R2: replacement chains on the cluster (§15.15)."""

from __future__ import annotations

from model_builders import codes, model_of, namespace, operator_group
from model_builders import csv as make_csv

from olmtui.model.replacements import replaced_by, replacement_cycle, replaces_existing

CHAIN = {"v1": None, "v2": "v1", "v3": "v2", "gone-parent": "v0"}


def test_r_csv_r2_being_replaced_and_replacing():
    assert replaced_by("v1", CHAIN) == "v2"
    assert replaced_by("v3", CHAIN) is None
    assert replaces_existing("v2", CHAIN) == "v1"
    assert replaces_existing("gone-parent", CHAIN) is None
    assert replaces_existing("self", {"self": "self"}) is None


def test_r_csv_r_cycles_are_found_from_any_member():
    loop = {"a": "b", "b": "c", "c": "a", "d": "a"}
    assert replacement_cycle("a", loop) == ("a", "b", "c")
    assert replacement_cycle("b", loop) == ("b", "c", "a")
    assert replacement_cycle("d", loop) == ()
    assert replacement_cycle("v3", CHAIN) == ()


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
    """Issue 11: while OLM holds v2 for v1's OperatorCondition (R-CSV-P 1), nothing says v1
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
