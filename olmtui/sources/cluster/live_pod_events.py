"""R-EVD-12: a pod's Events read again when their namespace becomes one of OLM's.

Pod Events come from one stream for the whole cluster (``involvedObject.kind=Pod``); the
cache keeps those of namespaces holding a CatalogSource or a Deployment OLM made for a CSV
(R-EVD-1), and drops the others as they arrive. The streams are independent, so a pod's
Event can arrive before its namespace's CatalogSource (or Deployment) does, and was dropped
for good until the pod emitted it again. Two things close that gap:

* at start, the Pod Event streams list only once the CatalogSource and Deployment streams
  have (``LiveSource``): the namespaces are known before their Events arrive;
* afterwards, a namespace that becomes one of OLM's has its Pod Events listed once, in that
  namespace only (a GET narrowed by namespace and field selector), and those the cache lacks
  are taken. What the cache already holds came from the watch and is at least as new, so it
  is not overwritten; nothing is removed (the watch removes what is deleted).

Nothing is held aside: memory stays what R-EVD-1 bounds (20 Events per object).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from olmtui.sources.cluster.live_http import Requester, StatusError
from olmtui.sources.cluster.live_informer import NETWORK_ERRORS, Shaper, apply_safely, shaped
from olmtui.sources.cluster.live_resources import StreamSpec
from olmtui.sources.evidence_scope import olm_pod_namespace
from olmtui.store import Change, Store, slot_of

#: The kinds whose arrival or departure makes a namespace one of OLM's pod namespaces.
_MAKE_RELEVANT = frozenset({"CatalogSource", "Deployment"})


class PodEventCatchUp:
    """Lists a namespace's Pod Events once when it becomes one of OLM's (see the module)."""

    def __init__(
        self,
        store: Store,
        requester: Requester,
        spec: StreamSpec,
        version: str,
        on_skipped: Callable[[Exception], None],
        backoff: Callable[[int], float],
    ) -> None:
        self.store = store
        self.requester = requester
        self.spec = spec
        self.version = version
        self.on_skipped = on_skipped
        self.backoff = backoff
        #: The namespaces known to be OLM's; None until the Pod Event streams first list.
        self.relevant: set[str] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.shape = Shaper(spec, version)

    def begin(self) -> None:
        """The Pod Event streams are about to list: the namespaces OLM's are now, whose
        Events the list takes; any other that becomes one of OLM's is caught up."""
        if self.relevant is not None:
            return
        namespaces = {
            (o.get("metadata") or {}).get("namespace") or ""
            for kind in _MAKE_RELEVANT
            for o in self.store.list(kind)
        }
        self.relevant = {ns for ns in namespaces if olm_pod_namespace(self.store, ns)}
        self.store.subscribe(self.on_changes)

    def on_changes(self, changes: list[Change]) -> None:
        """A store listener: a namespace that became OLM's is listed (on a task of its own);
        one that stopped being OLM's is forgotten, so that it is listed again should it come
        back."""
        relevant = self.relevant
        if relevant is None:
            return
        for change in changes:
            namespace = change.key.namespace
            if change.key.kind not in _MAKE_RELEVANT:
                continue
            if change.new is not None and namespace in relevant:
                continue
            if not olm_pod_namespace(self.store, namespace):
                relevant.discard(namespace)
            elif namespace not in relevant:
                relevant.add(namespace)
                task = asyncio.ensure_future(self.catch_up(namespace))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    async def catch_up(self, namespace: str) -> None:
        """List the namespace's Pod Events once; take the admitted ones the cache lacks. A
        lost connection or a busy server is tried again after a backoff, as the streams are;
        a 403 or 404 changes nothing (the watch goes on, and a failing pod's Events repeat)."""
        failures = 0
        while True:
            began = time.monotonic()
            try:
                await self._list(namespace)
                return
            except StatusError as exc:
                if exc.code in (403, 404):
                    return
            except NETWORK_ERRORS:
                pass
            failures += 1
            await asyncio.sleep(max(self.backoff(failures) - (time.monotonic() - began), 0.0))

    async def _list(self, namespace: str) -> None:
        path = self.spec.resource.path(self.version, namespace)
        pages = self.requester.list_pages(path, self.spec.query, self.spec.page_size)
        admits = self.spec.admits
        async with contextlib.aclosing(pages):
            async for page in pages:
                missing = [
                    event
                    for event in shaped(page.get("items"), self.shape, self.on_skipped)
                    if not self.store.has("Event", *slot_of(event))
                    and (admits is None or admits(self.store, event))
                ]
                if missing:
                    apply_safely(self.store, missing, self.on_skipped)
                await asyncio.sleep(0)

    async def close(self) -> None:
        """Stop following the cache and cancel the lists under way."""
        if self.relevant is not None:
            self.store.unsubscribe(self.on_changes)
            self.relevant = None
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
