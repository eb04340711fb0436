"""The Fleet dashboard's sessions (``olmtui --fleet``, ``olmtui replay --fleet``): one Session
per target, built once and kept, so that opening a cluster from the Fleet view and coming
back is instant, and each target's row, read from its own analysis.

Snapshot targets are loaded as ``check`` loads them (``fleet.target_session``). Live targets
are connected all at once first, each within ``--connect-timeout`` (at most ``--jobs`` at a
time), then followed by their own watcher (the dashboard's, ``build.watched_session``),
which keeps running while another cluster is shown. A target that cannot be read is a row
with its status and one line of reason, as ``check --fleet`` reports it (R-FLT-1); a live one
can be connected again (:meth:`FleetSessions.retry`).

A row's numbers are the target's own report's (``model/fleet/row.py``): the same
``summary`` ``check --fleet`` prints for it, recomputed only when the target's analysis moved.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from olmtui.errors import UsageError
from olmtui.model.fleet.rollup import rollup
from olmtui.model.fleet.row import TargetCounts, target_counts
from olmtui.model.records.catalog import Catalog
from olmtui.pipeline.fleet import (
    FleetSettings,
    TargetStatus,
    _live_options,
    _one_line,
    failure_status,
    kept_fields,
    target_session,
)
from olmtui.pipeline.fleet_runner import LIVE_DEFAULT
from olmtui.pipeline.fleet_targets import Target
from olmtui.pipeline.session import Session

#: Seconds a target's report is kept after its analysis moved before it is made again: a
#: busy live cluster moves it many times a second, and a report reads the whole cluster.
REPORT_EVERY = 2.0
#: A row's status: ``check --fleet``'s, or ``loading``/``syncing`` while a target is read.
RowStatus = str


@dataclass(eq=False)
class FleetEntry:
    """One target of the dashboard: its session when it was read, else why not."""

    target: Target
    session: Session | None
    failed: TargetStatus | None = None
    reason: str | None = None
    _kept: tuple[Hashable, dict[str, Any]] | None = field(default=None, repr=False)
    #: How many times the report was made: what a row drawn from it was drawn from.
    reports_made: int = 0
    #: When ``_kept`` was made (``time.monotonic``).
    _made: float = field(default=0.0, repr=False)

    @property
    def name(self) -> str:
        return self.target.name

    @property
    def shown(self) -> str:
        """What the target reads, as the user would write it."""
        return self.target.shown

    @property
    def kind(self) -> str:
        """``live`` or ``snapshot``."""
        return self.target.kind

    async def watch(self) -> None:
        """The target's watcher (its session's runner) for as long as the app runs; one
        that ends with an error makes the row say so."""
        session = self.session
        if session is None or session.runner is None:
            return
        try:
            await session.runner()
        except UsageError as exc:
            self.failed, self.reason = failure_status(exc), _one_line(str(exc))

    def status(self) -> tuple[RowStatus, str | None]:
        """The row's status and reason now (a live target's follow its watcher)."""
        session = self.session
        if self.failed is not None or session is None:
            return self.failed or "bad-input", self.reason
        if session.loading_now:
            return "loading", None
        state = session.status() if session.status is not None else None
        if state is not None and state.state not in ("live", "live, partial"):
            if state.state in ("syncing", "unavailable"):  # its first lists, or before them
                return "syncing", None
            return "unreachable", state.detail or state.state  # reconnecting, or failed
        unreadable = sorted(u.scope for u in session.store.unreadable.values())
        if unreadable:  # as ``fleet.read_target`` says it
            return (
                "partial",
                f"may not read {', '.join(unreadable)} (403); the report holds the rest",
            )
        return "ok", None

    def counts(self) -> TargetCounts | None:
        """The row's numbers from the target's own report; None while it is not read (a
        live target still syncing claims nothing, R-SRC-1)."""
        kept = self.kept()
        return None if kept is None else target_counts(kept)

    def kept(self) -> dict[str, Any] | None:
        """The target's report as ``check --fleet`` keeps it (``fleet.kept_fields``), made
        again only when its analysis moved; None while it is not read."""
        session = self.session
        if session is None or self.status()[0] not in ("ok", "partial"):
            return None
        stamp = session.analysis.shown_stamp()
        now = time.monotonic()
        if self._kept is None or (self._kept[0] != stamp and now - self._made >= REPORT_EVERY):
            self._kept = (stamp, kept_fields(session.analysis.report()))
            self._made = now
            self.reports_made += 1
        return self._kept[1]


@dataclass
class FleetSessions:
    """Every target's entry, in name order (as ``check --fleet`` sorts them)."""

    entries: list[FleetEntry]
    settings: FleetSettings
    catalogs: list[Catalog]
    jobs: int | None = None

    def entry(self, name: str) -> FleetEntry | None:
        return next((e for e in self.entries if e.name == name), None)

    def sessions(self) -> list[Session]:
        """The sessions built, one per target read."""
        return [e.session for e in self.entries if e.session is not None]

    def rollup(self) -> dict[str, Any]:
        """What only the fleet shows (R-FLT-2..6) over the targets read now, every row's
        status counted."""
        statuses = {e.name: e.status()[0] for e in self.entries}
        reports = {e.name: kept for e in self.entries if (kept := e.kept()) is not None}
        return rollup(reports, statuses)

    def owns(self, session: Session) -> bool:
        """Whether ``session`` is one of the targets' (its watcher runs for the fleet)."""
        return any(e.session is session for e in self.entries)

    def retry(self, name: str) -> FleetEntry | None:
        """Connect a live target that failed again; its new entry when it is now read,
        None when it still fails (its reason updated) or is no live target that failed."""
        found = self.entry(name)
        if found is None or found.session is not None or found.target.kind != "live":
            return None
        if found.target.problem is not None:
            return None
        fresh = _live_entries([found.target], self.settings, self.catalogs, 1)[0]
        found.failed, found.reason, found.session = fresh.failed, fresh.reason, fresh.session
        return found if found.session is not None else None


def open_fleet(
    targets: Sequence[Target],
    settings: FleetSettings,
    jobs: int | None = None,
    on_entry: Callable[[FleetEntry, float], None] | None = None,
) -> FleetSessions:
    """Every target's entry: snapshots loaded, live clusters connected (not yet watched:
    the app runs each session's runner, ``FleetEntry.session.runner``); each handed to
    ``on_entry`` with the seconds it took as it is made (the command's progress)."""
    from olmtui.sources.catalog.catalogs import load_catalog

    catalogs = [load_catalog(spec) for spec in settings.catalog_specs]
    lives = [t for t in targets if t.kind == "live" and t.problem is None]
    began = time.monotonic()
    built = {e.name: e for e in _live_entries(lives, settings, catalogs, jobs)}
    entries: list[FleetEntry] = []
    for entry in built.values():
        entries.append(entry)
        if on_entry is not None:
            on_entry(entry, time.monotonic() - began)
    for target in targets:
        if target.name not in built:
            began = time.monotonic()
            entries.append(_snapshot_entry(target, settings))
            entries[-1].kept()  # its report now, with the load: not all at the first paint
            if on_entry is not None:
                on_entry(entries[-1], time.monotonic() - began)
    entries.sort(key=lambda e: e.name)
    return FleetSessions(entries, settings, catalogs, jobs)


def _snapshot_entry(target: Target, settings: FleetSettings) -> FleetEntry:
    """A snapshot target loaded (or a target known unreadable before reading)."""
    try:
        session = target_session(target, settings)
    except UsageError as exc:
        return FleetEntry(target, None, failure_status(exc), _one_line(str(exc)))
    session.label = target.name
    return FleetEntry(target, session)


def _live_entries(
    targets: Sequence[Target], settings: FleetSettings, catalogs: list[Catalog], jobs: int | None
) -> list[FleetEntry]:
    """The live targets, each reached within the connect timeout, all at once."""
    if not targets:
        return []
    problems = asyncio.run(_reach_all(targets, settings, jobs or LIVE_DEFAULT))
    entries: list[FleetEntry] = []
    for target, problem in zip(targets, problems, strict=True):
        if problem is not None:
            entries.append(
                FleetEntry(target, None, failure_status(problem), _one_line(str(problem)))
            )
            continue
        from olmtui.pipeline.build import watched_session

        session = watched_session(
            _live_options(target, settings),
            catalogs,
            settings.global_namespace,
            settings.next_catalogs,
        )
        session.label = target.name
        entries.append(FleetEntry(target, session))
    return entries


async def _reach_all(
    targets: Sequence[Target], settings: FleetSettings, jobs: int
) -> list[UsageError | None]:
    """At most ``jobs`` (``--jobs``, else ``check --fleet``'s default) connect at once."""
    bound = asyncio.Semaphore(jobs)

    async def reach(target: Target) -> UsageError | None:
        async with bound:
            return await _reach(target, settings)

    return list(await asyncio.gather(*(reach(t) for t in targets)))


async def _reach(target: Target, settings: FleetSettings) -> UsageError | None:
    """Why ``target`` cannot be reached (None: it can), as the dashboard's probe says it."""
    from olmtui.sources.cluster.live import LiveSource
    from olmtui.sources.cluster.live_once import connect_within
    from olmtui.store import Store

    options = _live_options(target, settings)
    probe = LiveSource(Store(), options)
    try:
        await connect_within(probe, settings.connect_timeout, "--connect-timeout")
    except UsageError as exc:
        return exc
    finally:
        await probe.close()
    return None
