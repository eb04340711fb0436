"""ClusterCatalog content, fetched live from catalogd through the API server (R-V1-21).

catalogd serves each catalog's FBC as JSON Lines at ``<status.urls.base>/api/v1/all``.
From outside the cluster it is reached with a plain GET through the API server's service
proxy (``/api/v1/namespaces/<ns>/services/https:<svc>:<port>/proxy/<path>``), over the
live source's own HTTP client (same credentials, TLS and proxy settings). Never a
port-forward, never a POST. The body is streamed: each line is decoded once and handed to
the FBC loader's document reading (``FBCIndexer``), so a fetched catalog equals the same
FBC loaded from a file. Its ``Catalog.ref`` is the ClusterCatalog's name (a ref without
``/``).

When ClusterExtensions name packages, only those packages' documents are asked for where
catalogd serves ``<base>/api/v1/metas`` (feature gate ``APIV1MetasHandler``, R-V1-28): per
package ``?schema=olm.package&name=P`` (the package's own document, which carries no
``package`` field) and ``?package=P`` (its channels, bundles and deprecations), GET too. A
catalogd without the gate answers 404: then the whole ``all`` stream is read, and that catalog
is remembered to have no metas for the rest of the session (asked once, not on every fetch).

Only catalogs whose ``Serving`` condition is True are fetched, and each is fetched again
only when its ``status.resolvedSource.image.ref`` changes (then conditionally, with
``If-Modified-Since``, when the same packages are asked for) or an extension names a package
its content was not asked for. A 404 to ``all`` is retried a few times (catalogd replicas that
are not the leader answer 404); a 403 means no ``get services/proxy`` in catalogd's namespace.
Neither ends anything: the catalog's content is then simply not known, and :attr:`problems`
says why.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from olmtui.frozen import frozen
from olmtui.gc_pause import cyclic_gc_paused
from olmtui.kinds import CLUSTER_CATALOG, CLUSTER_EXTENSION
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.v1.catalogs import ClusterCatalog, decode_catalog
from olmtui.sources import fast_json
from olmtui.sources.catalog.fbc import FBCIndexer
from olmtui.sources.catalog.files import unreadable
from olmtui.sources.cluster.live_http import EventLines, Requester, StatusError
from olmtui.sources.cluster.live_informer import NETWORK_ERRORS, describe
from olmtui.store import Change, ContentNews, Store

#: How many times a 404 is asked again before the catalog counts as not served.
NOT_FOUND_ATTEMPTS = 4
#: Seconds between those attempts.
NOT_FOUND_DELAY = 0.5
ACCEPT = "application/jsonl, application/json;q=0.9, */*;q=0.1"
#: The endpoints under a catalog's ``status.urls.base`` (R-V1-21, R-V1-28).
ALL = "api/v1/all"
METAS = "api/v1/metas"


@frozen
class CatalogdService:
    """Where a ClusterCatalog's content is: a Service and the path under it."""

    namespace: str
    name: str
    scheme: str
    port: int
    path: str

    def proxy_path(self, endpoint: str = ALL) -> str:
        """The API server's service-proxy path to ``<base>/<endpoint>`` (R-V1-21)."""
        service = f"{self.scheme}:{self.name}:{self.port}"
        return f"/api/v1/namespaces/{self.namespace}/services/{service}/proxy{self.path}/{endpoint}"


def service_of(base_url: str) -> CatalogdService | None:
    """``https://catalogd-service.olmv1-system.svc/catalogs/x`` -> its Service (R-V1-21:
    the URL is opaque, so only a host of the form ``<svc>.<ns>.svc[.<domain>][:port]`` is
    understood); None for anything else."""
    try:
        parts = urlsplit(base_url)
        port = parts.port
    except ValueError:
        return None
    labels = (parts.hostname or "").split(".")
    if parts.scheme not in ("http", "https") or len(labels) < 3 or labels[2] != "svc":
        return None
    if not labels[0] or not labels[1]:
        return None
    default = 443 if parts.scheme == "https" else 80
    path = str(PurePosixPath("/" + parts.path.strip("/"))).rstrip("/")
    return CatalogdService(labels[1], labels[0], parts.scheme, port or default, path)


@frozen
class Fetched:
    """One catalog's content, and what it was fetched for: the resolved digest and the
    packages asked for (``None``: the whole catalog, ``api/v1/all``)."""

    resolved_ref: str | None
    last_modified: str | None
    catalog: Catalog
    packages: frozenset[str] | None = None

    def holds(self, packages: frozenset[str]) -> bool:
        """Whether this content answers for every one of ``packages``."""
        return self.packages is None or packages <= self.packages


class MetasNotServed(Exception):
    """catalogd answered 404 to ``/api/v1/metas``: its ``APIV1MetasHandler`` gate is off (or
    the replica asked is not the leader); ``api/v1/all`` is read instead (R-V1-28)."""


async def index_lines(chunks: Any, catalog: Catalog, origin: str) -> None:
    """Index the JSON Lines read from ``chunks`` (an async iterator of bytes) into
    ``catalog``: each line decoded once, the event loop let go after each network read
    (what arrived since the last one: tens of KiB while the index keeps up)."""
    indexer = FBCIndexer(catalog, Path(origin))
    await _feed(indexer, chunks, catalog, origin)
    indexer.finish()


async def _feed(indexer: FBCIndexer, chunks: Any, catalog: Catalog, origin: str) -> None:
    """The JSON Lines of one response into ``indexer`` (see :func:`index_lines`)."""
    lines = EventLines()
    async for chunk in chunks:
        # Nothing made here holds a cycle: the documents are dropped once read, and what the
        # index keeps (packages, bundles) lives as long as the session, so it is moved out
        # of the collector's view instead of being walked again by every collection.
        with cyclic_gc_paused(keep=True):
            for line in lines.feed(chunk):
                if not indexer.add_line(line):
                    indexer.add(_decode(line, catalog, origin, indexer.documents + 1))
        await asyncio.sleep(0)
    if lines.partial:
        raise ValueError(f"{origin}: the content ended inside a line")


def _decode(line: bytes, catalog: Catalog, origin: str, number: int) -> Any:
    try:
        return fast_json.loads(line)
    except ValueError as exc:
        catalog.findings.append(unreadable(Path(origin), f"line {number}: not JSON ({exc})"))
        return None


async def fetch_catalog(
    requester: Requester,
    name: str,
    base: str,
    service: CatalogdService,
    since: str | None = None,
    *,
    attempts: int = NOT_FOUND_ATTEMPTS,
    delay: float = NOT_FOUND_DELAY,
) -> tuple[Catalog | None, str | None]:
    """GET ``<base>/api/v1/all`` of ClusterCatalog ``name`` through the service proxy; the
    catalog (None when ``since`` is given and nothing changed: 304) and its
    ``Last-Modified``. Raises StatusError (a 404 only after ``attempts``) or network errors."""
    headers = {"Accept": ACCEPT, "Accept-Encoding": "gzip"}
    if since:
        headers["If-Modified-Since"] = since
    path = service.proxy_path()
    for attempt in range(1, attempts + 1):
        try:
            response = await requester.open(path, (), headers=headers, also_ok=(304,))
            break
        except StatusError as exc:
            if exc.code != 404 or attempt == attempts:
                raise
            await asyncio.sleep(delay)
    try:
        modified = response.headers.get("Last-Modified")
        if response.status == 304:
            return None, modified or since
        origin = f"{base.rstrip('/')}/{ALL}"
        catalog = Catalog(name, origin, whole=True)
        await index_lines(response.content.iter_any(), catalog, origin)
        return catalog, modified
    finally:
        response.close()


def package_queries(package: str) -> list[list[tuple[str, str]]]:
    """The ``/api/v1/metas`` queries that give one package's documents (R-V1-28): its
    ``olm.package`` document, which has no ``package`` field, then every document whose
    ``package`` is it (channels, bundles, deprecations)."""
    return [[("schema", "olm.package"), ("name", package)], [("package", package)]]


async def fetch_packages(
    requester: Requester,
    name: str,
    base: str,
    service: CatalogdService,
    packages: frozenset[str],
    since: str | None = None,
) -> tuple[Catalog | None, str | None]:
    """GET the documents of ``packages`` from ``<base>/api/v1/metas`` of ClusterCatalog
    ``name`` (R-V1-28): one catalog holding those packages only (not ``whole``), None when
    ``since`` is given and nothing changed (304 to the first query), and ``Last-Modified``.
    Raises :class:`MetasNotServed` when the first query is answered 404, StatusError or
    network errors otherwise."""
    headers = {"Accept": ACCEPT, "Accept-Encoding": "gzip"}
    path = service.proxy_path(METAS)
    origin = f"{base.rstrip('/')}/{METAS}"
    catalog = Catalog(name, origin)
    indexer = FBCIndexer(catalog, Path(origin))
    modified: str | None = None
    queries = [query for package in sorted(packages) for query in package_queries(package)]
    for number, query in enumerate(queries):
        first = number == 0
        asked = {**headers, "If-Modified-Since": since} if first and since else headers
        try:
            response = await requester.open(path, query, headers=asked, also_ok=(304,))
        except StatusError as exc:
            if first and exc.code == 404:
                raise MetasNotServed(str(exc)) from exc
            raise
        try:
            if first:
                modified = response.headers.get("Last-Modified")
                if response.status == 304:  # one file behind every query: none changed
                    return None, modified or since
            await _feed(indexer, response.content.iter_any(), catalog, origin)
        finally:
            response.close()
    indexer.finish()
    return catalog, modified


def content_summary(catalog: Catalog) -> str:
    bundles = sum(len(package.bundles) for package in catalog.packages.values())
    packages = len(catalog.packages)
    return f"{packages} package{'s' * (packages != 1)}, {bundles} bundle{'s' * (bundles != 1)}"


class CatalogdFetcher:
    """Keeps the content of every serving ClusterCatalog in the store fetched (see the
    module docstring). :meth:`catalogs` is what a session's catalogs add; listeners given
    to :meth:`subscribe` hear when it changed."""

    def __init__(self, requester: Requester | None, store: Store, recheck: float) -> None:
        self.requester = requester
        self.store = store
        self.recheck = recheck
        #: ClusterCatalog name -> why its content is not known (no access, not found, ...).
        self.problems: dict[str, str] = {}
        #: The ClusterCatalogs whose catalogd answered 404 to ``/api/v1/metas``: read whole
        #: from ``api/v1/all`` for the rest of the session (R-V1-28).
        self.no_metas: set[str] = set()
        self._fetched: dict[str, Fetched] = {}
        self._listeners: list[Callable[[Sequence[ContentNews]], None]] = []
        #: what changed since listeners last heard, for the change log
        self._news: list[ContentNews] = []
        self._wake = asyncio.Event()
        self.not_found_delay = NOT_FOUND_DELAY

    def catalogs(self) -> list[Catalog]:
        """The content fetched, one Catalog per ClusterCatalog, ordered by name; content
        asked for fewer packages than the extensions now name is left out until fetched
        again (R-V1-28: a package it was not asked for is unknown there, not absent)."""
        wanted = self.wanted_packages()
        return [
            fetched.catalog
            for name, fetched in sorted(self._fetched.items())
            if fetched.holds(wanted)
        ]

    def subscribe(self, listener: Callable[[Sequence[ContentNews]], None]) -> None:
        """``listener`` hears what changed in the content (or in why it is not known)."""
        self._listeners.append(listener)

    def _tell(self) -> None:
        news, self._news = self._news, []
        if news:
            for listener in list(self._listeners):
                listener(news)

    def _problem(self, name: str, problem: str) -> None:
        """Content that could not be fetched: news when the reason is new (the fetch is
        retried every ``recheck`` seconds, and the same reason each time is not news)."""
        if self.problems.get(name) != problem:
            self._news.append(ContentNews(name, f"content not fetched: {problem}", "warning"))
        self.problems[name] = problem

    def settled(self) -> bool:
        """Whether every serving ClusterCatalog of the store has its content fetched at its
        resolved digest, or a reason it could not be (a session caught up with the cluster
        includes the catalogs' content). Without a way to fetch, nothing is awaited."""
        if self.requester is None:
            return True
        wanted = self.wanted_packages()
        for cluster_catalog in map(decode_catalog, self.store.list(CLUSTER_CATALOG)):
            if cluster_catalog.serving is not True or cluster_catalog.name in self.problems:
                continue
            fetched = self._fetched.get(cluster_catalog.name)
            if fetched is None or not self._current(fetched, cluster_catalog, wanted):
                return False
        return True

    def wanted_packages(self) -> frozenset[str]:
        """The packages the store's ClusterExtensions name: all the content their resolution
        reads (R-V1-28); empty when none does."""
        names = (
            ((spec.get("source") or {}).get("catalog") or {}).get("packageName")
            for spec in (e.get("spec") or {} for e in self.store.list(CLUSTER_EXTENSION))
            if isinstance(spec, dict)
        )
        return frozenset(n for n in names if isinstance(n, str) and n)

    def _current(
        self, fetched: Fetched, cluster_catalog: ClusterCatalog, wanted: frozenset[str]
    ) -> bool:
        """Whether ``fetched`` is the catalog's content at its digest for every package
        wanted."""
        return fetched.resolved_ref == cluster_catalog.resolved_ref and fetched.holds(wanted)

    def on_store_changes(self, changes: list[Change]) -> None:
        """A ClusterCatalog came, went or changed, or an extension that may name another
        package: look again soon."""
        if any(change.key.kind in (CLUSTER_CATALOG, CLUSTER_EXTENSION) for change in changes):
            self._wake.set()

    async def refresh(self) -> None:
        """Fetch every serving ClusterCatalog whose resolved digest is not the one cached,
        drop the content of those gone or not serving; never raises for cluster trouble."""
        if self.requester is None:
            return
        # read as the model reads them (R-V1-7), so fetched means what the screens say
        current = {c.name: c for c in map(decode_catalog, self.store.list(CLUSTER_CATALOG))}
        for name in list(self._fetched):
            if name not in current or current[name].serving is not True:
                del self._fetched[name]
                why = "the ClusterCatalog is gone" if name not in current else "not serving"
                self._news.append(ContentNews(name, f"content dropped: {why}"))
        for name in list(self.problems):
            if name not in current:
                del self.problems[name]
        self.no_metas &= set(current)
        wanted = self.wanted_packages()
        lacking = sorted(
            n for n, f in self._fetched.items() if n in current and not f.holds(wanted)
        )
        for name in lacking:  # left out of catalogs() from now: say so before the fetch
            self._news.append(
                ContentNews(name, "content asked again: an extension names a new package")
            )
        if lacking:
            self._tell()
        for name, cluster_catalog in sorted(current.items()):
            if not name or cluster_catalog.serving is not True:
                continue
            cached = self._fetched.get(name)
            if cached is not None and self._current(cached, cluster_catalog, wanted):
                continue
            await self._fetch(cluster_catalog, cached, wanted)
        self._tell()

    async def _fetch(
        self, cluster_catalog: ClusterCatalog, cached: Fetched | None, wanted: frozenset[str]
    ) -> None:
        assert self.requester is not None
        name, base = cluster_catalog.name, cluster_catalog.base_url or ""
        service = service_of(base)
        if service is None:
            self._problem(name, f"status.urls.base {base!r} names no Service")
            return
        # R-V1-28: only the packages extensions name, where catalogd serves them one by one;
        # a conditional GET only for the same question (the same packages, or the whole)
        packages = wanted if wanted and name not in self.no_metas else None
        asked_before = cached is not None and cached.packages == packages
        since = cached.last_modified if cached is not None and asked_before else None
        try:
            if packages is not None:
                try:
                    catalog, modified = await fetch_packages(
                        self.requester, name, base, service, packages, since
                    )
                except MetasNotServed:
                    packages, since = None, None
                    self.no_metas.add(name)
                    self._news.append(
                        ContentNews(name, f"catalogd serves no {METAS}: reading {ALL}")
                    )
            if packages is None:
                catalog, modified = await fetch_catalog(
                    self.requester, name, base, service, since, delay=self.not_found_delay
                )
        except StatusError as exc:
            self._problem(name, str(exc))
            return
        except (*NETWORK_ERRORS, ValueError) as exc:
            self._problem(name, describe(exc))
            return
        self.problems.pop(name, None)
        if catalog is None:  # 304: same content under a new digest
            assert cached is not None
            self._fetched[name] = Fetched(
                cluster_catalog.resolved_ref, modified, cached.catalog, cached.packages
            )
            return
        self._fetched[name] = Fetched(cluster_catalog.resolved_ref, modified, catalog, packages)
        self._news.append(ContentNews(name, f"content fetched: {content_summary(catalog)}"))

    async def run(self) -> None:
        """Refresh now, then whenever a ClusterCatalog changes (and every ``recheck``
        seconds while some catalog's content could not be fetched); until cancelled."""
        self.store.subscribe(self.on_store_changes)
        try:
            while True:
                self._wake.clear()
                await self.refresh()
                wait = self.recheck if self.problems else None
                with contextlib.suppress(TimeoutError):  # not wait_for: it may swallow a cancel
                    async with asyncio.timeout(wait):
                        await self._wake.wait()
        finally:
            self.store.unsubscribe(self.on_store_changes)
