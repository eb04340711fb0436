"""The model's recomputation order: a stage may only mark later stages dirty."""

from __future__ import annotations

import pytest
from model_builders import csv, model_of, namespace, operator_group

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.stages import DirtySet, Stage, StageOrderError


def test_a_stage_may_mark_later_stages() -> None:
    dirty = DirtySet()
    dirty.targets.add(("ns", "og"))
    assert dirty.take(Stage.TARGETS) == {("ns", "og")}
    dirty.csvs.add(("ns", "csv"))
    dirty.sources.setdefault(("ns", "csv"), set()).add("other")
    dirty.subscriptions |= {"ns"}
    assert dirty.take(Stage.LINKS) == set()
    assert dirty.take(Stage.LINK_PATCHES) == set()
    assert dirty.take(Stage.CSVS) == {("ns", "csv")}
    assert dirty.take(Stage.SOURCES) == {("ns", "csv"): {"other"}}
    assert dirty.take(Stage.COPIES) == set()
    assert dirty.take(Stage.SUBSCRIPTIONS) == {"ns"}


def test_a_backwards_mark_is_refused() -> None:
    dirty = DirtySet()
    dirty.take(Stage.TARGETS)
    dirty.take(Stage.LINKS)
    dirty.take(Stage.LINK_PATCHES)
    dirty.take(Stage.CSVS)
    with pytest.raises(StageOrderError, match="TARGETS marked dirty while CSVS runs"):
        dirty.targets.add(("ns", "og"))
    with pytest.raises(StageOrderError):
        dirty.links |= {("ns", "og")}
    with pytest.raises(StageOrderError):
        dirty.link_patches.update({(("ns", "a"), ("ns", "b"))})


def test_a_stage_may_not_mark_itself() -> None:
    dirty = DirtySet()
    for stage in (Stage.TARGETS, Stage.LINKS, Stage.LINK_PATCHES, Stage.CSVS):
        dirty.take(stage)
    with pytest.raises(StageOrderError, match="CSVS marked dirty while CSVS runs"):
        dirty.csvs.add(("ns", "csv"))
    dirty.take(Stage.SOURCES)
    with pytest.raises(StageOrderError):
        dirty.sources.setdefault(("ns", "csv"), set())
    with pytest.raises(StageOrderError):
        dirty.sources[("ns", "csv")] = set()


def test_stages_start_in_order() -> None:
    dirty = DirtySet()
    dirty.take(Stage.CSVS)
    with pytest.raises(StageOrderError, match="LINKS started after CSVS"):
        dirty.take(Stage.LINKS)
    with pytest.raises(StageOrderError):
        dirty.take(Stage.CSVS)


def test_reset_opens_every_stage_for_the_next_batch() -> None:
    dirty = DirtySet()
    for stage in Stage:
        dirty.take(stage)
    dirty.reset()
    dirty.targets.add(("ns", "og"))
    dirty.namespaces.add("ns")
    assert dirty.running is None
    assert dirty.take(Stage.TARGETS) == {("ns", "og")}


def test_the_engine_refuses_a_csv_that_marks_its_group_targets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model, store = model_of(
        namespace("ns"), operator_group("ns", "og", status=["ns"]), csv("ns", "a.v1")
    )

    def backwards(self: Model, key: tuple[str, str]) -> None:
        self._dirty.targets.add(("ns", "og"))

    monkeypatch.setattr(Model, "_recompute_csv", backwards)
    with pytest.raises(StageOrderError, match="TARGETS marked dirty while CSVS runs"):
        store.apply("ADDED", csv("ns", "b.v1"))
    # What the failed batch marked is retried with the next one.
    monkeypatch.undo()
    store.apply("ADDED", namespace("other"))
    fresh = Model(store)
    assert [c.name for c in model.csvs()] == ["a.v1", "b.v1"]
    assert model.csvs() == fresh.csvs()
    assert model.findings() == fresh.findings()
