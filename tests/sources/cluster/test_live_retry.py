"""One-shot reads wait out a busy API server as client-go does. A burst of
429s with ``Retry-After`` on discovery, or on a list, no longer ends ``check --live``,
``snapshot`` or the dashboard's start with exit 2: they are asked again with a backoff that
honours ``Retry-After``, within ``--request-timeout``. A watch answered 410 again and again
relists with a growing backoff, not at once each time. The requests are counted on the
loopback server; the waits are counted through a recorded sleep, never timed."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import wait_for
from live_support import (
    converged,
    fast_options,
    namespace,
    sample_objects,
    start_server,
    started_source,
    stop_source,
)

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.cli import main
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster import live_retry
from olmtui.sources.cluster.live import LiveOptions
from olmtui.sources.cluster.live_http import StatusError
from olmtui.sources.cluster.live_retry import NETWORK_ATTEMPTS, Patience
from olmtui.store import Store


@pytest.fixture
def busy(tmp_path: Path) -> Iterator[tuple[LoopbackAPIServer, str]]:
    server = LoopbackAPIServer()
    handle = run_in_thread(server)
    handle.load(sample_objects(), skip_unknown=True)
    try:
        yield server, str(handle.write_kubeconfig(tmp_path / "kubeconfig"))
    finally:
        handle.stop()


def discovery_requests(server: LoopbackAPIServer) -> int:
    return sum(1 for r in server.requests if r.path == "/apis")


def run(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(list(args))
    return code, err.getvalue()


@pytest.mark.parametrize("command", ["check", "snapshot"])
def test_a_burst_of_429_on_discovery_is_waited_out(
    busy: tuple[LoopbackAPIServer, str], tmp_path: Path, command: str
) -> None:
    server, kubeconfig = busy
    server.fail_discovery(429, times=3, retry_after=1)
    args = ["--live"] if command == "check" else ["-o", str(tmp_path / "s.yaml")]
    code, err = run(command, *args, "--kubeconfig", kubeconfig)
    assert code in (0, 1), err  # a report, or a snapshot saved: not exit 2
    assert discovery_requests(server) == 4, "three refused, the fourth answered"


def test_a_burst_longer_than_the_request_timeout_is_one_line_exit_2(
    busy: tuple[LoopbackAPIServer, str],
) -> None:
    server, kubeconfig = busy
    server.fail_discovery(429, times=1000, retry_after=1)
    code, err = run("check", "--live", "--kubeconfig", kubeconfig, "--request-timeout", "2s")
    assert code == 2
    assert err.count("\n") == 1 and "429" in err and "Traceback" not in err, err
    assert 2 <= discovery_requests(server) <= 3, "asked again, a second apart, within 2 s"


def test_a_burst_of_429_on_the_lists_is_waited_out(busy: tuple[LoopbackAPIServer, str]) -> None:
    server, kubeconfig = busy
    server.fail_lists(429, times=60, retry_after=1)  # more than four for some kind
    code, err = run("check", "--live", "--kubeconfig", kubeconfig)
    assert code in (0, 1), err
    assert server.requests[-1].query.get("limit"), "the last list was answered"


def test_the_dashboard_opens_after_a_burst_of_429_on_discovery(
    busy: tuple[LoopbackAPIServer, str],
) -> None:
    """``olmtui --live``: the session is built (its probe connects), no exit 2."""
    server, kubeconfig = busy
    server.fail_discovery(429, times=2, retry_after=1)
    session = live_session(LiveOptions(kubeconfig=kubeconfig))
    assert session.store is not None
    assert discovery_requests(server) == 3


async def test_a_live_source_waits_out_a_burst_on_discovery(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, sample_objects())
    server.fail_discovery(503, times=2, retry_after=1)
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        assert discovery_requests(server) == 3
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_a_watch_answered_410_again_and_again_relists_with_a_growing_backoff(
    tmp_path: Path,
) -> None:
    server, kubeconfig = await start_server(tmp_path, sample_objects())
    store = Store()
    options = fast_options(kubeconfig, backoff_max=0.5)
    source, task = await started_source(store, options)
    try:
        await converged(store, server)
        before = lists_of_namespaces(server)
        server.fail_watches(410, "Expired")
        server.drop_connections()
        await wait_for(lambda: lists_of_namespaces(server) > before, what="relisted")
        await asyncio.sleep(2)
        relists = lists_of_namespaces(server) - before
        # 0.02 s doubling to 0.5 s, jittered: about ten in 2 s; at once each time, fifty and more
        assert relists <= 15, f"{relists} relists of one kind in 2 s"
        server.fail_watches(None)
        server.state.create(namespace("after-the-410s"))
        await converged(store, server)
    finally:
        await stop_source(source, task)
        await server.stop()


def lists_of_namespaces(server: LoopbackAPIServer) -> int:
    return sum(
        1
        for r in server.requests
        if r.path == "/api/v1/namespaces" and r.query.get("watch") != "true" and "limit" in r.query
    )


# -- Patience, with the sleeps recorded instead of slept ----------------------------------------
@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    slept: list[float] = []

    async def record(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(live_retry.asyncio, "sleep", record)
    return slept


def busy_then(answer: str, refusals: list[StatusError]):
    async def request() -> str:
        if refusals:
            raise refusals.pop(0)
        return answer

    return request


def too_many(retry_after: float | None) -> StatusError:
    error = StatusError(429, "TooManyRequests", "slow down")
    error.retry_after = retry_after
    return error


def test_patience_waits_at_least_what_retry_after_asks(waits: list[float]) -> None:
    patience = Patience(LiveOptions(), 60)
    request = busy_then("ok", [too_many(3), too_many(None), StatusError(503, "", "")])
    assert asyncio.run(patience.call(request)) == "ok"
    assert len(waits) == 3 and waits[0] >= 3 and all(w > 0 for w in waits)


def test_patience_gives_up_when_retry_after_outlasts_the_deadline(waits: list[float]) -> None:
    patience = Patience(LiveOptions(), 2)
    with pytest.raises(StatusError, match="429"):
        asyncio.run(patience.call(busy_then("ok", [too_many(5)])))
    assert waits == []


def test_patience_does_not_retry_a_refusal_that_will_not_change(waits: list[float]) -> None:
    patience = Patience(LiveOptions(), 60)
    with pytest.raises(StatusError, match="401"):
        asyncio.run(patience.call(busy_then("ok", [StatusError(401, "Unauthorized", "")])))
    assert waits == []


def test_patience_tries_a_failing_connection_a_few_times_only(waits: list[float]) -> None:
    calls = 0

    async def refused() -> str:
        nonlocal calls
        calls += 1
        raise ConnectionRefusedError("refused")

    with pytest.raises(ConnectionRefusedError):
        asyncio.run(Patience(LiveOptions(), 60).call(refused))
    assert calls == NETWORK_ATTEMPTS
