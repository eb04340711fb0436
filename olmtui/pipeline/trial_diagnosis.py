"""A trial with its incidents: ``olmtui whatif`` and the dashboard's remedy preview say
which incidents clear and which appear, not only which findings (R-DIAG-8, R-DIAG-9).

The incidents after are diagnosed on the trial's own cache, while it holds the changed
state (``Simulator.trial``); those before on the cache as observed (the session's own, put
back once the trial ends), so both are ``check``'s diagnosis of their state.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from olmtui.frozen import frozen
from olmtui.model.diagnosis.incidents import diagnose
from olmtui.model.incremental.engine import Model
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.diagnosis import Change, Incident, Remedy
from olmtui.model.records.types import Finding
from olmtui.pipeline.resolution_inputs import default_global_namespace
from olmtui.pipeline.simulation import Simulator
from olmtui.pipeline.simulation_outcome import Outcome
from olmtui.store import Store


@frozen
class DiagnosedOutcome:
    """One trial's :class:`Outcome` and the incidents before and after it; ``cleared`` and
    ``new`` compare incidents by their root (its finding key)."""

    outcome: Outcome
    before: tuple[Incident, ...]
    after: tuple[Incident, ...]

    @property
    def cleared(self) -> tuple[Incident, ...]:
        roots = {i.root for i in self.after}
        return tuple(i for i in self.before if i.root not in roots)

    @property
    def new(self) -> tuple[Incident, ...]:
        roots = {i.root for i in self.before}
        return tuple(i for i in self.after if i.root not in roots)


def _incidents(
    findings: Sequence[Finding], store: Store, global_ns: str | None
) -> tuple[Incident, ...]:
    return tuple(
        diagnose(findings, store, global_ns or default_global_namespace(store)).incidents()
    )


def diagnosed_trial(
    simulator: Simulator, changes: Sequence[Change], store: Store, global_ns: str | None
) -> DiagnosedOutcome:
    """The outcome of ``changes`` with its incidents. ``store`` is the session's cache
    (observed state once the trial is put back); ``global_ns`` the session's global catalog
    namespace, None for OLM's default for the objects held (R-RES-3). ``ChangeError`` when
    a change cannot be applied."""
    with simulator.trial(changes) as (outcome, changed):
        after = _incidents(outcome.after, changed, global_ns)
    return DiagnosedOutcome(outcome, _incidents(outcome.before, store, global_ns), after)


@frozen
class RemedyPreview:
    """What the dashboard shows for one incident's root remedy: the plan (its steps, whether
    it was ``simulated`` and what the run showed or what was missing) and, when its steps
    change the state olmtui holds, the trial of them with its incidents. ``trial`` is None
    when nothing could be tried (no step changes an object, or a change could not be
    applied: ``why`` says which)."""

    incident: Incident
    remedy: Remedy | None
    trial: DiagnosedOutcome | None
    why: str


def preview_remedy(
    incident: Incident,
    remedy: Remedy | None,
    simulator: Simulator,
    store: Store,
    global_ns: str | None,
) -> RemedyPreview:
    """The preview of ``remedy`` (the root finding's, ``None`` when there is nothing to do)
    proven as ``check`` proves it (``Simulator.verify``), then tried with its incidents.
    Runs the simulation: off the UI thread."""
    from olmtui.model.diagnosis.changes import ChangeError

    if remedy is None:
        return RemedyPreview(incident, None, None, "nothing to do for this finding")
    verified = simulator.verify(remedy, {incident.root, *incident.consequences})
    changes = [c for step in remedy.steps for c in step.changes]
    if not changes:
        return RemedyPreview(incident, verified, None, "no step changes an object olmtui holds")
    try:
        trial = diagnosed_trial(simulator, changes, store, global_ns)
    except ChangeError as exc:
        return RemedyPreview(incident, verified, None, str(exc))
    return RemedyPreview(incident, verified, trial, "")


@frozen
class FrozenSource:
    """A session's state taken on the UI thread (``SimulationSource``), for a simulation
    run in a worker while the session's cache moves on: the cache copied (the objects
    shared, ``Store.copy``), the catalogs and loader findings as they were. ``model`` is the
    session's, read only for its version: the trial's own model is built over ``store``."""

    store: Store
    model: Model
    catalogs: Callable[[], list[Catalog]]
    load_findings: list[Finding]
    clock: Callable[[], dt.datetime] | None
    global_namespace: str | None


def frozen_source(
    store: Store,
    model: Model,
    catalogs: list[Catalog],
    load_findings: list[Finding],
    clock: Callable[[], dt.datetime] | None,
    global_namespace: str | None,
) -> FrozenSource:
    """The state now, copied on the UI thread (the cache is only read there)."""
    return FrozenSource(
        store.copy(), model, lambda: catalogs, list(load_findings), clock, global_namespace
    )
