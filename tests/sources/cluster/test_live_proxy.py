"""Proxies: the environment's proxy is resolved once per cluster (as kubectl resolves it),
the requests really go through it, and no request looks the environment up again."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes_asyncio.client import Configuration
from live_support import differences, fast_options, must_gather_objects, start_server

from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.cluster.live_config import ClusterConfig, proxy_from_environment
from olmtui.store import Store

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY")
#: A name no resolver knows: only the proxy, which forwards everything to the loopback
#: server, can reach it.
PROXIED_HOST = "cluster.olmtui-test.invalid"


@pytest.fixture(autouse=True)
def no_proxy_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start every test without the machine's own proxy settings."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


def configuration_for(host: str, proxy: str | None = None) -> Configuration:
    configuration = Configuration()
    configuration.host = host
    configuration.proxy = proxy
    return configuration


def test_the_proxy_for_the_servers_scheme_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("HTTP_PROXY", "http://plain.example:8080")
    secure = configuration_for("https://api.cluster.example:6443")
    proxy_from_environment(secure)
    assert secure.proxy == "http://proxy.example:3128"
    assert secure.proxy_headers is None
    plain = configuration_for("http://api.cluster.example:8001")
    proxy_from_environment(plain)
    assert plain.proxy == "http://plain.example:8080"


@pytest.mark.parametrize(
    "host",
    [
        "http://localhost:8001",
        "http://127.0.0.1:8001",
        "https://127.3.4.5:6443",
        "https://[::1]:6443",
    ],
)
def test_loopback_servers_are_never_proxied(host: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As in kubectl (Go's httpproxy): ``olmtui demo`` and port-forwards stay direct."""
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    configuration = configuration_for(host)
    proxy_from_environment(configuration)
    assert configuration.proxy is None


def test_no_proxy_exempts_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "localhost,.cluster.example")
    configuration = configuration_for("https://api.cluster.example:6443")
    proxy_from_environment(configuration)
    assert configuration.proxy is None


def test_the_kubeconfigs_proxy_url_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    configuration = configuration_for(
        "https://api.cluster.example:6443", proxy="http://from-kubeconfig:9000"
    )
    proxy_from_environment(configuration)
    assert configuration.proxy == "http://from-kubeconfig:9000"


def test_credentials_in_the_proxy_url_become_a_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://alice:s3cret@proxy.example:3128")
    configuration = configuration_for("https://api.cluster.example:6443")
    proxy_from_environment(configuration)
    assert configuration.proxy == "http://proxy.example:3128"
    assert configuration.proxy_headers == {"Proxy-Authorization": "Basic YWxpY2U6czNjcmV0"}


def test_an_https_proxy_is_taken_as_kubectl_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "https://proxy.example:3129")
    configuration = configuration_for("https://api.cluster.example:6443")
    proxy_from_environment(configuration)
    assert configuration.proxy == "https://proxy.example:3129"


async def test_the_clients_session_does_not_trust_the_environment() -> None:
    """The session kubernetes-asyncio made (trusting the environment) is replaced by one on
    the same connection pool that does not; closing the client closes both."""
    configuration = configuration_for("https://api.cluster.example:6443")
    client = LiveSource._client(ClusterConfig(configuration, "test"))
    session = client.rest_client.pool_manager
    try:
        assert session.trust_env is False
        assert not session.closed
    finally:
        await client.close()
    assert session.closed


class ForwardingProxy:
    """A plain HTTP proxy on 127.0.0.1 that pipes every connection to ``target`` and keeps
    the request lines it saw (absolute-form, as clients send them to a proxy)."""

    REQUEST_LINE = re.compile(rb"(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP/1\.1")

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.requests: list[str] = []
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._connected, "127.0.0.1", 0)

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for pipe in self._pipes:
            pipe.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        seen = self.requests.append
        pipes = [self._pipe(reader, up_writer, seen), self._pipe(up_reader, writer, None)]
        for coroutine in pipes:
            task = asyncio.ensure_future(coroutine)
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        seen: Callable[[str], Any] | None,
    ) -> None:
        try:
            while chunk := await reader.read(65536):
                if seen is not None:
                    for match in self.REQUEST_LINE.finditer(chunk):
                        seen(f"{match[1].decode()} {match[2].decode()}")
                writer.write(chunk)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()


def behind_a_name(kubeconfig: Path, port: int) -> Path:
    """The kubeconfig with the server called by a name only the proxy can reach (loopback
    addresses are never proxied)."""
    doc = yaml.safe_load(kubeconfig.read_text())
    doc["clusters"][0]["cluster"]["server"] = f"http://{PROXIED_HOST}:{port}"
    kubeconfig.write_text(yaml.safe_dump(doc))
    return kubeconfig


async def requests_through_proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, named: bool
) -> tuple[list[str], int]:
    """Sync once with ``HTTP_PROXY`` set to a forwarding proxy (the server reached by a name
    when ``named``, else at its loopback address); the requests the proxy saw, and the
    server's port."""
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    if named:
        kubeconfig = behind_a_name(kubeconfig, server.port)
    proxy = ForwardingProxy(server.port)
    await proxy.start()
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    source = LiveSource(Store(), fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert differences(source.store, server) == []
    finally:
        await source.close()
        await proxy.stop()
        await server.stop()
    return proxy.requests, server.port


async def test_a_sync_goes_through_the_environments_proxy(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    requests, port = await requests_through_proxy(tmp_path, monkeypatch, named=True)
    base = f"http://{PROXIED_HOST}:{port}/"
    assert requests, "nothing went through the proxy"
    assert all(r.startswith(f"GET {base}") for r in requests), requests
    assert any("/clusterserviceversions?" in r for r in requests)


async def test_a_loopback_server_is_reached_directly(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    requests, _ = await requests_through_proxy(tmp_path, monkeypatch, named=False)
    assert requests == []


async def test_requests_do_not_look_the_proxy_up_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """aiohttp looks a trusted environment's proxy up in a worker thread for every request:
    a thread hop per list page while the loop is busy parsing. The sync makes none."""
    server, kubeconfig = await start_server(tmp_path, must_gather_objects())
    hops: list[Any] = []
    to_thread = asyncio.to_thread

    async def counted(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        hops.append(func)
        return await to_thread(func, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    source = LiveSource(Store(), fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
    finally:
        await source.close()
        await server.stop()
    assert len(server.requests) > 10
    assert hops == []
