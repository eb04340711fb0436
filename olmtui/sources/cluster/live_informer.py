"""One list+watch stream kept in the Store, forever, through every kind of trouble.

The informer pattern (client-go's): list in pages, make the cache equal to the list,
watch from the list's resourceVersion with bookmarks, apply events. What goes wrong and
what it does about it:

* the watch ends normally (the ``timeoutSeconds`` it asked for): watch again from the last
  version, at once;
* a watch whose answer or next data does not come within ``watch_silence`` (a half-open
  connection, a hung or silent watch; a working one ends at its ``timeoutSeconds``): the
  stream says "reconnecting" and watches again from the last version, at once (the silence
  was the wait);
* a network error, a cut stream, a list page unanswered for ``list_timeout``: back off with
  jitter, then watch again from the last version (safe after network errors) or list again.
  A backoff counts from the start of the attempt that failed: an attempt that already took
  longer is followed by the next one at once, so a fault that clears is seen within one
  bound, not a bound plus a backoff;
* 500, 429 or any other error status on a watch (or in its ``ERROR`` event): the data is
  not in doubt, so back off (at least the ``Retry-After`` asked, within the cap) and watch
  again from the last version, no relist;
* 410 Gone (history compacted): relist, which diffs the cache; 410 again and again (a server
  whose history keeps being compacted) backs off like any failure, until a watch delivers;
* 403: the stream is "no access" and asks again with a backoff up to
  ``forbidden_recheck`` seconds, 404: the same as "unavailable"; neither ever stops the
  other streams;
* an object the store or a hook cannot take (a field of the wrong type): that object is
  skipped (counted in the stream's status), the stream goes on; any other unexpected
  error: the stream says "failed" with the reason, relists after a backoff and goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncGenerator, Callable

import aiohttp

from olmtui.sources.cluster.live_http import Requester, StatusError, status_error, watch_batches
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.sources.cluster.live_resources import StreamSpec, csv_from_partial
from olmtui.sources.cluster.live_status import LiveStatus, StreamState
from olmtui.store import Obj, Store, slot_of

#: Errors after which the connection, not the data, is in doubt.
NETWORK_ERRORS = (
    aiohttp.ClientError,
    asyncio.TimeoutError,
    ConnectionError,
    json.JSONDecodeError,
)

#: Watch events handed to the store, and the model behind it, at a time: the model
#: evaluates each changed CSV, so a whole burst at once would stall the loop.
APPLY_SLICE = 50


class Pacer:
    """Sizes the slices of a listed page handed to the store so that each keeps the event
    loop about ``budget`` seconds: a copy costs the model a hundredth of what a CSV does,
    and at :data:`APPLY_SLICE` a time a hundred thousand copies would pay the per-slice
    overhead (a model pass, a loop turn) thousands of times over.

    Slices grow for cheap objects but never shrink below ``least``: some slices cost the
    same whatever their size (a slice of Namespaces makes every AllNamespaces operator's
    expected copies be recomputed), and shrinking those would only multiply them.
    """

    def __init__(self, budget: float = 0.008, least: int = APPLY_SLICE, most: int = 1000) -> None:
        self.budget = budget
        self.least = least
        self.most = most
        self.size = least

    def measured(self, count: int, seconds: float) -> None:
        """Learn from a slice of ``count`` objects that took ``seconds``."""
        if count and seconds > 0:
            self.size = max(self.least, min(self.most, int(self.budget * count / seconds)))


#: Called with each non-copied object ADDED by a watch, before it reaches the store.
AddedHook = Callable[[Obj], None]


class Shaper:
    """Turns listed or watched items into the objects the store keeps: list items may lack
    ``kind``/``apiVersion`` (core lists omit them), and metadata-only copies become
    CSV-shaped dicts."""

    def __init__(self, spec: StreamSpec, version: str) -> None:
        group = spec.resource.group
        self.api_version = f"{group}/{version}" if group else version
        self.kind = spec.resource.kind
        self.metadata_only = spec.metadata_only

    def __call__(self, item: Obj) -> Obj:
        if self.metadata_only:
            return csv_from_partial(item, self.api_version)
        if "kind" not in item or "apiVersion" not in item:
            item = {**item, "kind": self.kind, "apiVersion": self.api_version}
        return item


async def relist(
    store: Store,
    kind: str,
    pages: AsyncGenerator[Obj, None],
    shape: Callable[[Obj], Obj],
    namespace: str | None,
    owns: Callable[[Obj], bool],
    on_skipped: OnSkipped,
    admits: Callable[[Obj], bool] | None = None,
) -> str:
    """Make the cached objects of ``kind`` (in ``namespace``, of this stream) equal a fresh
    list; return the list's resourceVersion.

    Pages are applied as they arrive, in slices with the loop free in between (the UI fills
    in and stays responsive); the objects the list no longer holds are then removed with one
    scoped ``Store.replace``, so a relist becomes exactly the changes between cache and
    cluster: nothing lost, nothing doubled. Listed objects ``admits`` refuses are left
    out as if the list had not held them.
    """
    seen: set[tuple[str, str]] = set()
    pacer = Pacer()
    resource_version = ""
    async with contextlib.aclosing(pages):
        async for page in pages:
            objs = shaped(page.get("items"), shape, on_skipped)
            if admits is not None:
                objs = [o for o in objs if admits(o)]
            seen.update(map(slot_of, objs))
            start = 0
            while start < len(objs):
                piece = objs[start : start + pacer.size]
                began = time.perf_counter()
                apply_safely(store, piece, on_skipped)
                pacer.measured(len(piece), time.perf_counter() - began)
                start += len(piece)
                await asyncio.sleep(0)
            resource_version = (page.get("metadata") or {}).get("resourceVersion") or ""
    gone = {
        id(obj)
        for slot, obj in store.slots(kind)
        if slot not in seen and namespace in (None, slot[0]) and owns(obj)
    }
    if gone:
        store.replace(kind, [], keep=lambda obj: id(obj) in gone)
    return resource_version


class Informer:
    """List, then watch, one stream into the store; :meth:`run` never returns or raises
    for cluster trouble (cancel it to stop)."""

    def __init__(
        self,
        spec: StreamSpec,
        version: str,
        namespace: str | None,
        requester: Requester,
        store: Store,
        status: LiveStatus,
        options: LiveOptions,
        on_added: AddedHook | None = None,
    ) -> None:
        self.spec = spec
        self.namespace = namespace
        self.name = spec.name if namespace is None else f"{spec.name} in {namespace}"
        self.path = spec.resource.path(version, namespace)
        self.query = spec.query
        self.requester = requester
        self.store = store
        self.status = status
        self.options = options
        self.on_added = on_added
        self.shape = Shaper(spec, version)
        self.resource_version = ""
        status.stream(self.name)

    async def list_once(self) -> None:
        """One full relist into the store (raises StatusError or network errors)."""
        pages = self.requester.list_pages(self.path, self.query, self.spec.page_size)
        self.resource_version = await relist(
            self.store,
            self.spec.resource.kind,
            pages,
            self.shape,
            self.namespace,
            self.spec.owns,
            self._skipped,
            self._admitted,
        )
        self.status.saw_events(self.name, self.resource_version)

    async def run(self) -> None:
        failures = refusals = gone = 0
        while True:
            asked = 0.0  # what the server asked to wait (Retry-After), within the cap
            began = time.monotonic()
            try:
                if not self.resource_version:
                    await self.list_once()
                    self.status.set_state(self.name, "live")
                    failures = refusals = 0
                if await self._watch():
                    failures = refusals = gone = 0
                    continue
                failures += 1
            except StatusError as exc:
                if exc.code in (403, 404):
                    self.resource_version = ""
                    state: StreamState = "no access" if exc.code == 403 else "unavailable"
                    self.status.set_state(self.name, state, str(exc))
                    refusals += 1
                    await asyncio.sleep(self.options.forbidden_backoff(refusals))
                    continue
                if exc.code == 410:  # the history is gone: only a relist can catch up
                    self.resource_version = ""
                    gone += 1  # but not 480 relists in 8 s when it keeps being gone
                    failures = gone
                else:  # 500, 429, ...: the data is not in doubt, watch again later
                    failures += 1
                    asked = min(exc.retry_after or 0.0, self.options.backoff_max)
                self.status.set_state(self.name, "reconnecting", str(exc))
            except NETWORK_ERRORS as exc:
                failures += 1
                self.status.set_state(self.name, "reconnecting", describe(exc))
            except Exception as exc:  # never let one stream's surprise end the session
                failures += 1
                self.resource_version = ""  # what the cache holds is in doubt: relist
                self.status.set_state(self.name, "failed", describe(exc))
            spent = time.monotonic() - began
            await asyncio.sleep(max(self.options.backoff(failures) - spent, asked))

    async def _watch(self) -> bool:
        """Watch until the server ends the stream; True when it delivered anything or lasted
        its ``timeoutSeconds`` (a quiet kind). Raises :class:`WatchSilent` when the answer,
        or the next data, does not come within ``watch_silence`` seconds."""
        options = self.options
        silence = options.watch_silence
        asked = options.watch_seconds()
        query = [*self.query, ("timeoutSeconds", str(asked))]
        began = time.monotonic()
        deadline = asyncio.timeout(silence)
        try:
            async with deadline:
                response = await self.requester.open_watch(self.path, query, self.resource_version)
                self.status.set_state(self.name, "live")
                delivered = False
                async with contextlib.aclosing(watch_batches(response, APPLY_SLICE)) as batches:
                    async for batch in batches:
                        # Parsing a batch and applying it are a loop turn each, so the
                        # longest turn is the longer of the two, not their sum. A batch cut
                        # off by the deadline before it is applied is sent again: the next
                        # watch starts from the last version applied.
                        await asyncio.sleep(0)
                        self._apply(batch)
                        delivered = True
                        await asyncio.sleep(0)
                        deadline.reschedule(asyncio.get_running_loop().time() + silence)
        except TimeoutError:
            if deadline.expired():  # not the read timeout of the connection, said as such
                raise WatchSilent(silence) from None
            raise
        return delivered or time.monotonic() - began >= asked / 2

    def _apply(self, events: list[Obj]) -> None:
        """Apply one batch in order: runs of ADDED/MODIFIED go in together, DELETED alone.
        An event that is not an object, or an object the store cannot take, is skipped
        (and counted): one bad object never stops the stream."""
        run: list[Obj] = []
        for event in events:
            raw = event.get("object") if isinstance(event, dict) else None
            if not isinstance(raw, dict):
                self._skipped(ValueError("a watch event that holds no object"))
                continue
            kind = event.get("type")
            if kind == "ERROR":
                self._flush(run)
                raise status_error(500, raw)
            version = _resource_version(raw)
            if kind == "BOOKMARK":
                self.resource_version = version or self.resource_version
                continue
            if kind not in ("ADDED", "MODIFIED", "DELETED"):
                continue
            obj = self._shaped(raw)
            if obj is None or (kind != "DELETED" and not self._admitted(obj)):
                pass
            elif kind == "DELETED":
                self._flush(run)
                guarded(self._skipped, self.store.apply, "DELETED", obj)
            else:
                if kind == "ADDED" and self.on_added is not None:
                    self._flush(run)
                    guarded(self._skipped, self.on_added, obj)
                run.append(obj)
            self.resource_version = version or self.resource_version
        self._flush(run)
        self.status.saw_events(self.name, self.resource_version)

    def _shaped(self, raw: Obj) -> Obj | None:
        try:
            return self.shape(raw)
        except Exception as exc:
            self._skipped(exc)
            return None

    def _admitted(self, obj: Obj) -> bool:
        """Whether the stream's ``admits`` filter (if any) lets ``obj`` into the cache."""
        admits = self.spec.admits
        return admits is None or admits(self.store, obj)

    def _flush(self, run: list[Obj]) -> None:
        if run:
            apply_safely(self.store, run, self._skipped)
            run.clear()

    def _skipped(self, exc: Exception) -> None:
        self.status.skipped_object(self.name, describe(exc))


class WatchSilent(TimeoutError):
    """A watch that sent neither its answer, an event, a BOOKMARK nor its end for longer than
    a working one would (``watch_silence``): a half-open connection or a hung server."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"watch silent for {seconds:g} s, longer than a working one is "
            "(half-open connection?): watching again"
        )


#: Told of each object skipped because applying it raised.
OnSkipped = Callable[[Exception], None]


def shaped(items: object, shape: Callable[[Obj], Obj], on_skipped: OnSkipped) -> list[Obj]:
    """The listed ``items`` the store can be given: mappings only, shaped."""
    out = []
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, dict):
            on_skipped(ValueError("a listed item that is not an object"))
            continue
        try:
            obj = shape(item)
            slot_of(obj)  # a name and namespace the cache can file it under
        except Exception as exc:
            on_skipped(exc)
            continue
        out.append(obj)
    return out


def apply_safely(store: Store, objs: list[Obj], on_skipped: OnSkipped) -> None:
    """``store.apply_many``, and when that raises, the objects one by one, skipping each
    one that raises: the store is the boundary that turns a malformed object into a
    finding, and this is the guard behind it, so that whatever it misses costs that object,
    never the stream. The failed batch is reported once (what raised may have been a
    subscriber, after the store took the objects)."""
    try:
        store.apply_many(objs)
    except Exception as exc:
        on_skipped(exc)
        for obj in objs:
            guarded(on_skipped, store.apply, "ADDED", obj)


def guarded(on_skipped: OnSkipped, fn: Callable[..., object], *args: object) -> None:
    """Call ``fn``; an exception goes to ``on_skipped``, never up (see :func:`apply_safely`)."""
    try:
        fn(*args)
    except Exception as exc:
        on_skipped(exc)


def _resource_version(raw: Obj) -> str:
    meta = raw.get("metadata")
    version = meta.get("resourceVersion") if isinstance(meta, dict) else None
    return version if isinstance(version, str) else ""


def describe(exc: BaseException) -> str:
    """An exception as one short line for the status bar."""
    if isinstance(exc, WatchSilent):
        return str(exc)
    if isinstance(exc, asyncio.TimeoutError | aiohttp.ServerTimeoutError):
        return "no data within the read timeout (connection lost?)"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
