"""R-V1-28: where catalogd serves ``/api/v1/metas`` (feature gate ``APIV1MetasHandler``), only
the packages ClusterExtensions name are fetched (each package's ``olm.package`` document and
its ``?package=`` documents), equal to the same package loaded from files, GET only; a 404
falls back to ``api/v1/all``, remembered for that catalog (metas is not asked again); an
extension naming another package asks again; without an extension the whole catalog is read."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from conftest import wait_for
from live_support import converged, fast_options, start_server, started_source, stop_source
from v1_cluster import DIGEST, FBC_FILES, cluster_catalog, cluster_extension, fbc_lines

from olmtui.model.records.catalog import Catalog
from olmtui.sources.catalog.catalogd import CatalogdFetcher, Fetched
from olmtui.sources.catalog.fbc import load_fbc
from olmtui.sources.cluster.live import LiveSource
from olmtui.store import Store

CATALOG = "operatorhubio"


def _from_files() -> Catalog:
    catalog = Catalog(None, "files")
    load_fbc(FBC_FILES, catalog)
    return catalog


def _proxied(server: Any) -> list[tuple[str, str, dict[str, str]]]:
    """``(method, endpoint, query)`` of each request catalogd was asked."""
    return [
        (r.method, r.path.rsplit("/", 1)[1], r.query)
        for r in server.requests
        if "/proxy/" in r.path
    ]


async def _synced(tmp_path: Path, objs: list[dict[str, Any]], metas: bool) -> tuple[Any, Any]:
    server, kubeconfig = await start_server(tmp_path, objs)
    server.catalogd.serve(CATALOG, fbc_lines())
    server.catalogd.enable_metas(metas)
    source = LiveSource(Store(), fast_options(kubeconfig))
    await source.connect()
    await source.sync_once()
    return server, source


async def test_with_the_gate_only_the_named_package_is_fetched(tmp_path: Path) -> None:
    objs = [cluster_catalog(CATALOG), cluster_extension("ispn", "infinispan")]
    server, source = await _synced(tmp_path, objs, metas=True)
    try:
        (fetched,) = source.catalogd.catalogs()
        assert set(fetched.packages) == {"infinispan"}
        assert fetched.packages["infinispan"] == _from_files().packages["infinispan"]
        assert fetched.origin.endswith(f"/catalogs/{CATALOG}/api/v1/metas")
        assert not fetched.whole  # the other packages were not asked for
        assert _proxied(server) == [
            ("GET", "metas", {"schema": "olm.package", "name": "infinispan"}),
            ("GET", "metas", {"package": "infinispan"}),
        ]
        assert source.catalogd.problems == {} and source.catalogd.no_metas == set()
    finally:
        await source.close()
        await server.stop()


async def test_a_package_no_catalog_has_is_fetched_as_nothing(tmp_path: Path) -> None:
    objs = [cluster_catalog(CATALOG), cluster_extension("x", "no-such-package")]
    server, source = await _synced(tmp_path, objs, metas=True)
    try:
        (fetched,) = source.catalogd.catalogs()
        assert fetched.packages == {} and fetched.findings == []
    finally:
        await source.close()
        await server.stop()


async def test_without_an_extension_the_whole_catalog_is_read(tmp_path: Path) -> None:
    server, source = await _synced(tmp_path, [cluster_catalog(CATALOG)], metas=True)
    try:
        (fetched,) = source.catalogd.catalogs()
        assert fetched.packages == _from_files().packages
        assert [endpoint for _, endpoint, _ in _proxied(server)] == ["all"]
    finally:
        await source.close()
        await server.stop()


async def test_a_404_falls_back_to_all_once_per_catalog(tmp_path: Path) -> None:
    """The gate off (catalogd's default): metas answers 404, ``all`` is read, and the next
    fetch of that catalog (a new digest) goes to ``all`` straight away."""
    objs = [cluster_catalog(CATALOG), cluster_extension("ispn", "infinispan")]
    server, kubeconfig = await start_server(tmp_path, objs)
    when = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    server.catalogd.serve(CATALOG, fbc_lines(), last_modified=when)
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    heard: list[str] = []
    source.catalogd.subscribe(lambda news: heard.extend(n.message for n in news))
    try:
        await wait_for(lambda: source.catalogd.catalogs() != [], what="fetched")
        (fetched,) = source.catalogd.catalogs()
        assert fetched.packages == _from_files().packages and fetched.whole
        assert source.catalogd.no_metas == {CATALOG}
        assert [endpoint for _, endpoint, _ in _proxied(server)] == ["metas", "all"]
        server.state.update(cluster_catalog(CATALOG, digest=DIGEST[:-1] + "b"))
        await wait_for(lambda: len(_proxied(server)) == 3, what="asked again")
        await converged(store, server)
        assert _proxied(server)[-1][1] == "all", "metas is not asked again"
        assert heard[0] == "catalogd serves no api/v1/metas: reading api/v1/all"
        assert {method for method, _, _ in _proxied(server)} == {"GET"}
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


async def test_an_extension_naming_another_package_asks_again(tmp_path: Path) -> None:
    objs = [cluster_catalog(CATALOG), cluster_extension("ispn", "infinispan")]
    server, kubeconfig = await start_server(tmp_path, objs)
    server.catalogd.serve(CATALOG, fbc_lines())
    server.catalogd.enable_metas()
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    heard: list[str] = []
    source.catalogd.subscribe(lambda news: heard.extend(n.message for n in news))
    try:
        await wait_for(lambda: source.catalogd.catalogs() != [], what="fetched")
        assert set(source.catalogd.catalogs()[0].packages) == {"infinispan"}
        other = "rabbitmq-messaging-topology-operator"
        server.state.create(cluster_extension("rabbit", other))
        await wait_for(
            lambda: set(source.catalogd.catalogs()[0].packages) == {"infinispan", other},
            what="both packages",
        )
        assert source.catalogd.settled()
        assert heard == [
            "content fetched: 1 package, 49 bundles",
            "content asked again: an extension names a new package",
            "content fetched: 2 packages, 61 bundles",
        ]
        assert {endpoint for _, endpoint, _ in _proxied(server)} == {"metas"}
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()


def test_content_asked_for_fewer_packages_than_named_is_left_out() -> None:
    """Until fetched again, a package the content was not asked for is unknown there, not
    absent: that content is not offered (R-V1-28)."""
    store = Store()
    store.apply_many([cluster_catalog(CATALOG), cluster_extension("ispn", "infinispan")])
    fetcher = CatalogdFetcher(None, store, 1.0)
    content = Catalog(CATALOG, "metas")
    fetcher._fetched[CATALOG] = Fetched(DIGEST, None, content, frozenset({"infinispan"}))
    assert fetcher.catalogs() == [content]
    store.apply_many([cluster_extension("other", "other-package")])
    assert fetcher.catalogs() == []
    fetcher._fetched[CATALOG] = Fetched(DIGEST, None, content, None)  # the whole catalog
    assert fetcher.catalogs() == [content]
