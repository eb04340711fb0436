"""OLM v1 live (R-V1-1, R-V1-21): ClusterExtensions and ClusterCatalogs listed and watched
with GET only, a cluster without OLM v1 said nothing about, 403 on the v1 kinds as "no access"
for them only, and catalogd's content fetched through the API server's service proxy
(conditional GET, gzip, 404 retried, 403 on services/proxy), indexed like the FBC loader."""

from __future__ import annotations

import datetime as dt
import gzip
from pathlib import Path
from typing import Any

import aiohttp
from conftest import wait_for
from live_support import (
    converged,
    fast_options,
    start_server,
    started_source,
    stop_source,
)
from v1_cluster import BASE, DIGEST, FBC_FILES, cluster_catalog, cluster_extension, fbc_lines

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.cli import main
from olmtui.model.records.catalog import Catalog
from olmtui.pipeline.catalogs import CatalogSet
from olmtui.sources.catalog.catalogd import fetch_catalog, service_of
from olmtui.sources.catalog.fbc import load_fbc
from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.cluster.live_once import access_findings
from olmtui.store import Store

Obj = dict[str, Any]


def from_files(files: list[Path] = FBC_FILES) -> Catalog:
    catalog = Catalog(None, "files")
    load_fbc(files, catalog)
    return catalog


def v1_objects() -> list[Obj]:
    return [cluster_catalog("operatorhubio"), cluster_extension("argocd")]


def proxy_requests(server: Any) -> list[Any]:
    return [r for r in server.requests if "/proxy/" in r.path]


# -- the v1 kinds ------------------------------------------------------------------------


async def test_v1_kinds_are_listed_and_watched(tmp_path: Path) -> None:
    """R-V1-1: both kinds are cluster-scoped, listed and then watched like every kind."""
    server, kubeconfig = await start_server(tmp_path, v1_objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        assert store.get("ClusterExtension", "", "argocd") is not None
        await wait_for(
            lambda: source.status.stream("ClusterExtension").state == "live", what="live"
        )
        server.state.create(cluster_extension("quay", "quay-operator"))
        changed = cluster_catalog("operatorhubio")
        changed["spec"]["priority"] = 5
        server.state.update(changed)
        server.state.delete("ClusterExtension", None, "argocd")
        await converged(store, server)
        assert store.get("ClusterExtension", "", "argocd") is None
        assert store.get("ClusterExtension", "", "quay") is not None
        assert store.get("ClusterCatalog", "", "operatorhubio")["spec"]["priority"] == 5
        watches = {
            r.path
            for r in server.requests
            if r.query.get("watch") == "true" and "operatorframework" in r.path
        }
        assert watches == {
            "/apis/olm.operatorframework.io/v1/clusterextensions",
            "/apis/olm.operatorframework.io/v1/clustercatalogs",
            # R-V1-24: the revisions, under both names
            "/apis/olm.operatorframework.io/v1/clusterobjectsets",
            "/apis/olm.operatorframework.io/v1/clusterextensionrevisions",
        }
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_a_cluster_without_olm_v1_is_silent(tmp_path: Path) -> None:
    """R-V1-1: no v1 group is "no v1 objects": nothing unreadable, no finding, no fetch."""
    server, kubeconfig = await start_server(tmp_path, [])
    server.hide_group("olm.operatorframework.io")
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert source.status.stream("ClusterExtension").state == "unavailable"
        assert source.status.stream("ClusterCatalog").state == "unavailable"
        assert store.unreadable == {}
        assert access_findings(source) == []
        assert source.catalogd.catalogs() == [] and source.catalogd.problems == {}
        assert not [r for r in server.requests if "operatorframework" in r.path]
    finally:
        await source.close()
        await server.stop()


def test_olmtui_snapshot_saves_objects_without_fetching_catalog_content(tmp_path: Path) -> None:
    """A saved snapshot holds objects only: ``olmtui snapshot`` never asks catalogd for the
    whole FBC a report would read (R-V1-21), while the ClusterCatalogs themselves are saved."""
    handle = run_in_thread(LoopbackAPIServer())
    handle.load(v1_objects())
    handle.call(handle.server.catalogd.serve, "operatorhubio", fbc_lines())
    try:
        kubeconfig = handle.write_kubeconfig(tmp_path / "kubeconfig")
        out = tmp_path / "snapshot.yaml"
        assert main(["snapshot", "-o", str(out), "--kubeconfig", str(kubeconfig)]) == 0
        assert "clustercatalogs" in {r.path.rsplit("/", 1)[-1] for r in handle.server.requests}
        assert not proxy_requests(handle.server)
    finally:
        handle.stop()


async def test_403_on_the_v1_kinds_is_no_access_for_them_only(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, v1_objects())
    server.forbid("clusterextensions")
    server.forbid("clustercatalogs")
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert set(store.unreadable) == {"ClusterExtension", "ClusterCatalog"}
        assert store.unreadable["ClusterExtension"].resource == "clusterextensions"
        states = {n: s.state for n, s in source.status.streams.items()}
        assert {n for n, s in states.items() if s != "live"} == {
            "ClusterExtension",
            "ClusterCatalog",
        }, states
        assert store.count("ClusterExtension") == 0
    finally:
        await source.close()
        await server.stop()


async def test_only_get_requests_for_v1_kinds_and_catalogd(tmp_path: Path) -> None:
    """The GET-only promise covers the new streams and the catalogd fetch."""
    server, kubeconfig = await start_server(tmp_path, v1_objects())
    server.catalogd.serve("operatorhubio", fbc_lines())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    try:
        await converged(store, server)
        await wait_for(lambda: source.catalogd.catalogs() != [], what="catalog fetched")
        server.compact()
        server.drop_connections()
        server.state.create(cluster_extension("quay", "quay-operator"))
        await converged(store, server)
        assert proxy_requests(server)
        assert any("clustercatalogs" in r.path for r in server.requests)
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


# -- catalogd ----------------------------------------------------------------------------


def test_the_service_is_read_from_status_urls_base() -> None:
    service = service_of("https://catalogd-service.olmv1-system.svc/catalogs/operatorhubio")
    assert service is not None
    assert service.proxy_path() == (
        "/api/v1/namespaces/olmv1-system/services/https:catalogd-service:443/proxy"
        "/catalogs/operatorhubio/api/v1/all"
    )
    other = service_of("https://catalogd.openshift-catalogd.svc.cluster.local:8443/catalogs/x/")
    assert other is not None
    assert (other.namespace, other.name, other.port, other.path) == (
        "openshift-catalogd",
        "catalogd",
        8443,
        "/catalogs/x",
    )
    assert service_of("https://example.com/catalogs/x") is None
    assert service_of("") is None


async def test_catalogd_content_equals_the_same_fbc_loaded_from_files(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, v1_objects())
    server.catalogd.serve("operatorhubio", fbc_lines())
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        (fetched,) = source.catalogd.catalogs()
        expected = from_files()
        assert fetched.ref == "operatorhubio"
        assert fetched.origin == BASE.format("operatorhubio") + "/api/v1/all"
        assert fetched.packages == expected.packages
        assert fetched.findings == expected.findings == []
        assert {"cluster-kube-descheduler-operator", "infinispan"} <= set(fetched.packages)
        # R-V1-28: the extension's package asked from metas first; without the gate, all
        metas, request = proxy_requests(server)
        assert metas.path.endswith("/catalogs/operatorhubio/api/v1/metas")
        assert request.path == (
            "/api/v1/namespaces/olmv1-system/services/https:catalogd-service:443/proxy"
            "/catalogs/operatorhubio/api/v1/all"
        )
    finally:
        await source.close()
        await server.stop()


async def test_catalogd_serves_jsonl_gzip_and_if_modified_since(tmp_path: Path) -> None:
    server, _ = await start_server(tmp_path, [])
    when = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    body = fbc_lines(FBC_FILES[1:2])
    server.catalogd.serve("c", body, last_modified=when)
    url = server.url + service_of(BASE.format("c")).proxy_path()  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession(auto_decompress=False) as http:
            async with http.get(url, headers={"Accept-Encoding": "gzip"}) as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"] == "application/jsonl"
                assert resp.headers["Content-Encoding"] == "gzip"
                assert resp.headers["Last-Modified"] == "Sun, 01 Mar 2026 12:00:00 GMT"
                assert gzip.decompress(await resp.read()) == body
            async with http.get(url, headers={"Accept-Encoding": "identity"}) as resp:
                assert "Content-Encoding" not in resp.headers
                assert await resp.read() == body
            since = {"If-Modified-Since": "Sun, 01 Mar 2026 12:00:00 GMT"}
            async with http.get(url, headers=since) as resp:
                assert resp.status == 304 and await resp.read() == b""
            older = {"If-Modified-Since": "Sun, 01 Mar 2026 11:59:59 GMT"}
            async with http.get(url, headers=older) as resp:
                assert resp.status == 200
            async with http.get(url.replace("/catalogs/c/", "/catalogs/nope/")) as resp:
                assert resp.status == 404
            async with http.head(url) as resp:
                assert resp.status == 405
    finally:
        await server.stop()


async def test_fetched_again_only_when_the_resolved_digest_changes(tmp_path: Path) -> None:
    """Cached by status.resolvedSource.image.ref; a new digest asks with If-Modified-Since,
    and a 304 keeps the content; new content under a new digest replaces it."""
    server, kubeconfig = await start_server(tmp_path, v1_objects())
    when = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    server.catalogd.serve("operatorhubio", fbc_lines(FBC_FILES[1:2]), last_modified=when)
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    heard: list[str] = []
    source.catalogd.subscribe(lambda news: heard.extend(n.message for n in news))
    try:
        await wait_for(lambda: source.catalogd.catalogs() != [], what="fetched")
        (first,) = source.catalogd.catalogs()
        relabelled = cluster_catalog("operatorhubio")
        relabelled["metadata"]["labels"]["team"] = "x"  # same digest: no fetch
        server.state.update(relabelled)
        await converged(store, server)
        assert len(proxy_requests(server)) == 2  # metas (404, R-V1-28), then all
        server.state.update(cluster_catalog("operatorhubio", digest=DIGEST[:-1] + "b"))
        await wait_for(lambda: len(proxy_requests(server)) == 3, what="asked again")
        assert proxy_requests(server)[-1].path.endswith("/api/v1/all"), "metas asked once"
        await wait_for(lambda: source.catalogd.problems == {}, what="no problem")
        assert source.catalogd.catalogs()[0] is first, "304: the same content"
        later = when + dt.timedelta(hours=1)
        server.catalogd.serve("operatorhubio", fbc_lines(), last_modified=later)
        server.state.update(cluster_catalog("operatorhubio", digest=DIGEST[:-1] + "c"))
        await wait_for(
            lambda: "cluster-kube-descheduler-operator" in source.catalogd.catalogs()[0].packages,
            what="new content",
        )
        assert heard == [
            "catalogd serves no api/v1/metas: reading api/v1/all",
            "content fetched: 1 package, 49 bundles",
            "content fetched: 4 packages, 94 bundles",
        ], "listeners hear of new content, not of a 304 or a relabelling"
        server.state.update(cluster_catalog("operatorhubio", serving=False))
        await wait_for(lambda: source.catalogd.catalogs() == [], what="content dropped")
        assert heard[-1] == "content dropped: not serving"
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_a_404_is_retried_then_reported(tmp_path: Path) -> None:
    """Non-leader catalogd replicas answer 404: asked again a few times (R-V1-21)."""
    server, kubeconfig = await start_server(
        tmp_path, [cluster_catalog("operatorhubio"), cluster_catalog("gone")]
    )
    server.catalogd.serve("operatorhubio", fbc_lines(FBC_FILES[1:2]))
    server.catalogd.not_leader("operatorhubio", 2)
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    source.catalogd.not_found_delay = 0.01
    try:
        await source.connect()
        await source.sync_once()
        assert [c.ref for c in source.catalogd.catalogs()] == ["operatorhubio"]
        assert set(source.catalogd.problems) == {"gone"}
        assert source.catalogd.problems["gone"].startswith("404")
        gone = [r for r in proxy_requests(server) if "/catalogs/gone/" in r.path]
        assert len(gone) == 4
        assert len(proxy_requests(server)) == 4 + 3
    finally:
        await source.close()
        await server.stop()


async def test_403_on_services_proxy_leaves_the_rest_alone(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, v1_objects())
    server.catalogd.serve("operatorhubio", fbc_lines(FBC_FILES[1:2]))
    server.forbid_service_proxy("olmv1-system")
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert source.catalogd.catalogs() == []
        problem = source.catalogd.problems["operatorhubio"]
        assert problem.startswith("403 Forbidden") and "services/proxy" in problem
        assert store.unreadable == {}
        assert store.count("ClusterCatalog") == 1
    finally:
        await source.close()
        await server.stop()


async def test_catalogs_not_serving_are_not_fetched(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, [cluster_catalog("x", serving=False)])
    server.catalogd.serve("x", fbc_lines(FBC_FILES[1:2]))
    source = LiveSource(Store(), fast_options(kubeconfig))
    try:
        await source.connect()
        await source.sync_once()
        assert source.catalogd.catalogs() == [] and not proxy_requests(server)
    finally:
        await source.close()
        await server.stop()


async def test_fetch_catalog_streams_in_small_reads(tmp_path: Path) -> None:
    """Lines cut across network reads are put together before decoding."""
    server, kubeconfig = await start_server(tmp_path, [])
    server.catalogd.serve("c", fbc_lines())
    source = LiveSource(Store(), fast_options(kubeconfig))
    try:
        await source.connect()
        requester = source.catalogd.requester
        assert requester is not None
        base = BASE.format("c")
        service = service_of(base)
        assert service is not None
        catalog, modified = await fetch_catalog(requester, "c", base, service)
        assert catalog is not None and modified
        assert catalog.packages == from_files().packages
        again, _ = await fetch_catalog(requester, "c", base, service, modified)
        assert again is None
    finally:
        await source.close()
        await server.stop()


def test_catalog_set_adds_fetched_content_after_bindings() -> None:
    """The hook a live session uses: fetched ClusterCatalog content joins the catalogs,
    unless ``--catalog NAME=PATH`` bound content to the same ClusterCatalog."""

    class Fetched:
        def __init__(self) -> None:
            self.listeners: list[Any] = []
            self.content = [Catalog("a", "catalogd a"), Catalog("b", "catalogd b")]

        def catalogs(self) -> list[Catalog]:
            return self.content

        def subscribe(self, listener: Any) -> None:
            self.listeners.append(listener)

    fetched = Fetched()
    bound = Catalog("b", "b.yaml")
    catalogs = CatalogSet(Store(), [bound])
    catalogs.follow(fetched)
    assert [(c.ref, c.origin) for c in catalogs.current()] == [
        ("b", "b.yaml"),
        ("a", "catalogd a"),
    ]
    fetched.content = [Catalog("c", "catalogd c")]
    assert len(catalogs.current()) == 2, "cached until told"
    for listener in fetched.listeners:
        listener([])
    assert [c.ref for c in catalogs.current()] == ["b", "c"]


def test_check_live_reads_the_clustercatalog_content_too(tmp_path: Path) -> None:
    """``olmtui check --live``: the content fetched while listing once joins the session's
    catalogs, and no CatalogSource warning is made of a ClusterCatalog's name."""
    from olmtui.apiserver import LoopbackAPIServer, run_in_thread
    from olmtui.pipeline.build import cluster_once_session

    server = LoopbackAPIServer()
    server.state.load(v1_objects())
    server.catalogd.serve("operatorhubio", fbc_lines(FBC_FILES[1:2]))
    with run_in_thread(server) as handle:
        kubeconfig = handle.write_kubeconfig(tmp_path / "kubeconfig")
        session = cluster_once_session(fast_options(kubeconfig))
    (catalog,) = session.catalogs()
    assert catalog.ref == "operatorhubio" and "infinispan" in catalog.packages
    assert not [f for f in session.analysis.health_findings() if f.code == "CatalogSourceNotFound"]
