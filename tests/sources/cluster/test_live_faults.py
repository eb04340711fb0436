"""Live faults heal fast: one test per fault against the loopback API server, each
ending with the cache equal to the server. Timings are the options' small test values;
the defaults meet the README's targets (see bench/live_faults.py for the figures).

Faults: a malformed object, a task that fails, a hung watch (no answer at all), a silent
watch (answered, then nothing), dropped connections, a server restart, a 403 lifted, 500
and 429 on watch (back off and watch again: no LIST), 410 (relist)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
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
from olmtui.pipeline.build import live_status
from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.cluster.live_http import StatusError, retry_after
from olmtui.store import Change, Store

MALFORMED_CSV = {
    "apiVersion": "operators.coreos.com/v1alpha1",
    "kind": "ClusterServiceVersion",
    "metadata": {"name": "malformed.v1", "namespace": "team-a"},
    "spec": 5,
}


async def _live(tmp_path: Path, **overrides: Any):
    server, kubeconfig = await start_server(tmp_path, sample_objects())
    options = fast_options(kubeconfig, **overrides)
    store = Store()
    source, task = await started_source(store, options)
    await converged(store, server)
    await wait_for(lambda: header_state(source, store, options) == "live", what="live")
    return server, options, store, source, task


async def _close(server: LoopbackAPIServer, source: LiveSource, task: asyncio.Task) -> None:
    await stop_source(source, task)
    await server.stop()


# -- one malformed object ---------------------------------------------------------------------
async def test_a_malformed_object_does_not_stop_the_watch(tmp_path: Path) -> None:
    server, options, store, source, task = await _live(tmp_path)
    try:
        server.state.create(MALFORMED_CSV)
        server.state.create(namespace("after-the-malformed-one"))
        await wait_for(
            lambda: store.get("Namespace", "", "after-the-malformed-one") is not None,
            what="later changes still arrive",
        )
        csv = server.state.list("ClusterServiceVersion")[0]
        server.state.delete(
            "ClusterServiceVersion", csv["metadata"]["namespace"], csv["metadata"]["name"]
        )
        await converged(store, server)
        assert not task.done()
        assert header_state(source, store, options) == "live"
    finally:
        await _close(server, source, task)


async def test_an_object_the_store_cannot_take_is_skipped_and_the_stream_goes_on(
    tmp_path: Path,
) -> None:
    """The guard behind the store's boundary: whatever raises while one object is applied
    costs that object (counted in the stream's status), never the stream."""
    server, options, store, source, task = await _live(tmp_path)

    def refuse(changes: list[Change]) -> None:
        if any(c.key.name == "poison" for c in changes):
            raise TypeError("a field of the wrong type")

    store.subscribe(refuse)
    try:
        server.state.create(namespace("poison"))
        server.state.create(namespace("healthy"))
        await wait_for(lambda: store.get("Namespace", "", "healthy") is not None)
        stream = source.status.stream("Namespace")
        assert stream.skipped >= 1
        assert "wrong type" in stream.last_skipped
        assert stream.state == "live"
        assert header_state(source, store, options) == "live"
    finally:
        store.unsubscribe(refuse)
        await _close(server, source, task)


async def test_a_task_that_fails_says_so_and_is_restarted(tmp_path: Path) -> None:
    """No "live" over a dead stream: a task ended by an unexpected error shows "failed" and
    why, then is started again (after a backoff) and the cache catches up."""
    server, kubeconfig = await start_server(tmp_path, sample_objects())
    options = fast_options(kubeconfig, task_restart_max=0.5)
    store = Store()
    source = LiveSource(store, options)
    await source.connect()
    informer = next(i for i in source._informers if i.name == "Namespace")
    real_run, allowed = informer.run, asyncio.Event()

    async def failing_once() -> None:
        if not allowed.is_set():
            await asyncio.sleep(0.2)
            raise RuntimeError("boom")
        await real_run()

    informer.run = failing_once  # type: ignore[method-assign]
    task = asyncio.create_task(source.run())
    try:
        await wait_for(lambda: header_state(source, store, options) == "failed", what="failed")
        state = live_status(source, store, options)
        assert state.detail == "Namespace failed: RuntimeError: boom"
        assert not source.status.connected
        server.state.create(namespace("while-failed"))
        allowed.set()
        await converged(store, server)
        await wait_for(lambda: header_state(source, store, options) == "live", what="live")
    finally:
        await _close(server, source, task)


# -- the network -------------------------------------------------------------------------------
async def test_hung_watch_is_replaced_after_its_read_timeout(tmp_path: Path) -> None:
    """A watch request that is never answered (no headers) fails at the read timeout."""
    server, options, store, source, task = await _live(tmp_path, read_timeout=0.5)
    try:
        server.stall_watches(True)
        server.drop_connections()  # the new watches hang before any answer
        server.state.create(namespace("while-hung"))
        await wait_for(
            lambda: "read timeout" in source.status.stream("Namespace").last_error,
            what="hung watch noticed",
        )
        assert header_state(source, store, options) == "reconnecting"
        server.stall_watches(False)
        await converged(store, server)
        await wait_for(lambda: header_state(source, store, options) == "live", what="live")
    finally:
        await _close(server, source, task)


async def test_silent_watch_is_replaced_after_its_read_timeout(tmp_path: Path) -> None:
    """A watch that was answered and then sends nothing, not even bookmarks."""
    server, _options, store, source, task = await _live(tmp_path, read_timeout=0.5)
    try:
        server.stall_watches(True)
        server.state.create(namespace("while-silent"))
        await wait_for(
            lambda: "read timeout" in source.status.stream("Namespace").last_error,
            what="silent watch noticed",
        )
        assert store.get("Namespace", "", "while-silent") is None
        server.stall_watches(False)
        await converged(store, server)
    finally:
        await _close(server, source, task)


async def test_dropped_connections_rewatch_without_a_relist(tmp_path: Path) -> None:
    server, _options, store, source, task = await _live(tmp_path)
    try:
        before = lists_sent(server)
        server.drop_connections()
        server.state.create(namespace("after-the-drop"))
        await converged(store, server)
        assert lists_sent(server) == before
    finally:
        await _close(server, source, task)


async def test_server_restart_converges(tmp_path: Path) -> None:
    server, options, store, source, task = await _live(tmp_path)
    try:
        await server.stop()
        await wait_for(lambda: header_state(source, store, options) == "reconnecting")
        server.state.create(namespace("while-down"))
        await server.restart()
        await converged(store, server)
        await wait_for(lambda: header_state(source, store, options) == "live", what="live")
    finally:
        await _close(server, source, task)


async def test_a_lifted_403_shows_the_kind(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, sample_objects())
    server.forbid("subscriptions")
    options = fast_options(kubeconfig, forbidden_initial=0.05, forbidden_recheck=0.4)
    store = Store()
    source, task = await started_source(store, options)
    try:
        stream = source.status.stream("Subscription")
        await wait_for(lambda: stream.state == "no access", what="no access")
        await wait_for(lambda: header_state(source, store, options) == "live, partial")
        assert store.count("Subscription") == 0
        server.allow("subscriptions")
        await converged(store, server)
        await wait_for(lambda: header_state(source, store, options) == "live", what="live")
    finally:
        await _close(server, source, task)


async def _error_on_watch(tmp_path: Path, code: int, reason: str) -> None:
    """Watches answered with ``code``: back off and watch again, never relist."""
    server, options, store, source, task = await _live(tmp_path)
    try:
        before = lists_sent(server)
        server.fail_watches(code, reason)
        server.drop_connections()
        server.state.create(namespace(f"during-{code}"))
        await wait_for(
            lambda: str(code) in source.status.stream("Namespace").last_error,
            what=f"{code} seen",
        )
        assert header_state(source, store, options) == "reconnecting"
        server.fail_watches(None)
        await converged(store, server)
        assert lists_sent(server) == before, f"a {code} on watch must not relist"
        await wait_for(lambda: header_state(source, store, options) == "live", what="live")
    finally:
        await _close(server, source, task)


async def test_500_on_watch_backs_off_and_rewatches_without_a_list(tmp_path: Path) -> None:
    await _error_on_watch(tmp_path, 500, "InternalError")


async def test_429_on_watch_backs_off_and_rewatches_without_a_list(tmp_path: Path) -> None:
    await _error_on_watch(tmp_path, 429, "TooManyRequests")


async def test_410_relists_and_converges(tmp_path: Path) -> None:
    server, _options, store, source, task = await _live(tmp_path)
    try:
        before = lists_sent(server)
        await server.stop()
        server.state.create(namespace("after-compaction"))
        await server.restart(clear_history=True)
        await converged(store, server)
        assert lists_sent(server) > before, "410 Gone: only a relist catches up"
    finally:
        await _close(server, source, task)


async def test_every_request_of_the_faults_is_a_get(tmp_path: Path) -> None:
    server, _options, store, source, task = await _live(tmp_path, read_timeout=0.5)
    try:
        server.state.create(MALFORMED_CSV)
        server.fail_watches(500)
        server.drop_connections()
        stream = source.status.stream("Namespace")
        await wait_for(lambda: "500" in stream.last_error, what="a watch answered 500")
        server.fail_watches(None)
        server.stall_watches(True)
        server.drop_connections()
        await wait_for(lambda: "read timeout" in stream.last_error, what="a stalled watch given up")
        server.stall_watches(False)
        await converged(store, server)
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await _close(server, source, task)


async def test_429_carries_the_servers_retry_after(tmp_path: Path) -> None:
    server, _options, _store, source, task = await _live(tmp_path)
    try:
        server.fail_watches(429, "TooManyRequests")
        informer = source._informers[0]
        with pytest.raises(StatusError) as raised:
            await informer.requester.open_watch(informer.path, [], "")
        assert (raised.value.code, raised.value.retry_after) == (429, 1.0)
    finally:
        server.fail_watches(None)
        await _close(server, source, task)


def test_retry_after_is_read_in_seconds_only() -> None:
    assert [retry_after(v) for v in ("1", "2.5", None, "Wed, 21 Oct 2026 07:28:00 GMT", "-1")] == [
        1.0,
        2.5,
        None,
        None,
        None,
    ]
