"""Running the loopback server on its own event loop in a daemon thread.

kubectl tests and ``olmtui demo`` need the server to keep answering while the calling
thread blocks (on a subprocess, or on Textual's own loop). The handle runs every call on
the server's loop and waits for it, so the state API and the test controls can be used
from the calling thread exactly as from the loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from olmtui.apiserver.server import LoopbackAPIServer

T = TypeVar("T")
Obj = dict[str, Any]


class ServerThread:
    """A started server on a background loop: ``url``, ``state``-like calls, ``stop()``."""

    def __init__(self, server: LoopbackAPIServer, timeout: float = 10.0) -> None:
        self.server = server
        self.timeout = timeout
        self.loop = asyncio.new_event_loop()
        started: Future[str] = Future()
        self._thread = threading.Thread(
            target=self._run, args=(started,), daemon=True, name="olmtui-apiserver"
        )
        self._thread.start()
        self.url = started.result(timeout)

    def _run(self, started: Future[str]) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            url = self.loop.run_until_complete(self.server.start())
        except BaseException as exc:  # hand start-up failures to the caller's thread
            self.loop.close()
            started.set_exception(exc)
            return
        started.set_result(url)
        self.loop.run_forever()

    # -- calling into the loop -----------------------------------------------------------
    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a plain function on the server's loop and return its result."""

        async def invoke() -> T:
            return fn(*args, **kwargs)

        return self.run(invoke())

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine (e.g. ``server.restart()``) on the server's loop; wait for it."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(self.timeout)

    # -- the state API, thread-safe ------------------------------------------------------
    def create(self, obj: Obj) -> Obj:
        return self.call(self.server.state.create, obj)

    def update(self, obj: Obj) -> Obj:
        return self.call(self.server.state.update, obj)

    def apply(self, obj: Obj) -> Obj:
        return self.call(self.server.state.apply, obj)

    def delete(self, kind: str, namespace: str | None, name: str) -> Obj:
        return self.call(self.server.state.delete, kind, namespace, name)

    def load(self, objs: Iterable[Obj], *, skip_unknown: bool = False) -> int:
        return self.call(self.server.state.load, list(objs), skip_unknown=skip_unknown)

    def get(self, kind: str, namespace: str | None, name: str) -> Obj | None:
        return self.call(self.server.state.get, kind, namespace, name)

    def write_kubeconfig(self, path: str | Path, **kwargs: Any) -> Path:
        return self.server.write_kubeconfig(path, **kwargs)

    # -- lifecycle -----------------------------------------------------------------------
    def stop(self) -> None:
        """Stop the server, its loop and its thread."""
        if self.loop.is_closed():
            return
        if self._thread.is_alive():
            self.run(self.server.stop())
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(self.timeout)
        self.loop.close()

    def __enter__(self) -> ServerThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def run_in_thread(server: LoopbackAPIServer, *, timeout: float = 10.0) -> ServerThread:
    """Start ``server`` on a new loop in a daemon thread and return its handle."""
    return ServerThread(server, timeout)
