"""A snapshot read while the dashboard is already up (``olmtui replay``).

The files are parsed on a thread of their own, never on the UI loop; what they hold reaches
the one Store on the loop, through the Store's own ``apply_many``, so the Model, the catalog
set and the screens follow the change feed exactly as they do for a live cluster, and
nothing reads the Store while another thread writes it. The parsing thread never waits for
the screen: its batches queue up and the loop takes them all at once every ``DRAIN_DELAY``
seconds (coalesced: a few store updates a second, whatever the number of files).

The loader is the same ``load_snapshot`` as ``check``'s, so the Store ends up exactly as
``check`` reads it. Its only reads of the Store (which namespaces exist, at the end) first
wait for the queued batches to land.

``Loading`` is what the screens see of it: how far it is, and when it is done. Until it is
done the findings are not computed (the UI shows the loading bar instead): an unread file
proves nothing absent.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import threading
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from olmtui.errors import UsageError  # what the snapshot reader raises
from olmtui.sources.snapshots.load_progress import LoadProgress, describe
from olmtui.sources.snapshots.snapshot import Listing, LoadResult, read_listing
from olmtui.store import Change, Obj, Origin, Store

#: Seconds between two batches landing on the loop: the store's updates are coalesced.
DRAIN_DELAY = 0.2
#: How often a waiting parse thread looks whether the dashboard has gone (seconds).
_POLL = 0.1


@dataclass(slots=True)
class Loading:
    """A snapshot streaming in, as the screens read it (written by the loading thread, one
    attribute at a time; ``done`` and ``error`` on the loop)."""

    progress: LoadProgress | None = None
    done: bool = False
    #: The one-line ``UsageError`` message when the input cannot be used (the dashboard
    #: closes and the command exits 2 with it).
    error: str | None = None
    #: An unexpected failure of the load (a bug): the dashboard closes and the command
    #: reports it as any crash (exit 3).
    crash: Exception | None = None

    @property
    def line(self) -> str:
        """What the bar says after its gauge."""
        if self.progress is None:
            return "listing the files"
        return describe(self.progress)

    @property
    def fraction(self) -> float:
        return 0.0 if self.progress is None else self.progress.fraction


class _Stopped(Exception):
    """The dashboard closed while the snapshot was being read."""


def _gone(loop: asyncio.AbstractEventLoop, stop: threading.Event) -> bool:
    """Whether the dashboard has gone: its load was stopped, or its loop closed (quitting
    may close the loop before the loading thread has looked at ``stop``)."""
    return stop.is_set() or loop.is_closed()


def _hand_to_loop(
    loop: asyncio.AbstractEventLoop,
    stop: threading.Event,
    callback: Callable[..., object],
    *args: object,
    context: contextvars.Context | None = None,
) -> None:
    """``callback(*args)`` on the loop, from the loading thread; ``_Stopped`` once the
    dashboard has gone. A quit mid-load printed ``Exception in thread olmtui-snapshot-load``
    and a traceback cut off by the exit: the thread handed a batch to the closed loop, and
    then the error too."""
    if _gone(loop, stop):
        raise _Stopped
    try:
        loop.call_soon_threadsafe(callback, *args, context=context)
    except RuntimeError:  # asyncio's word for a closed loop
        if not loop.is_closed():
            raise
        raise _Stopped from None


class LoopRelay(Store):
    """What the loader writes to: its batches queue here and land in ``target`` on the
    event loop. Only ``apply_many`` and ``get`` are the loader's; reading waits for what is
    queued."""

    def __init__(self, target: Store, loop: asyncio.AbstractEventLoop, stop: threading.Event):
        super().__init__()
        self.target = target
        self.loop = loop
        self.stop = stop
        #: OLM's log lines go straight to the target's (R-EVD-10): the loader adds them before
        #: any object, and they feed no change.
        self.logs = target.logs
        self._lock = threading.Lock()
        self._queued: list[Obj] = []
        #: where each queued object was read (``id`` -> ``Origin`` text)
        self._origins: dict[int, str] = {}
        self._scheduled = False
        #: The loop's context where the load began (the app's, whose store listeners set
        #: timers): the loading thread has none of its own to hand the loop.
        self.context = contextvars.copy_context()

    def apply_many(self, objs: Iterable[Obj], origin: Origin | None = None) -> list[Change]:
        batch = list(objs)
        # the loader forgets where it read a batch once it is handed over: said now
        origins = {id(obj): origin(obj) for obj in batch} if origin is not None else {}
        with self._lock:
            self._queued.extend(batch)
            self._origins.update(origins)
            if self._scheduled:
                return []
            self._scheduled = True
        _hand_to_loop(self.loop, self.stop, self._schedule, context=self.context.copy())
        return []

    def _schedule(self) -> None:
        self.loop.call_later(DRAIN_DELAY, self._drain, context=self.context.copy())

    def _drain(self) -> None:
        """On the loop: every queued object, as one batch."""
        with self._lock:
            batch, self._queued = self._queued, []
            origins, self._origins = self._origins, {}
            self._scheduled = False
        if batch:
            self.target.apply_many(batch, lambda obj: origins.get(id(obj), "?"))

    def sync(self) -> None:
        """Wait (on the loading thread) until every queued object is in ``target``."""
        landed: concurrent.futures.Future[None] = concurrent.futures.Future()

        def drain_now() -> None:
            try:
                self._drain()
            except BaseException as exc:  # the loading thread raises it
                landed.set_exception(exc)
            else:
                landed.set_result(None)

        _hand_to_loop(self.loop, self.stop, drain_now, context=self.context.copy())
        while True:
            try:
                landed.result(timeout=_POLL)
                return
            except concurrent.futures.TimeoutError:
                if _gone(self.loop, self.stop):
                    raise _Stopped from None

    def get(self, kind: str, namespace: str, name: str) -> Obj | None:
        with self._lock:
            pending = self._scheduled or bool(self._queued)
        if pending:  # once landed, the loop writes nothing more until the next batch
            self.sync()
        return self.target.get(kind, namespace, name)


def stream_into(
    store: Store,
    listing: Listing,
    loading: Loading,
    pace: Callable[[], None] | None = None,
) -> Callable[[], Awaitable[LoadResult | None]]:
    """The coroutine factory that reads the ``listing`` into ``store`` off the loop, keeping
    ``loading`` current; it returns the result (None when the input cannot be used:
    ``loading.error`` says why). ``pace``, called after each file on the loading thread,
    lets a test slow the load down."""

    async def run() -> LoadResult | None:
        loop = asyncio.get_running_loop()
        stop = threading.Event()
        relay = LoopRelay(store, loop, stop)
        finished: asyncio.Future[LoadResult] = loop.create_future()

        def progress(step: LoadProgress) -> None:
            loading.progress = step
            if pace is not None:
                pace()
            if _gone(loop, stop):
                raise _Stopped

        def work() -> None:
            """The loading thread: ends quietly whenever the dashboard has gone, whatever
            it was doing (a process pool refuses work once the interpreter exits, too)."""
            result: LoadResult | None = None
            error: BaseException | None = None
            try:
                result = read_listing(listing, relay, progress)
                relay.sync()
            except _Stopped:
                return
            except BaseException as exc:  # handed to the loop, raised there
                if _gone(loop, stop):  # nobody is left to tell
                    return
                error = exc
            with contextlib.suppress(_Stopped):
                _hand_to_loop(loop, stop, _settle, finished, result, error)

        # a daemon thread: quitting the dashboard never waits for a load to finish
        threading.Thread(target=work, name="olmtui-snapshot-load", daemon=True).start()
        try:
            return await finished
        except UsageError as exc:
            loading.error = str(exc)
            return None
        except Exception as exc:  # never a bar that waits forever: the dashboard closes
            loading.crash = exc
            return None
        finally:
            stop.set()

    return run


def _settle(
    future: asyncio.Future[LoadResult], result: LoadResult | None, error: BaseException | None
) -> None:
    if future.done():  # cancelled: the dashboard has gone
        return
    if error is not None:
        future.set_exception(error)
    elif result is not None:
        future.set_result(result)
