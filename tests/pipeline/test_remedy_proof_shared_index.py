"""``check``'s remedy proofs run in place on the session's own cache and model, so their
trials share the session's health index (``SimulatedState`` with ``index``) instead of
building a second one that computes every finding again and follows every trial twice; the
report is the same as with an index of the trials' own. Their state at rest takes the
report's own resolutions, not every namespace resolved a second time, while nothing moved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from olmtui.model.incremental.health_index import HealthIndex
from olmtui.pipeline import simulated_state
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.simulation import Simulator


def _counting(monkeypatch: pytest.MonkeyPatch) -> tuple[list[HealthIndex], list[int]]:
    """The health indexes the trials' state builds from now on, and a count of the
    trials' states built."""
    built: list[HealthIndex] = []
    states: list[int] = []
    state = simulated_state.SimulatedState.__init__

    def counted_state(self: Any, *args: Any) -> None:
        states.append(1)
        state(self, *args)

    class Counted(HealthIndex):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(simulated_state, "HealthIndex", Counted)
    monkeypatch.setattr(simulated_state.SimulatedState, "__init__", counted_state)
    return built, states


def test_the_remedy_proofs_share_the_sessions_index(
    small_must_gather: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = snapshot_session([str(small_must_gather)], [])
    built, states = _counting(monkeypatch)
    report = session.analysis.report(verify_remedies=True)
    assert states  # trials were made
    assert built == []
    session.analysis.simulator(in_place=True).close()  # the session's index stays open
    assert session.analysis.report(verify_remedies=True) == report


def test_the_report_is_the_one_an_index_of_the_trials_own_gives(
    small_must_gather: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = snapshot_session([str(small_must_gather)], []).analysis.report(verify_remedies=True)
    made = Simulator.__init__

    def without_index(self: Simulator, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **{**kwargs, "index": None})

    monkeypatch.setattr(Simulator, "__init__", without_index)
    built, _ = _counting(monkeypatch)
    own = snapshot_session([str(small_must_gather)], []).analysis.report(verify_remedies=True)
    assert built  # the trials built their own index
    assert own == shared


def test_the_remedy_proofs_take_the_reports_resolutions(
    small_must_gather: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = snapshot_session([str(small_must_gather)], [])
    asked: list[object] = []
    resolve = simulated_state.SimulatedState.resolve

    def counted(self: Any, only: Any) -> Any:
        asked.append(only)
        return resolve(self, only)

    monkeypatch.setattr(simulated_state.SimulatedState, "resolve", counted)
    _, states = _counting(monkeypatch)
    report = session.analysis.report(verify_remedies=True)
    assert states  # trials were made, on a state at rest that resolved nothing itself
    assert None not in asked
    state = session.analysis.simulator(in_place=True)._state()
    assert state.resolutions == {r.namespace: r for r in resolve(state, None)}
    monkeypatch.setattr(Simulator, "__init__", _without_at_rest(Simulator.__init__))
    again = snapshot_session([str(small_must_gather)], []).analysis.report(verify_remedies=True)
    assert None in asked  # resolved them all itself, and said the same
    assert again == report


def _without_at_rest(made: Any) -> Any:
    def init(self: Simulator, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **{**kwargs, "at_rest": None})

    return init


def test_the_reports_resolutions_are_not_taken_once_the_cache_moved(
    small_must_gather: Path,
) -> None:
    session = snapshot_session([str(small_must_gather)], [])
    analysis = session.analysis
    analysis.report()
    assert analysis._reported_resolutions() is not None
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "arrived"}}
    session.store.apply("ADDED", namespace)
    assert analysis._reported_resolutions() is None
