"""Faults that show only as silence heal in seconds, not at the 90 s read
timeout. A half-open watch (open, never sending again, not even its end) is suspect once it
has been silent longer than a working watch can be: the stream says "reconnecting" and
watches again from the last resourceVersion (no relist, nothing lost). A working watch of a
quiet kind is never suspect: it asks the server to end it (``timeoutSeconds``) before
then. A list page that never comes is asked again after ``list_timeout``.

The server sends BOOKMARKs only every minute here, as a real one does, and the read timeout
is long: what heals is the new bounds, not those."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from conftest import wait_for
from live_support import (
    converged,
    fast_options,
    header_state,
    lists_sent,
    namespace,
    sample_objects,
    start_server,
    started_source,
    stop_source,
)

from olmtui.apiserver import LoopbackAPIServer
from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.cluster.live_status import LiveStatus
from olmtui.store import Store

#: Short bounds for tests; the defaults are 6 s, 8 s and 8 s (``LiveOptions``).
QUICK = {"read_timeout": 60.0, "watch_timeout": 1, "watch_silence": 1.5, "list_timeout": 0.5}


class StateLog:
    """Every (state, error) a stream went through, as the header could have shown them."""

    def __init__(self, status: LiveStatus, name: str) -> None:
        self.name = name
        self.seen: list[tuple[str, str]] = []
        status.subscribe(self)

    def __call__(self, status: LiveStatus) -> None:
        stream = status.streams.get(self.name)
        if stream is not None and (stream.state, stream.last_error) not in self.seen[-1:]:
            self.seen.append((stream.state, stream.last_error))


async def _live(
    tmp_path: Path, **overrides: Any
) -> tuple[LoopbackAPIServer, Store, LiveSource, asyncio.Task, Any]:
    server, kubeconfig = await start_server(tmp_path, sample_objects(), bookmark_interval=60)
    options = fast_options(kubeconfig, **{**QUICK, **overrides})
    store = Store()
    source, task = await started_source(store, options)
    await converged(store, server)
    await wait_for(lambda: header_state(source, store, options) == "live", what="live")
    return server, store, source, task, options


def watches_sent(server: LoopbackAPIServer, path: str = "/api/v1/namespaces") -> int:
    return sum(1 for r in server.requests if r.path == path and r.query.get("watch") == "true")


async def test_a_half_open_watch_is_suspect_and_replaced_without_a_relist(tmp_path: Path) -> None:
    server, store, source, task, _options = await _live(tmp_path)
    log = StateLog(source.status, "Namespace")
    try:
        before = lists_sent(server)
        server.half_open_watches()
        server.state.create(namespace("behind-a-half-open-watch"))
        await converged(store, server, timeout=10)
        suspect = [error for state, error in log.seen if state == "reconnecting"]
        assert suspect and "silent for 1.5 s" in suspect[0], log.seen
        assert log.seen[-1] == ("live", ""), "the new watch is live again"
        assert lists_sent(server) == before, "the new watch resumes: no relist"
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_a_quiet_watch_ends_at_its_timeout_and_is_never_suspect(tmp_path: Path) -> None:
    server, store, source, task, _options = await _live(tmp_path)
    log = StateLog(source.status, "Namespace")
    try:
        before, lists = watches_sent(server), lists_sent(server)
        await asyncio.sleep(3.5)  # no event, no BOOKMARK: only the watch's own end
        assert watches_sent(server) > before, "the server ended the watch, olmtui watched again"
        assert all(state == "live" for state, _ in log.seen), log.seen
        assert lists_sent(server) == lists
        asked = [r.query.get("timeoutSeconds") for r in server.requests if "watch" in r.query]
        assert set(asked) == {"1"}
        server.state.create(namespace("after-quiet"))
        await converged(store, server, timeout=10)
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_a_list_that_never_answers_is_asked_again(tmp_path: Path) -> None:
    """The relist after a compaction meets a server that takes the LIST and never answers;
    once it answers again the cache catches up within a few list timeouts, not at the read
    timeout (60 s here, 90 s by default)."""
    server, store, source, task, _options = await _live(tmp_path)
    try:
        await server.stop()
        server.state.create(namespace("after-compaction"))
        server.lose_lists(True)
        await server.restart(clear_history=True)
        stream = source.status.stream("Namespace")
        await wait_for(lambda: "read timeout" in stream.last_error, "the hung list seen", 10)
        assert header_state(source, store, _options) == "reconnecting"
        server.lose_lists(False)  # the lists asked meanwhile stay unanswered
        await converged(store, server, timeout=5)
    finally:
        server.lose_lists(False)
        await stop_source(source, task)
        await server.stop()
