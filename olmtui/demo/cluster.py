"""The running demo: the loopback API server with the scenario, the live watcher reading it
through kubernetes-asyncio, and the script changing it.

The server runs on its own loop in a daemon thread (so its port is known before any screen
opens and its work never competes with the screen's loop); the watcher and the script run
on the caller's loop. The script writes through the server's thread-safe state API, so
every change reaches the model the way a real cluster's would: as a watch event. The
cluster fills ``store`` only: ``olmtui.pipeline.build.demo_session`` derives from it, as the
pipeline does for any live cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread
from olmtui.demo import v1
from olmtui.demo.lifecycle import with_lifecycles
from olmtui.demo.scenario import Scenario, build_scenario, demo_catalog
from olmtui.demo.script import Step, cycle, run_script
from olmtui.model.records.catalog import Catalog
from olmtui.sources.cluster.live import LiveOptions, LiveSource
from olmtui.sources.cluster.live_resources import read_live
from olmtui.store import WATCHED_KINDS, Key, Obj, Store, key_of

#: After the last step, how long the watcher may take to deliver it before the demo ends.
SETTLE = 10.0
#: How often ``run`` looks whether the watcher has listed everything once.
SYNC_POLL = 0.05


class DemoCluster:
    """Use as a context manager (starts and stops the server), then ``await run()``."""

    def __init__(
        self,
        interval: float,
        *,
        cycles: int | None = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> None:
        self.interval = interval
        self.cycles = cycles
        self.on_step = on_step
        self.start: Scenario = build_scenario()
        self.catalog: Catalog = with_lifecycles(demo_catalog())  # R-LCY-1
        self.store = Store()
        self.server = LoopbackAPIServer()
        self.server.state.load(self.start.objects)
        # catalogd behind the service proxy serves the serving ClusterCatalog (R-V1-21)
        self.server.catalogd.serve(v1.COMMUNITY, v1.catalogd_content())
        self.steps_done = 0
        self.last_step = ""
        self.source: LiveSource | None = None
        #: Set once the watcher has listed every stream: the script starts after that.
        self.synced = asyncio.Event()
        #: True once ``run`` has ended: the cluster no longer changes.
        self.finished = False
        self._thread: ServerThread | None = None
        self._workdir: tempfile.TemporaryDirectory[str] | None = None

    # -- the server --------------------------------------------------------------------------
    def __enter__(self) -> DemoCluster:
        self._thread = run_in_thread(self.server)
        self._workdir = tempfile.TemporaryDirectory(prefix="olmtui-demo-")
        kubeconfig = self.server.write_kubeconfig(Path(self._workdir.name) / "kubeconfig")
        self.source = LiveSource(self.store, LiveOptions(kubeconfig=str(kubeconfig)))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is not None:
            self._thread.stop()
        if self._workdir is not None:
            self._workdir.cleanup()

    @property
    def label(self) -> str:
        """What the header calls this cluster."""
        return f"demo cluster (loopback {self.server.url.removeprefix('http://')})"

    @property
    def steps_per_cycle(self) -> int:
        return len(cycle(self.start))

    # -- the watcher and the script --------------------------------------------------------------
    async def run(self) -> None:
        """Follow the cluster and run the script; with ``cycles`` set, end once they are
        done and the watcher had time to deliver the last step. The watcher is always
        closed on the way out (also when cancelled)."""
        assert self.source is not None, "use DemoCluster as a context manager"
        source = self.source
        try:
            await source.connect()
            watching = asyncio.ensure_future(source.run())
            try:
                while not self._listed(source) and not watching.done():
                    await asyncio.sleep(SYNC_POLL)
                self.synced.set()
                await run_script(
                    self.server.state,
                    self.start,
                    self.interval,
                    cycles=self.cycles,
                    on_step=self._stepped,
                )
                deadline = time.monotonic() + SETTLE
                while not self.caught_up() and time.monotonic() < deadline:
                    await asyncio.sleep(SYNC_POLL)
            finally:
                watching.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watching
        finally:
            self.finished = True
            await source.close()

    @staticmethod
    def _listed(source: LiveSource) -> bool:
        streams = source.status.streams.values()
        listed = source.status.connected and all(s.state != "syncing" for s in streams)
        return listed and source.catalogd.settled()

    def caught_up(self) -> bool:
        """Whether the cache holds every object of the server at its current version."""

        def versions(objs: Iterable[Obj]) -> dict[Key, str | None]:
            return {key_of(o): o["metadata"].get("resourceVersion") for o in objs}

        for kind in WATCHED_KINDS:  # of the evidence kinds, what the selectors pick
            served = (o for o in self.server.state.list(kind) if read_live(o, self.store))
            if versions(served) != versions(self.store.list(kind)):
                return False
        # and the ClusterCatalogs' content fetched at their digests (R-V1-21)
        return self.source is None or self.source.catalogd.settled()

    def _stepped(self, step: Step) -> None:
        self.steps_done += 1
        self.last_step = step.title
        if self.on_step is not None:
            self.on_step(step)

    @property
    def upgrade_count(self) -> int:
        """``csv_upgrade_count`` as the watcher saw it."""
        return 0 if self.source is None else self.source.csv_upgrade_count

    def last_event_age(self) -> float | None:
        last = None if self.source is None else self.source.status.last_event
        return None if last is None else max(time.time() - last, 0.0)
