"""Sessions for every entry point: the sources differ, the wiring after them does not.

Each builder fills a Store from its source and hands it to :func:`_assemble`, the one place
that puts ``--catalog`` content and the store's PackageManifests (:class:`CatalogSet`) under
the Model. A snapshot is read before the Model is built; a live cluster (the dashboard, the
demo) is read by the session's ``runner`` afterwards, and the catalogs and the Model follow
it through the store's change feed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from collections.abc import Awaitable, Callable, Sequence
from importlib.resources import as_file, files
from typing import TYPE_CHECKING

from olmtui.model.incremental.engine import Model
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.input.partial import PartialInput
from olmtui.model.viewmodels.source_facts import newest_time
from olmtui.pipeline.catalogs import CatalogSet, FetchedOnce, LiveCatalogs
from olmtui.pipeline.input_state import snapshot_partial, syncing_partial
from olmtui.pipeline.recording import Recorded, RecordingLoad, RecordTo, recording_partial
from olmtui.pipeline.session import (
    ConnectionState,
    ContextUnavailable,
    InputUnavailable,
    Session,
    SourceInfo,
    SourceKind,
)
from olmtui.report.json_report import LoadSummary
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.sources.recording.moments import utc_text
from olmtui.sources.recording.reader import RecordingTimeline
from olmtui.sources.recording.timeline import load_state
from olmtui.sources.snapshots.load_progress import ProgressCallback
from olmtui.sources.snapshots.must_gather_paths import kind_of_file
from olmtui.sources.snapshots.parallel_load import ready_to_spawn
from olmtui.sources.snapshots.snapshot import LoadResult, list_snapshot, load_snapshot
from olmtui.store import KINDS, Store

if TYPE_CHECKING:
    from olmtui.demo.cluster import DemoCluster
    from olmtui.sources.cluster.live import LiveSource
    from olmtui.sources.cluster.live_status import LiveStatus
    from olmtui.sources.recording.timeline import Timeline

#: The cluster dump shipped in the package, for ``olmtui check --sample``.
SAMPLE = "cluster.yaml"
#: Stream states that will not change by waiting: read, forbidden (403) or not served (404).
SETTLED = frozenset({"live", "no access", "unavailable"})


def wall_clock() -> dt.datetime:
    """Now, in UTC: what a live session measures CSV ages against."""
    return dt.datetime.now(dt.UTC)


def _assemble(
    store: Store,
    kind: SourceKind,
    label: str,
    loaded: Sequence[Catalog],
    *,
    load: LoadSummary | None = None,
    runner: Callable[[], Awaitable[None]] | None = None,
    status: Callable[[], ConnectionState] | None = None,
    upgrade_count: Callable[[], int] | None = None,
    clock: Callable[[], dt.datetime] | None = None,
    info: Callable[[], SourceInfo] | None = None,
    global_namespace: str | None = None,
    live_catalogs: LiveCatalogs | None = None,
) -> Session:
    """Store -> catalogs -> Model -> Analysis, the same for every source. The CatalogSet
    subscribes to the store before the Model does, so PackageManifest changes reach the
    upgrade graphs before the Model asks them; the Session makes its Analysis over them.
    PackageManifests count as whole catalogs only when listed from a cluster (R-DOC-8).
    A followed cluster (a live session, the demo) passes the wall ``clock`` CSV ages are
    measured against; a must-gather its gather time (``gather_clock``); other snapshots,
    and a cluster read once (whose report must equal that of its saved snapshot), none.
    ``global_namespace`` is the catalog operator's global catalog namespace for the
    resolver (None: OLM's default, R-RES-3).
    ``live_catalogs``: ClusterCatalog content a live source fetches from catalogd
    (R-V1-21)."""
    catalogs = CatalogSet(store, loaded, listed_live=kind != "snapshot")
    if live_catalogs is not None:
        catalogs.follow(live_catalogs)
    model = Model(store, upgrades=catalogs.resolve)
    session = Session(
        store,
        model,
        kind,
        label,
        catalogs=catalogs.current,
        load=load,
        runner=runner,
        status=status,
        upgrade_count=upgrade_count,
        clock=clock,
        global_namespace=global_namespace,
    )
    if info is not None:  # else the dataclass default: nothing known of the source
        session.info = info
    session.open_input = lambda path: _open_input(path, loaded, global_namespace)
    return session


async def _open_input(
    path: str, loaded: Sequence[Catalog], global_namespace: str | None
) -> Session:
    """``:open PATH``: another input in the same window, with the same catalog content: a
    recording at its end with its time cursor, anything else streamed in as ``olmtui replay
    PATH`` reads it. A path that cannot be used is one line and the old session stays."""
    from olmtui.errors import UsageError
    from olmtui.sources.recording.format import is_recording
    from olmtui.sources.recording.reader import open_recording

    try:
        if is_recording(path):
            return rewind_session(
                open_recording(path),
                global_namespace=global_namespace,
                history=open_recording(path),
                loaded=loaded,
            )
        return streaming_snapshot_session([path], global_namespace=global_namespace, loaded=loaded)
    except UsageError as exc:
        raise InputUnavailable(str(exc)) from None


def snapshot_info(load: LoadResult, store: Store) -> SourceInfo:
    """A snapshot's moment: its must-gather's ``timestamp`` file (in a folder or an
    archive), else the newest time its objects record (it was taken then or later)."""
    if load.gathered_at is not None:
        return SourceInfo(snapshot_time=load.gathered_at, gathered=True)
    objects = (obj for kind in KINDS for obj in store.list(kind))
    return SourceInfo(snapshot_time=newest_time(objects))


def snapshot_session(
    paths: Sequence[str],
    catalog_specs: Sequence[str] = (),
    label: str | None = None,
    global_namespace: str | None = None,
    progress: ProgressCallback | None = None,
    workers: int | None = None,
    namespaces: Sequence[str] = (),
) -> Session:
    """Saved snapshots, read once (``UsageError`` for a path that cannot be used); the
    header shows ``label`` or the paths; ``progress`` hears of each file read; ``workers``:
    the processes that parse it (``load_snapshot``; a fleet's worker parses in its own);
    ``namespaces``: the ``--namespace`` scope (:func:`scope_to`)."""
    store = Store()
    load = load_snapshot(list(paths), store, progress, workers=workers)
    scope_to(store, namespaces)
    loaded = [load_catalog(spec) for spec in catalog_specs]
    session = _assemble(
        store,
        "snapshot",
        label or " ".join(paths),
        loaded,
        load=load,
        info=_once(load, store),
        global_namespace=global_namespace,
    )
    read_as_loaded(session, load)
    return session


def scope_to(store: Store, namespaces: Sequence[str]) -> None:
    """``--namespace`` on a snapshot: the snapshot as a live session scoped to those
    namespaces reads it — their namespaced objects and every cluster-scoped one — so a
    scoped check says the same of a snapshot as of the cluster it came from, and nothing is
    said missing outside the scope (R-DOC-10). No scope: the whole snapshot."""
    if not namespaces:
        return
    wanted = frozenset(namespaces)
    store.remove_many(
        [
            key
            for kind in KINDS
            for key, _ in store.items(kind)
            if key.namespace not in ("", *wanted)
        ]
    )
    store.read_namespaces = wanted


def read_as_loaded(session: Session, load: LoadResult) -> None:
    """What a snapshot's load says of it, on its session: when it was gathered, the clock
    its ages are measured against (that moment, never today's date: a CSV waiting an hour
    when it was gathered waits an hour in its report, whenever it is read; none when the
    must-gather does not say), and what of it is missing (R-SRC-1)."""
    gathered = load.gathered_at
    session.gathered_at = gathered
    session.clock = None if gathered is None else lambda: gathered
    partial = snapshot_partial(load.cut_short, load.skipped, load.skipped_files, kind_of_file)
    session.partial = lambda: partial


def streaming_snapshot_session(
    paths: Sequence[str],
    catalog_specs: Sequence[str] = (),
    label: str | None = None,
    global_namespace: str | None = None,
    pace: Callable[[], None] | None = None,
    loaded: Sequence[Catalog] = (),
) -> Session:
    """Saved snapshots read while the dashboard is up (``olmtui replay``): the session is
    built over an empty store and its ``runner`` streams the files in off the UI loop
    (``pipeline/streaming.py``); ``session.loading`` says how far it is. The store ends up as
    :func:`snapshot_session` leaves it. ``pace`` slows the load (tests). ``loaded``: catalog
    content another process read already (``olmtui serve``'s sessions), after that of
    ``catalog_specs``."""
    from olmtui.pipeline.streaming import Loading, stream_into

    listing = list_snapshot(list(paths))  # unusable paths: one line, before the screen
    ready_to_spawn(sum(sum(content.sizes) for _, content in listing.contents))
    store = Store()
    loading = Loading()
    catalogs = [*(load_catalog(spec) for spec in catalog_specs), *loaded]
    read = stream_into(store, listing, loading, pace)
    known: list[Callable[[], SourceInfo]] = []

    async def runner() -> None:
        try:
            load = await read()
        finally:
            loading.done = True  # with ``loading.error`` set when it failed
        if load is not None:
            session.load = load
            read_as_loaded(session, load)
            known.append(_once(load, store))
            # what was derived while loading (no findings, see LoadingState) is dropped
            session.analysis.reset()

    session = _assemble(
        store,
        "snapshot",
        label or " ".join(paths),
        catalogs,
        runner=runner,
        info=lambda: known[0]() if known else SourceInfo(),
        global_namespace=global_namespace,
    )
    session.loading = loading
    return session


def _once(load: LoadResult, store: Store) -> Callable[[], SourceInfo]:
    """:func:`snapshot_info` on first use: only the header asks, and ``check`` never pays
    for the pass over every object."""
    found: list[SourceInfo] = []

    def info() -> SourceInfo:
        if not found:
            found.append(snapshot_info(load, store))
        return found[0]

    return info


def sample_session(
    catalog_specs: Sequence[str] = (), global_namespace: str | None = None
) -> Session:
    """The small example cluster shipped with olmtui (``olmtui check --sample``)."""
    with as_file(files("olmtui").joinpath("samples", SAMPLE)) as sample_path:
        return snapshot_session(
            [str(sample_path)], catalog_specs, global_namespace=global_namespace
        )


def cluster_once_session(
    options: LiveOptions,
    catalog_specs: Sequence[str] = (),
    global_namespace: str | None = None,
    connect_timeout: float | None = None,
) -> Session:
    """The cluster of ``options`` listed once and left (``olmtui check --live``);
    ``connect_timeout`` bounds connecting (``check --fleet``: a dead target costs no more)."""
    from olmtui.sources.cluster.live_once import read_cluster_once

    store = Store()
    load = read_cluster_once(options, store, connect_timeout=connect_timeout)
    loaded = [load_catalog(spec) for spec in catalog_specs]
    return _assemble(
        store,
        "live",
        " ".join(load.paths),
        loaded,
        load=load,
        global_namespace=global_namespace,
        live_catalogs=FetchedOnce(load.catalogs),
    )


async def _probe(options: LiveOptions) -> None:
    """Reach the cluster once before the screen opens, so that a bad kubeconfig or an
    unreachable cluster is one line on stderr rather than an empty dashboard; given up
    after ``request_timeout`` seconds, as a one-shot read is."""
    from olmtui.sources.cluster.live import LiveSource
    from olmtui.sources.cluster.live_once import connect_within

    probe = LiveSource(Store(), options)
    try:
        await connect_within(probe, options.request_timeout)
    finally:
        await probe.close()


def live_session(
    options: LiveOptions,
    catalog_specs: Sequence[str] = (),
    global_namespace: str | None = None,
    next_catalogs: Sequence[Catalog] = (),
    record: RecordTo | None = None,
) -> Session:
    """The cluster of ``options`` followed live: connects first (``UsageError`` when the
    cluster cannot be reached), then the app runs the watcher as the session's runner.
    ``next_catalogs``: the ``--next-catalog`` content, read already (R-NXT-1); ``record``:
    the session's store is recorded while it runs (``--record FILE``)."""
    import asyncio  # here: the snapshot modes (check above all) need no event loop

    asyncio.run(_probe(options))
    loaded = [load_catalog(spec) for spec in catalog_specs]
    return _live(options, _Content(loaded, list(next_catalogs)), global_namespace, record)


def watched_session(
    options: LiveOptions,
    catalogs: Sequence[Catalog] = (),
    global_namespace: str | None = None,
    next_catalogs: Sequence[Catalog] = (),
) -> Session:
    """A live session as :func:`live_session` builds it, not probed here: the Fleet
    dashboard (``pipeline/fleet_sessions.py``) has connected every target at once first,
    and loaded the catalog content once for all of them."""
    return _live(options, _Content(list(catalogs), list(next_catalogs)), global_namespace)


@dataclasses.dataclass(frozen=True, slots=True)
class _Content:
    """The catalog content a live session was given (``--catalog``, ``--next-catalog``),
    read once and carried to the session of every context ``:ctx`` switches to."""

    catalogs: list[Catalog]
    next_catalogs: list[Catalog]


def live_recorder(options: LiveOptions, record: RecordTo) -> Callable[[], Awaitable[None]]:
    """``olmtui record``: the live source of a dashboard (GET only, the same informers)
    feeding a Store that only the recording's writer follows: no model, no screen.
    Connects first, as the dashboard does (``UsageError`` in one line when it cannot)."""
    import asyncio

    from olmtui.sources.cluster.live import LiveSource

    asyncio.run(_probe(options))
    store = Store()
    source = LiveSource(store, options)

    async def runner() -> None:
        await source.connect()
        try:
            await source.run()
        finally:
            await source.close()

    context = options.context or None
    return Recorded(runner, store, lambda: source.status, record, context, options.namespaces)


def recording_session(
    timeline: Timeline,
    count: int,
    catalog_specs: Sequence[str] = (),
    global_namespace: str | None = None,
    when: float | None = None,
    label: str | None = None,
) -> Session:
    """A recording as of ``when`` (the state after its first ``count`` changes; ``when``
    defaults to that change's time), built once (``check --at``, ``diff FILE@TIME``): the
    Store filled with that state (``load_state``), the kinds unreadable then, and the clock
    CSV ages are measured against set to the moment, not today. A recording file also says
    which namespaces its recorder read and what it had not read then (R-REC-2, R-REC-3)."""
    moment = timeline.time_of(count) if when is None else when
    recorded = timeline if isinstance(timeline, RecordingTimeline) else None
    store = Store()
    scoped(store, timeline)
    load_state(store, timeline.state(count))
    loaded = [load_catalog(spec) for spec in catalog_specs]
    at = dt.datetime.fromtimestamp(moment, dt.UTC)
    paths = [] if recorded is None else [recorded.path]
    session = _assemble(
        store,
        "recording",
        label or f"{' '.join(paths) or 'recording'} at {utc_text(moment)}",
        loaded,
        load=RecordingLoad(paths, len(store)),
        clock=lambda: at,
        info=lambda: SourceInfo(context=timeline.context or "", snapshot_time=at, gathered=True),
        global_namespace=global_namespace,
    )
    session.recorded_at = at
    if recorded is not None:
        partial = recording_partial(recorded, moment)
        session.partial = lambda: partial
    return session


def scoped(store: Store, timeline: Timeline) -> None:
    """A recording file says which namespaces its recorder read: the store holds that scope,
    so nothing is said missing outside it (R-DOC-10: as it read them)."""
    if isinstance(timeline, RecordingTimeline) and timeline.namespaces is not None:
        store.read_namespaces = frozenset(timeline.namespaces)


def _partial_at_clock(recorded: RecordingTimeline, session: Session) -> Callable[[], PartialInput]:
    """What the recording does not show at the session's clock, whichever moment that is
    (the replay's cursor, the finding history's walk): what its recorder had not read then
    is withheld from the findings as ``check --at`` withholds it (R-REC-2, R-REC-3). Worked
    out once per moment (the findings ask on every read)."""
    said: dict[tuple[float, float, int], PartialInput] = {}

    def partial() -> PartialInput:
        clock = session.clock
        when = clock().timestamp() if clock is not None else recorded.ended
        key = (when, recorded.ended, len(recorded.incomplete_because))
        if key not in said:
            said.clear()
            said[key] = recording_partial(recorded, when)
        return said[key]

    return partial


async def _on_context(
    options: LiveOptions, content: _Content, global_namespace: str | None, context: str
) -> Session:
    """``:ctx NAME``: the same session (options, catalog and next-catalog content) on
    another kubeconfig context, reached once first, so a bad context is a message and the
    old session stays."""
    from olmtui.errors import UsageError  # what a source raises, in one line

    other = dataclasses.replace(options, context=context)
    try:
        await _probe(other)
    except UsageError as exc:
        raise ContextUnavailable(str(exc)) from None
    return _live(other, content, global_namespace)


def _live(
    options: LiveOptions,
    content: _Content,
    global_namespace: str | None,
    record: RecordTo | None = None,
) -> Session:
    from olmtui.sources.cluster.live import LiveSource
    from olmtui.sources.cluster.live_config import context_names

    store = Store()
    source = LiveSource(store, options)

    async def watch() -> None:
        await source.connect()
        try:
            await source.run()
        finally:
            await source.close()

    runner: Callable[[], Awaitable[None]] = watch
    if record is not None:  # the same writer as ``olmtui record``, on the session shown
        context = options.context or None
        runner = Recorded(watch, store, lambda: source.status, record, context, options.namespaces)

    session = _assemble(
        store,
        "live",
        source.label or options.context or "current context",
        content.catalogs,
        runner=runner,
        status=lambda: live_status(source, store, options),
        upgrade_count=lambda: source.csv_upgrade_count,
        clock=wall_clock,
        info=lambda: live_info(source, options),
        global_namespace=global_namespace,
        live_catalogs=source.catalogd,
    )
    session.partial = lambda: live_partial(source)
    session.contexts = lambda: context_names(options.kubeconfig)
    session.next_catalogs = list(content.next_catalogs)
    session.switch_context = lambda name: _on_context(options, content, global_namespace, name)
    if record is not None:
        session.switch_context = lambda name: _recording_holds_one(record, name)
    return session


async def _recording_holds_one(record: RecordTo, context: str) -> Session:
    """``:ctx`` while ``--record FILE`` records: a recording holds one cluster (its header
    names one context, docs/recording-format.md), so the switch is refused in one line and
    the session, and its recording, go on."""
    raise ContextUnavailable(
        f"recording to {record.path}: a recording holds one cluster; to record {context}, "
        f"quit and run olmtui --record with --context {context}"
    )


def live_info(source: LiveSource, options: LiveOptions) -> SourceInfo:
    """Which cluster a live session reads: context, server, user and its version."""
    return SourceInfo(
        context=source.label or options.context or "",
        server=source.server,
        user=source.user,
        kubernetes_version=source.server_version,
    )


def live_partial(source: LiveSource) -> PartialInput:
    """What a live session has not listed yet (R-SRC-1): every kind before any stream
    started, then the kinds whose streams are still syncing."""
    streams = source.status.streams
    if not streams:
        return PartialInput(("live sync not started",), None)
    return syncing_partial(name for name, s in streams.items() if s.state == "syncing")


def live_status(source: LiveSource, store: Store, options: LiveOptions) -> ConnectionState:
    """The header line of a live session: syncing until every stream settled."""
    live = source.status
    unreadable = store.unreadable
    if live.connected:
        # a stream that got 403 or 404 has settled too: the session is live with what
        # it may read ("partial" when some kind is unreadable), not syncing for good
        settled = all(s.state in SETTLED for s in live.streams.values())
        state = "syncing" if not settled else "live, partial" if unreadable else "live"
    else:
        state = down_state(live)
    no_access = tuple(sorted(u.scope for u in unreadable.values()))
    age = None if live.last_event is None else max(time.time() - live.last_event, 0.0)
    return ConnectionState(state, failure(live), age, no_access, options.forbidden_recheck)


def down_state(live: LiveStatus) -> str:
    """What a source that is not connected is doing: a failed task outranks a reconnect
    (it says why), a reconnect outranks not having reached the cluster yet."""
    if live.failed:
        return "failed"
    return "reconnecting" if live.reconnecting_since else "unavailable"


def failure(live: LiveStatus) -> str:
    """The header's detail while a task failed: which, and why (its last error)."""
    if not live.failed:
        return ""
    first = live.streams[live.failed[0]]
    more = f" (and {len(live.failed) - 1} more)" if len(live.failed) > 1 else ""
    return f"{first.name} failed: {first.last_error}{more}"


def demo_session(cluster: DemoCluster) -> Session:
    """The running demo (``olmtui demo``): its loopback cluster read live, with the
    scenario's catalog content loaded as ``--catalog`` would load it, and its ClusterCatalogs'
    content fetched from catalogd like a live session's (R-V1-21)."""
    return _assemble(
        cluster.store,
        "demo",
        cluster.label,
        [cluster.catalog],
        runner=cluster.run,
        status=lambda: demo_status(cluster),
        upgrade_count=lambda: cluster.upgrade_count,
        clock=wall_clock,
        live_catalogs=cluster.source.catalogd if cluster.source is not None else None,
    )


def demo_status(cluster: DemoCluster) -> ConnectionState:
    """The header line of the demo: the watcher's state, and the script's latest step as
    the detail."""
    source = cluster.source
    live = source.status if source is not None else None
    if cluster.finished:
        state = "stopped"
    elif live is None:
        state = "connecting"
    elif not live.connected:
        state = down_state(live) if live.reconnecting_since else "connecting"
    else:
        state = "live" if all(s.state == "live" for s in live.streams.values()) else "syncing"
    detail = (
        f"step {cluster.steps_done}: {cluster.last_step}"
        if cluster.steps_done
        else "the script starts soon"
    )
    no_access = (
        ()
        if live is None
        else tuple(sorted(n for n, s in live.streams.items() if s.state == "no access"))
    )
    return ConnectionState(state, detail, cluster.last_event_age(), no_access)


def catalog_session(catalog_specs: Sequence[str]) -> Session:
    """Catalog content alone, no cluster (``olmtui graph --catalog X`` without a snapshot):
    an empty store under the same wiring, so the catalogs are merged as for any session."""
    loaded = [load_catalog(spec) for spec in catalog_specs]
    return _assemble(Store(), "snapshot", "catalog content", loaded)


def rewind_session(
    timeline: Timeline,
    catalog_specs: Sequence[str] = (),
    label: str | None = None,
    global_namespace: str | None = None,
    *,
    at: int | None = None,
    history: Timeline | None = None,
    grow: Callable[[], bool] | None = None,
    worker_grow: Callable[[], object] | None = None,
    loaded: Sequence[Catalog] = (),
) -> Session:
    """A recording in the dashboard (``olmtui replay FILE``): the state after ``at`` changes
    (None: the end) with a time cursor (``pipeline/time_cursor.py``) that moves it. The
    Changes view's entries and the finding times are worked out in a worker over
    ``history``, a second reader of the same recording (a file reader's handle is not shared
    between threads; None: ``timeline`` itself, an in-memory one). ``grow`` reads what a
    recorder still writing appended, and says whether it still writes (None: the recording
    is complete); ``worker_grow`` reads ``history`` on, between the worker's runs."""
    from olmtui.pipeline.finding_history import FindingHistory
    from olmtui.pipeline.time_cursor import TimeCursor

    catalogs = [*(load_catalog(spec) for spec in catalog_specs), *loaded]
    label = label or timeline.context or "recording"

    def assembled_over(recorded: Timeline) -> Callable[[Store], Session]:
        def assembled(store: Store) -> Session:
            scoped(store, recorded)
            session = _assemble(
                store, "recording", label, catalogs, global_namespace=global_namespace
            )
            if isinstance(recorded, RecordingTimeline):
                session.partial = _partial_at_clock(recorded, session)
            return session

        return assembled

    position = len(timeline) if at is None else at
    store = Store()
    scoped(store, timeline)
    load_state(store, timeline.state(position))
    session = assembled_over(timeline)(store)

    def moved() -> None:
        # the report is the recording's as of the cursor (``source.at``, R-REC-1)
        session.recorded_at = cursor.clock()
        session.analysis.health_index().clock_moved()

    cursor = TimeCursor(
        timeline,
        store,
        position,
        moved=moved,
        # the worker's sessions read what the recorder had read from the worker's own reader
        history=FindingHistory(history or timeline, assembled_over(history or timeline)),
        grow=grow,
        worker_timeline=history,
        worker_grow=worker_grow,
    )
    session.time = cursor
    session.clock = cursor.clock
    session.recorded_at = cursor.clock()
    session.info = lambda: SourceInfo(context=timeline.context or "")
    if grow is not None:
        session.runner = cursor.run
    return session
