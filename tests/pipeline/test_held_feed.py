"""A remedy proof's trial holds the cache's feed back from the model and what follows it
(``Store.hold_feed``): the reactions read only the cache and the objects kept by namespace,
so a trial that ends at a reaction olmtui does not model (approving a plan without the
manifests it installs, in every namespace of a cluster) puts the cache back without the
model ever following the change and its undoing. A trial that goes on hands the changes on
first; either way the report is the one a model following every change gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from model_builders import namespace

from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.store import Change as StoreChange
from olmtui.store import HeldFeed, Store


def test_a_held_feed_passes_one_subscriber_and_keeps_the_rest_in_order() -> None:
    store = Store()
    passed: list[list[StoreChange]] = []
    others: list[list[StoreChange]] = []
    store.subscribe(passed.append)
    store.subscribe(others.append)
    feed = store.hold_feed(passed.append)
    with pytest.raises(RuntimeError):
        store.hold_feed(passed.append)
    store.apply("ADDED", namespace("a"))
    store.apply("ADDED", namespace("b"))
    assert [c.key.name for batch in passed for c in batch] == ["a", "b"]
    assert others == []
    feed.release()
    assert others == passed  # as published, batch by batch, the passing one not twice
    store.apply("ADDED", namespace("c"))
    assert [len(p) for p in (passed, others)] == [3, 3]  # no longer held


def test_a_closed_feed_lets_what_it_kept_go() -> None:
    store = Store()
    others: list[list[StoreChange]] = []
    store.subscribe(others.append)
    feed = store.hold_feed(lambda changes: None)
    store.apply("ADDED", namespace("a"))
    feed.close()
    feed.close()  # once is enough
    assert others == []
    store.apply("ADDED", namespace("b"))
    assert [c.key.name for batch in others for c in batch] == ["b"]


def test_a_trial_ended_at_a_reaction_not_modelled_leaves_the_model_as_it_was(
    small_must_gather: Path,
) -> None:
    session = snapshot_session([str(small_must_gather)], [])
    plan = next(
        p
        for p in session.store.list("InstallPlan")
        if p["status"].get("phase") == "RequiresApproval"
    )
    target = ObjectRef("InstallPlan", plan["metadata"]["namespace"], plan["metadata"]["name"])
    simulator = session.analysis.simulator(in_place=True)
    version = session.model.version
    told: list[list[StoreChange]] = []
    session.store.subscribe(told.append)
    with simulator.trial([Change("approve", target)], proof=True) as (outcome, store):
        assert outcome.missing  # the plan carries no manifest: not simulated
        assert store.get("InstallPlan", target.namespace, target.name)["spec"]["approved"]
    assert told == []
    assert session.model.version == version
    assert session.store.get("InstallPlan", target.namespace, target.name) == plan
    with simulator.trial([Change("approve", target)]) as (outcome, _):
        assert told  # a whatif goes past the reactions: the model follows
    simulator.close()


def test_the_report_is_the_one_a_model_following_every_trial_gives(
    small_must_gather: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = snapshot_session([str(small_must_gather)], []).analysis.report(verify_remedies=True)
    monkeypatch.setattr(HeldFeed, "close", HeldFeed.release)
    told: list[int] = []
    keep = HeldFeed.keep

    def counted(self: HeldFeed, changes: list[StoreChange]) -> None:
        told.append(len(changes))
        keep(self, changes)

    monkeypatch.setattr(HeldFeed, "keep", counted)
    followed = snapshot_session([str(small_must_gather)], []).analysis.report(verify_remedies=True)
    assert told  # the trials' changes (and their undoing) reached the model this time
    assert followed == held
