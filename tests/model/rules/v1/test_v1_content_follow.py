"""ClusterCatalog content fetched live reaches what reads it (R-V1-20, R-V1-21): when catalogd
serves new content, the session's catalogs, the HealthIndex's ClusterExtension findings (what
the dashboard shows), the model's version (what makes the screens redraw) and the report's
``clusterExtensions[].resolved`` follow, against the loopback API server."""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import html
import re
from pathlib import Path
from typing import Any

from conftest import wait_for
from live_support import fast_options, start_server, started_source, stop_source
from v1_cluster import DIGEST, FBC_FILES, cluster_catalog, fbc_lines
from v1_objects import infinispan_extension

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.model.viewmodels.views import change_entries
from olmtui.pipeline.build import _assemble, live_session
from olmtui.pipeline.catalogs import CatalogSet
from olmtui.sources.catalog.catalogd import CatalogdFetcher
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.store import CATALOG_CONTENT, ContentNews, Store
from olmtui.ui.app import OlmApp

Obj = dict[str, Any]
INFINISPAN = FBC_FILES[1]
RABBITMQ = FBC_FILES[2]
UNPACKED = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)


def codes(session: Any) -> set[str]:
    return {
        f.code for f in session.analysis.health_index().findings() if f.kind == "ClusterExtension"
    }


def resolved(session: Any) -> tuple[Obj | None, str | None]:
    (entry,) = session.analysis.report()["clusterExtensions"]
    return entry["resolved"], entry["error"]


async def test_new_catalogd_content_reaches_findings_and_report(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(
        tmp_path, [cluster_catalog("operatorhubio"), infinispan_extension()]
    )
    server.catalogd.serve("operatorhubio", fbc_lines([RABBITMQ]), last_modified=UNPACKED)
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    session = _assemble(store, "live", "test", [], live_catalogs=source.catalogd)
    try:
        # content without the package: operator-controller's "no bundles found" (R-V1-18)
        await wait_for(
            lambda: "ClusterExtensionWouldNotResolve" in codes(session), what="first content"
        )
        assert resolved(session) == (
            None,
            'error upgrading from currently installed version "2.5.13": no bundles found for '
            'package "infinispan" in channels [stable]',
        )
        version = session.model.version
        # catalogd unpacks a new image: new digest, new content
        later = UNPACKED + dt.timedelta(hours=1)
        server.catalogd.serve("operatorhubio", fbc_lines([INFINISPAN]), last_modified=later)
        server.state.update(cluster_catalog("operatorhubio", digest=DIGEST[:-1] + "b"))
        await wait_for(
            lambda: "ClusterExtensionUpgradeAvailable" in codes(session), what="new content"
        )
        assert "ClusterExtensionWouldNotResolve" not in codes(session)
        assert session.model.version > version, "the screens redraw on a model version"
        assert resolved(session) == (
            {
                "bundle": "infinispan-operator.v2.5.14",
                "version": "2.5.14",
                "catalog": "operatorhubio",
            },
            None,
        )
        # the catalog stops serving: its content is dropped, the resolution is not known
        server.state.update(cluster_catalog("operatorhubio", serving=False))
        await wait_for(
            lambda: "ClusterExtensionUpgradeAvailable" not in codes(session), what="dropped"
        )
        assert resolved(session)[0] is None
    finally:
        await stop_source(source, task)
        await server.stop()


def test_content_arrival_is_one_change_on_the_store_feed() -> None:
    """The CatalogSet turns the fetcher's notice into a ``CATALOG_CONTENT`` change and reads
    the catalogs again on next use."""

    class Fetched:
        def __init__(self) -> None:
            self.content: list[Any] = []
            self.listeners: list[Any] = []

        def catalogs(self) -> list[Any]:
            return list(self.content)

        def subscribe(self, listener: Any) -> None:
            self.listeners.append(listener)

    store = Store()
    heard: list[Any] = []
    catalogs = CatalogSet(store)
    fetched = Fetched()
    catalogs.follow(fetched)
    store.subscribe(heard.extend)
    assert catalogs.current() == []
    from olmtui.model.records.catalog import Catalog

    fetched.content.append(Catalog("operatorhubio", "test", whole=True))
    news = [
        ContentNews("operatorhubio", "content fetched: 1 package, 3 bundles"),
        ContentNews("certified", "content not fetched: 403 Forbidden", "warning"),
    ]
    for listener in fetched.listeners:
        listener(news)
    assert [c.key.kind for c in heard] == [CATALOG_CONTENT]
    assert [c.ref for c in catalogs.current()] == ["operatorhubio"]
    assert copy.deepcopy(heard[0].new) == {
        "kind": CATALOG_CONTENT,
        "metadata": {"name": "ClusterCatalog"},
        "status": {
            "news": [
                {
                    "catalog": "operatorhubio",
                    "message": "content fetched: 1 package, 3 bundles",
                    "severity": "info",
                },
                {
                    "catalog": "certified",
                    "message": "content not fetched: 403 Forbidden",
                    "severity": "warning",
                },
            ]
        },
    }
    # the change log says it, one line per catalog (R-V1-21)
    assert [
        (e.what, e.ref.kind, e.ref.name, e.message, e.severity) for e in change_entries(heard)
    ] == [
        (
            "catalog content",
            "ClusterCatalog",
            "operatorhubio",
            "content fetched: 1 package, 3 bundles",
            "info",
        ),
        (
            "catalog content",
            "ClusterCatalog",
            "certified",
            "content not fetched: 403 Forbidden",
            "warning",
        ),
    ]


def test_a_reason_repeated_on_every_retry_is_news_once() -> None:
    """Content that cannot be fetched is asked again every ``recheck`` seconds; the change
    log hears of the reason when it is new, not on every retry."""
    fetcher = CatalogdFetcher(None, Store(), 1.0)
    heard: list[str] = []
    fetcher.subscribe(lambda news: heard.extend(n.message for n in news))
    for problem in ("403 Forbidden", "403 Forbidden", "connection refused"):
        fetcher._problem("certified", problem)
        fetcher._tell()
    assert heard == [
        "content not fetched: 403 Forbidden",
        "content not fetched: connection refused",
    ]


def _shown(app: OlmApp) -> str:
    """The text of the screen as exported (cells joined, markup gone)."""
    svg = app.export_screenshot()
    return html.unescape(" ".join(re.findall(r"<text[^>]*>(.*?)</text>", svg))).replace("\xa0", " ")


async def test_the_dashboard_follows_new_catalogd_content(tmp_path: Path) -> None:
    """The app redraws the findings when content arrives: nothing in the cluster's objects
    moved but the content, so only the CATALOG_CONTENT change can tell it."""
    server = LoopbackAPIServer()
    server.state.load([cluster_catalog("operatorhubio"), infinispan_extension()])
    server.catalogd.serve("operatorhubio", fbc_lines([RABBITMQ]), last_modified=UNPACKED)
    thread = run_in_thread(server)
    try:
        kubeconfig = str(server.write_kubeconfig(tmp_path / "kubeconfig"))
        session = await asyncio.to_thread(live_session, LiveOptions(kubeconfig=kubeconfig))
        app = OlmApp(session, initial_view="findings")
        async with app.run_test(size=(220, 50)) as pilot:
            await wait_for(
                lambda: "WouldNotResolve" in _shown(app), "WouldNotResolve shown", pilot=pilot
            )
            later = UNPACKED + dt.timedelta(hours=1)
            server.catalogd.serve("operatorhubio", fbc_lines([INFINISPAN]), last_modified=later)
            server.state.update(cluster_catalog("operatorhubio", digest=DIGEST[:-1] + "b"))
            await wait_for(
                lambda: "UpgradeAvailable" in _shown(app), "UpgradeAvailable shown", pilot=pilot
            )
            assert "WouldNotResolve" not in _shown(app)
    finally:
        thread.stop()


def test_settled_means_every_serving_catalog_has_its_content_or_a_reason() -> None:
    """A session caught up with the cluster includes the ClusterCatalogs' content: settled
    once each serving one is fetched at its resolved digest or known not to be fetchable."""
    from olmtui.model.records.catalog import Catalog
    from olmtui.sources.catalog.catalogd import Fetched

    store = Store()
    store.apply("ADDED", cluster_catalog("operatorhubio"))
    store.apply("ADDED", cluster_catalog("stale", serving=False))
    fetcher = CatalogdFetcher(None, store, 1.0)
    assert fetcher.settled(), "nothing can be fetched without a requester"
    fetcher.requester = object()  # type: ignore[assignment]
    assert not fetcher.settled()
    fetcher._fetched["operatorhubio"] = Fetched("old-digest", None, Catalog("operatorhubio", "x"))
    assert not fetcher.settled(), "content of another digest"
    fetcher._fetched["operatorhubio"] = Fetched(DIGEST, None, Catalog("operatorhubio", "x"))
    assert fetcher.settled()
    del fetcher._fetched["operatorhubio"]
    fetcher._problem("operatorhubio", "403 Forbidden")
    assert fetcher.settled(), "a reason is known"
