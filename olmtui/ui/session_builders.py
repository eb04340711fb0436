"""Sessions for the entry points this package builds: replay of snapshots, and live mode.

Replay loads the snapshot into a Store once; live mode starts a :class:`LiveSource` as the
app's worker and shows its status in the header. Catalog content (``--catalog``) plus the
PackageManifests of the source feed the upgrade graphs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from olmtui.model.catalog import Catalog
from olmtui.model.engine import Model
from olmtui.model.upgrades import upgrade_hook
from olmtui.sources.catalogs import catalog_from_packagemanifests, load_catalog
from olmtui.sources.live_options import LiveOptions
from olmtui.sources.snapshot import load_snapshot
from olmtui.store import Store
from olmtui.ui.session import ConnectionState, Session

#: Stream states that will not change by waiting: read, forbidden (403) or not served (404).
SETTLED = frozenset({"live", "no access", "unavailable"})


def _catalogs(specs: Sequence[str], store: Store) -> list[Catalog]:
    """``--catalog`` content first: it beats PackageManifests for the same CatalogSource."""
    return [
        *(load_catalog(spec) for spec in specs),
        *catalog_from_packagemanifests(store.list("PackageManifest")),
    ]


def snapshot_session(
    paths: Sequence[str], catalog_specs: Sequence[str] = (), label: str | None = None
) -> Session:
    """A replay of saved snapshots (``UsageError`` for a path that cannot be used); the
    header shows ``label`` or the paths."""
    store = Store()
    result = load_snapshot(list(paths), store)
    catalogs = _catalogs(catalog_specs, store)
    model = Model(store, upgrades=upgrade_hook(catalogs))
    return Session(
        store,
        model,
        "snapshot",
        label or " ".join(paths),
        catalogs=catalogs,
        load_findings=list(result.findings),
    )


async def _probe(options: LiveOptions) -> None:
    """Reach the cluster once before the screen opens, so that a bad kubeconfig or an
    unreachable cluster is one line on stderr rather than an empty dashboard."""
    from olmtui.sources.live import LiveSource

    probe = LiveSource(Store(), options)
    await probe.connect()
    await probe.close()


def live_session(options: LiveOptions, catalog_specs: Sequence[str] = ()) -> Session:
    """The cluster of ``options`` followed live: connects first (``UsageError`` when the
    cluster cannot be reached), then the app runs the watcher as a worker."""
    import asyncio

    from olmtui.sources.live import LiveSource

    asyncio.run(_probe(options))
    store = Store()
    source = LiveSource(store, options)
    catalogs = [load_catalog(spec) for spec in catalog_specs]
    model = Model(store, upgrades=upgrade_hook(catalogs) if catalogs else None)

    async def runner() -> None:
        await source.connect()
        await source.run()

    def status() -> ConnectionState:
        live = source.status
        unreadable = store.unreadable
        if live.connected:
            # a stream that got 403 or 404 has settled too: the session is live with what
            # it may read ("partial" when some kind is unreadable), not syncing for good
            settled = all(s.state in SETTLED for s in live.streams.values())
            state = "syncing" if not settled else "live, partial" if unreadable else "live"
        else:
            state = "reconnecting" if live.reconnecting_since else "unavailable"
        no_access = tuple(sorted(u.scope for u in unreadable.values()))
        age = None if live.last_event is None else max(time.time() - live.last_event, 0.0)
        return ConnectionState(state, "", age, no_access, options.forbidden_recheck)

    return Session(
        store,
        model,
        "live",
        source.label or options.context or "current context",
        catalogs=catalogs,
        runner=runner,
        status=status,
        upgrade_count=lambda: source.csv_upgrade_count,
    )
