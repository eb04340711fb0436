"""The resolver's findings on the dashboard (R-RES-18, R-RES-19, R-RES-22), as ``olmtui
check`` draws them from ``resolution[]``, kept current off the UI thread.

Resolving a whole cluster against a large catalog takes most of a second, so it never runs
on the UI thread: the app's ticker calls :meth:`PredictedFindings.follow` (through
``Analysis.follow_resolution``), which gathers the namespaces' objects on the UI thread (the
only thread that may read the cache) and resolves them in a thread worker, one run at a time
and at most once every :data:`MIN_INTERVAL` seconds, when the inputs moved since the last
run. A namespace whose objects (and the content) are the very ones of the last run keeps its
last resolution. Without catalog content with edges (``--catalog``, the demo's) none of these
findings can appear and nothing runs at all.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from olmtui.frozen import frozen
from olmtui.model.records.types import Finding
from olmtui.model.rules.resolution.outcome_findings import (
    ALREADY_SAID,
    resolution_outcome_findings,
)
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.pipeline.resolution_inputs import ResolutionInputs

#: One namespace's inputs and what they resolved to.
Resolved = tuple[ResolutionInputs, NamespaceResolution]
#: Seconds between the starts of two runs: a live cluster changes often, resolving is slow.
MIN_INTERVAL = 3.0


class WorkerHost(Protocol):
    """What runs a run off the UI thread and brings its result back (the Textual app)."""

    def run_worker(
        self, work: Callable[[], object], *, group: str, exit_on_error: bool, thread: bool
    ) -> object: ...

    def call_from_thread(self, callback: Callable[..., None], *args: object) -> object: ...


@frozen
class _Run:
    """One run's inputs, gathered on the UI thread."""

    version: object
    namespaces: tuple[ResolutionInputs, ...]
    #: The findings already saying a namespace resolves nothing (R-SUB-7, R-SUB-9), as
    #: ``check`` passes its health and model findings to ``resolution_outcome_findings``.
    known: tuple[Finding, ...]


class PredictedFindings:
    """The resolution findings and resolutions of one session, and a generation that moves
    when either does.
    ``stamp`` says what a run depends on now (the objects and the catalog list); ``gather``
    takes the inputs of every namespace holding a Subscription (on the UI thread)."""

    def __init__(
        self,
        stamp: Callable[[], object],
        gather: Callable[[], tuple[ResolutionInputs, ...]],
    ) -> None:
        self._stamp = stamp
        self._gather_inputs = gather
        #: The findings of the last run, in no particular order (the Analysis merges them).
        self.findings: tuple[Finding, ...] = ()
        self.generation = 0
        #: How many runs have finished (tests, and nothing else, read it).
        self.runs = 0
        self._busy = False
        self._version: object = None
        self._started = float("-inf")
        self._last: dict[str, Resolved] = {}
        #: The resolutions of the last run, by namespace (what installs next, R-RES-17).
        self.resolutions: tuple[NamespaceResolution, ...] = ()

    def follow(self, host: WorkerHost, known: Callable[[], Sequence[Finding]]) -> None:
        """Start a run in a thread worker when the inputs moved since the last one, none is
        running and the last started :data:`MIN_INTERVAL` seconds ago. ``known`` gives the
        dashboard's other findings now (asked only when a run starts, on the UI thread)."""
        if self._busy:
            return
        stamp = self._stamp()
        if stamp == self._version or time.monotonic() - self._started < MIN_INTERVAL:
            return
        run = _Run(
            stamp,
            self._gather_inputs(),
            tuple(f for f in known() if f.code in ALREADY_SAID),
        )
        self._busy = True
        self._started = time.monotonic()
        host.run_worker(
            lambda: host.call_from_thread(self._done, run, self._resolve(run)),
            thread=True,
            group="predicted-findings",
            exit_on_error=False,
        )

    def _resolve(self, run: _Run) -> list[Resolved]:
        """In the worker: each namespace's resolution, the last one where nothing moved."""
        out: list[Resolved] = []
        for given in run.namespaces:
            last = self._last.get(given.objects.namespace)
            if last is not None and given.same_as(last[0]):
                out.append(last)
                continue
            try:
                result = given.resolve()
            except Exception as exc:  # not evaluated, never fatal to the dashboard
                result = NamespaceResolution(
                    given.objects.namespace, "not-evaluated", f"olmtui could not resolve: {exc}"
                )
            out.append((given, result))
        return out

    def _done(self, run: _Run, resolved: list[Resolved]) -> None:
        """On the UI thread: keep the results; a new generation when the findings moved."""
        self._busy = False
        self._version = run.version
        self.runs += 1
        self._last = {given.objects.namespace: (given, result) for given, result in resolved}
        found = tuple(
            resolution_outcome_findings(
                (result for _, result in resolved), catalog_content=True, known=run.known
            )
        )
        results = tuple(result for _, result in resolved)
        if found != self.findings or results != self.resolutions:
            self.findings = found
            self.resolutions = results
            self.generation += 1
