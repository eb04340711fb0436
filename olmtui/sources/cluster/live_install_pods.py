"""R-EVD-12: the pods of the Deployments of CSVs that are not Succeeded, followed live.

An installing CSV waits on its Deployments, and their pods say why (R-EVD-9). A cluster
holds thousands of pods, so they are not all read: for each Deployment OLM made for a CSV
(label ``olm.owner.kind=ClusterServiceVersion``, already watched) whose CSV is in the cache
and not ``Succeeded``, one list+watch stream of pods in its namespace, selected on the
server by its ``spec.selector.matchLabels`` (``a=b,c=d``); one stream per distinct
(namespace, selector), however many Deployments share it. The set follows the cache: a
stream starts when such a Deployment or CSV appears, and stops when the CSV turns
Succeeded, goes, or the Deployment goes.

A stopped stream's pods leave the cache (unless another stream still reads them): nothing
follows them any more, so keeping them would show a state that may no longer be true, and
no rule reads the pods of a Succeeded CSV's Deployments. A 403 is "no access" for pods in
that namespace alone (``Store.unreadable``), so no finding rests on its pods being absent.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from olmtui.sources.cluster.live_resources import (
    POD,
    STREAMS,
    StreamSpec,
    install_pod_selectors,
)
from olmtui.store import Change, Store

#: The prefix of these streams' names in the status (each then names its selector and
#: namespace: ``Pod (operator app=etcd) in operators``).
STREAM_PREFIX = "Pod (operator"
#: At most this many pod streams at once (each holds a watch connection): the first by
#: (namespace, selector); the pods of the others are not read, "not in the input" (R-EVD-9).
MAX_STREAMS = 100
#: The kinds whose changes can move the wanted set.
_MOVING_KINDS = frozenset({"Deployment", "ClusterServiceVersion"})
_Wanted = tuple[str, str]


class PodStream:
    """What :class:`InstallPods` is given for one wanted stream: its informer's name, the
    coroutine that runs it for good, and the one that lists it once."""

    def __init__(
        self,
        name: str,
        run: Callable[[], Awaitable[None]],
        list_once: Callable[[], Awaitable[None]],
    ) -> None:
        self.name = name
        self.run = run
        self.list_once = list_once
        self.task: asyncio.Future[None] | None = None


#: Makes the stream of a spec in a namespace (an informer, wired to the status and access).
MakeStream = Callable[[StreamSpec, str], PodStream]
#: Told of a stream that stopped (by name), so the status and access forget it.
Forget = Callable[[str], None]


def stream_spec(selector: str) -> StreamSpec:
    """The pod stream of one Deployment selector (optional: pods may be forbidden)."""
    return StreamSpec(f"{STREAM_PREFIX} {selector})", POD, label_selector=selector, optional=True)


class InstallPods:
    """The set of install pod streams, kept equal to what the cache asks for."""

    def __init__(
        self, store: Store, make: MakeStream, forget: Forget, limit: int = MAX_STREAMS
    ) -> None:
        self.store = store
        self.limit = limit
        self._make = make
        self._forget = forget
        self.streams: dict[_Wanted, PodStream] = {}
        self._running = False
        self._pending = False

    # -- following the cache -------------------------------------------------------------
    def on_changes(self, changes: list[Change]) -> None:
        """A store listener: a change of a Deployment or a CSV may move the set. The update
        runs on the next loop turn, never inside the store's own emit (it may remove pods)."""
        if self._pending or not any(c.key.kind in _MOVING_KINDS for c in changes):
            return
        self._pending = True
        asyncio.get_running_loop().call_soon(self._deferred)

    def _deferred(self) -> None:
        self._pending = False
        if self._running:
            self.update()

    def update(self) -> list[PodStream]:
        """Start the streams now wanted (their tasks when running), stop those no longer
        wanted and drop their pods; return the new ones."""
        wanted = set(sorted(install_pod_selectors(self.store))[: self.limit])
        for key in [k for k in self.streams if k not in wanted]:
            self._stop(key)
        started = []
        for key in sorted(wanted - self.streams.keys()):
            namespace, selector = key
            stream = self.streams[key] = self._make(stream_spec(selector), namespace)
            if self._running:
                stream.task = asyncio.ensure_future(stream.run())
            started.append(stream)
        return started

    def _stop(self, key: _Wanted) -> None:
        stream = self.streams.pop(key)
        if stream.task is not None:
            stream.task.cancel()
        self._forget(stream.name)
        namespace, selector = key
        spec = stream_spec(selector)
        others = [stream_spec(s) for ns, s in self.streams if ns == namespace]
        others += [s for s in STREAMS if s.resource.kind == POD.kind]
        gone = {
            id(pod)
            for pod in self.store.list(POD.kind, namespace)
            if spec.owns(pod) and not any(o.owns(pod) for o in others)
        }
        if gone:
            self.store.replace(POD.kind, [], [namespace], keep=lambda obj: id(obj) in gone)

    # -- running -------------------------------------------------------------------------
    async def run(self) -> None:
        """Follow the cache until cancelled: start the wanted streams, then start and stop
        them as Deployments and CSVs change."""
        self._running = True
        self.store.subscribe(self.on_changes)
        try:
            for stream in self.streams.values():
                if stream.task is None:
                    stream.task = asyncio.ensure_future(stream.run())
            self.update()
            await asyncio.Event().wait()
        finally:
            self._running = False
            self.store.unsubscribe(self.on_changes)
            tasks = [s.task for s in self.streams.values() if s.task is not None]
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for stream in self.streams.values():
                stream.task = None
