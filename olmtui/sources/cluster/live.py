"""The live cluster as a source: kubernetes-asyncio list+watch streams feeding the Store.

``connect`` loads the kubeconfig (or the pod's service account) and runs discovery;
``sync_once`` lists everything once (``olmtui check --live``, ``olmtui snapshot``); ``run``
keeps the store equal to the cluster until cancelled. The whole session only ever sends GET
requests: olmtui reads a cluster, it never changes one.

One HTTP client (one connection pool, one set of credentials) serves every request; the
requests for copied CSVs ask for metadata only in their ``Accept`` header. Copies therefore
arrive without status: their phase is unknown live (the model reads copies by their labels
and annotations).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from collections.abc import Awaitable, Callable

import aiohttp
from kubernetes_asyncio.client import ApiClient

from olmtui.errors import (
    ClusterTimedOut,
    ClusterUnauthorized,
    ClusterUnreachable,
    UsageError,
)
from olmtui.sources.catalog.catalogd import CatalogdFetcher
from olmtui.sources.cluster.live_access import AccessTracker
from olmtui.sources.cluster.live_config import (
    ClusterConfig,
    keep_credentials_fresh,
    load_cluster_config,
)
from olmtui.sources.cluster.live_discovery import Discovery, discover
from olmtui.sources.cluster.live_http import Requester, StatusError
from olmtui.sources.cluster.live_informer import NETWORK_ERRORS, Informer, describe
from olmtui.sources.cluster.live_install_pods import InstallPods, PodStream
from olmtui.sources.cluster.live_namespaces import NamespaceReader
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.sources.cluster.live_packagemanifests import (
    PackageManifestPoller,
    changes_catalog_content,
)
from olmtui.sources.cluster.live_pod_events import PodEventCatchUp
from olmtui.sources.cluster.live_resources import (
    CLUSTER_CATALOG,
    EVENT,
    METADATA_LIST_ACCEPT,
    METADATA_WATCH_ACCEPT,
    PACKAGE_MANIFEST,
    POD,
    QUIET_ACCESS,
    STREAMS,
    StreamSpec,
)
from olmtui.sources.cluster.live_retry import Patience
from olmtui.sources.cluster.live_status import LiveStatus, StreamState
from olmtui.store import Change, Obj, Store

__all__ = ["LiveOptions", "LiveSource", "LiveStatus"]

#: How long ``connect`` waits for the first answer before calling the cluster unreachable.
CONNECT_TIMEOUT = 15.0
#: The status names of the tasks that are no stream: ClusterCatalog content, credentials.
CATALOG_CONTENT = "ClusterCatalog content"
CREDENTIALS = "credentials"
#: The task that starts and stops the pod streams of installing CSVs (R-EVD-12).
INSTALL_PODS = "operator pods"
#: The streams whose objects tell which namespaces' Pod Events are kept (R-EVD-1): the
#: Pod Event streams list after them (R-EVD-12).
_RELEVANCE_STREAMS = frozenset({"CatalogSource", "Deployment (operators)"})
#: How often a waiting Pod Event stream looks whether those have listed (seconds).
_RELEVANCE_POLL = 0.05
#: A task that ran this long (seconds) before failing starts its restart backoff afresh.
RESTART_RESET = 60.0
#: The read buffer kubernetes-asyncio gives its HTTP session (2 MiB: one watch event holds a
#: whole object, up to etcd's 1.5 MiB request limit).
KUBERNETES_ASYNCIO_READ_BUFSIZE = 2**21


class LiveSource:
    """A cluster followed live into ``store`` (see the module docstring)."""

    def __init__(self, store: Store, options: LiveOptions) -> None:
        self.store = store
        self.options = options
        self.status = LiveStatus()
        self.label = options.context or ""
        self.discovery: Discovery | None = None
        #: The API server's ``gitVersion`` (``GET /version``), once connected; "" if unknown.
        self.server_version = ""
        self._cluster: ClusterConfig | None = None
        self._api: ApiClient | None = None
        self._informers: list[Informer] = []
        self._poller: PackageManifestPoller | None = None
        self._namespace_reader: NamespaceReader | None = None
        #: R-EVD-12: the pods of installing CSVs' Deployments, and Pod Events caught up.
        self._install_pods: InstallPods | None = None
        self._pod_events: PodEventCatchUp | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._access = AccessTracker(store, options.forbidden_recheck)
        #: ClusterCatalog content from catalogd (R-V1-21); fetches only on a cluster that
        #: serves ClusterCatalogs (its requester is set on connecting).
        self.catalogd = CatalogdFetcher(None, store, options.forbidden_recheck)
        if options.namespaces:  # namespaced kinds are read only there (unknown elsewhere)
            store.read_namespaces = frozenset(options.namespaces)
        self.status.subscribe(self._access)

    @property
    def csv_upgrade_count(self) -> int:
        """CSV upgrades seen while watching (OLM's ``csv_upgrade_count``, as far as a watcher
        can tell: a CSV ADDED whose ``spec.replaces`` names a CSV present in its namespace)."""
        return self.status.csv_upgrade_count

    # -- connecting ----------------------------------------------------------------------
    async def connect(self) -> None:
        """Load the configuration and run discovery; UsageError (one line) when the
        kubeconfig is unusable, the cluster unreachable or OLM absent."""
        options = self.options
        cluster = await load_cluster_config(
            options.kubeconfig, options.context, options.exec_timeout
        )
        self._cluster = cluster
        self.label = self.status.label = cluster.label
        try:
            client = self._api = self._client(cluster)
        except (ssl.SSLError, OSError, ValueError) as exc:  # the TLS material is unusable
            raise UsageError(
                f"cannot use the TLS settings of context {cluster.label!r}: {describe(exc)}"
            ) from None
        server = cluster.configuration.host or ""
        probe = Requester(client, min(self.options.read_timeout, CONNECT_TIMEOUT))
        try:
            patience = Patience(options, options.request_timeout)
            self.discovery = await discover(probe, server, patience)
        except StatusError as exc:
            await self.close()
            refused = ClusterUnauthorized if exc.code == 401 else UsageError
            raise refused(f"the cluster at {server} refused discovery: {exc}") from None
        except NETWORK_ERRORS as exc:
            await self.close()
            raise ClusterUnreachable(
                f"cannot reach the cluster at {server}: {describe(exc)}"
            ) from None
        except UsageError:
            await self.close()
            raise
        self.server_version = await _server_version(probe)
        timeout, list_timeout = self.options.read_timeout, self.options.list_timeout
        self._build(
            Requester(client, timeout, list_timeout=list_timeout),
            Requester(
                client,
                timeout,
                list_accept=METADATA_LIST_ACCEPT,
                watch_accept=METADATA_WATCH_ACCEPT,
                list_timeout=list_timeout,
            ),
        )
        self.status.set_reachable(True)

    @property
    def server(self) -> str:
        """The API server's URL ("" before connecting)."""
        return self._cluster.configuration.host or "" if self._cluster is not None else ""

    @property
    def user(self) -> str:
        """The kubeconfig user of the context ("" in a pod or before connecting)."""
        return self._cluster.user if self._cluster is not None else ""

    @staticmethod
    def _client(cluster: ClusterConfig) -> ApiClient:
        # Each open watch holds a connection of its own (HTTP/1.1), one per stream and
        # namespace: a --namespace session over 14 namespaces already outnumbers the
        # library's default pool of 100, and the streams beyond it would wait forever.
        # The streams bound the connections anyway, so the pool is not limited.
        cluster.configuration.connection_pool_maxsize = 0
        client = ApiClient(cluster.configuration)
        client.user_agent = "olmtui"
        client.rest_client.pool_manager = _without_environment(client.rest_client.pool_manager)
        return client

    def _build(self, full: Requester, metadata: Requester) -> None:
        """One informer per stream (per namespace with ``--namespace`` for namespaced
        kinds; cluster-scoped kinds are still tried cluster-wide, and the given namespaces
        are fetched one by one if listing namespaces is forbidden)."""
        assert self.discovery is not None
        for spec in STREAMS:
            version = self.discovery.version_of(spec.resource)
            if version is None:
                self.status.set_state(
                    spec.name, "unavailable", f"{spec.resource.group} does not serve it"
                )
                continue
            scopes: list[str | None] = [None]
            if spec.resource.namespaced and self.options.namespaces:
                scopes = list(self.options.namespaces)
            requester = metadata if spec.metadata_only else full
            hook = self._count_upgrade if _is_real_csv_stream(spec) else None
            for ns in scopes:
                informer = Informer(
                    spec,
                    version,
                    ns,
                    requester,
                    self.store,
                    self.status,
                    self.options,
                    on_added=hook,
                )
                self._informers.append(informer)
                if spec.name not in QUIET_ACCESS:
                    self._access.track(informer.name, spec.resource.kind, spec.resource.plural, ns)
        self._build_pod_evidence(full)
        if self.discovery.version_of(CLUSTER_CATALOG) is not None:
            self.catalogd.requester = full
        if self.options.namespaces:
            self._namespace_reader = NamespaceReader(
                full, self.options.namespaces, self.store, self.status, self.options
            )
            self._access.cover(NamespaceReader.NAME, "Namespace")
        version = self.discovery.version_of(PACKAGE_MANIFEST)
        if version is None:
            self.status.set_state("PackageManifest", "unavailable", "packageserver is not serving")
        else:
            self._poller = PackageManifestPoller(
                full, version, self.options.namespaces, self.store, self.status, self.options
            )
            self._access.track(self._poller.name, PACKAGE_MANIFEST.kind, PACKAGE_MANIFEST.plural)

    def _build_pod_evidence(self, full: Requester) -> None:
        """R-EVD-12: the pod streams of installing CSVs (made as the cache asks for them) and
        the catch-up of Pod Events whose namespace becomes one of OLM's."""
        assert self.discovery is not None
        pod_version = self.discovery.version_of(POD)
        if pod_version is not None:
            version = pod_version

            def make(spec: StreamSpec, namespace: str) -> PodStream:
                informer = Informer(
                    spec, version, namespace, full, self.store, self.status, self.options
                )
                self._access.track(informer.name, POD.kind, POD.plural, namespace)
                return PodStream(informer.name, informer.run, informer.list_once)

            self._install_pods = InstallPods(self.store, make, self._forget_stream)
        event_version = self.discovery.version_of(EVENT)
        waiting = [i for i in self._informers if i.spec.admits is not None]
        if event_version is not None and waiting:
            name = waiting[0].name

            def skipped(exc: Exception) -> None:
                self.status.skipped_object(name, describe(exc))

            self._pod_events = PodEventCatchUp(
                self.store, full, waiting[0].spec, event_version, skipped, self.options.backoff
            )

    def _forget_stream(self, name: str) -> None:
        """A stream stopped for good (an installing CSV's pods, R-EVD-12): its access and
        status go with it."""
        self._access.untrack(name)
        self.status.forget(name)

    # -- reading -------------------------------------------------------------------------
    async def sync_once(self, *, catalog_content: bool = True, within: float | None = None) -> None:
        """List every stream once into the store, then (``catalog_content``) fetch the
        serving ClusterCatalogs' content from catalogd. Forbidden or missing kinds are marked
        in the status and skipped (forbidden ones in ``Store.unreadable``, not re-checked); a
        cluster lost for good, or one that does not finish answering within
        ``request_timeout`` seconds (or ``within``, what is left of it after connecting),
        raises UsageError."""
        timeout = self.options.request_timeout
        try:
            await asyncio.wait_for(self._sync_all(catalog_content), within or timeout)
        except TimeoutError:
            waiting = [n for n, s in self.status.streams.items() if s.state == "syncing"]
            which = f" (still waiting for {', '.join(waiting[:3])})" if waiting else ""
            raise ClusterTimedOut(
                f"the cluster at {self.server} did not answer within {timeout:g} s"
                f"{which}; --request-timeout sets the limit"
            ) from None

    async def _sync_all(self, catalog_content: bool) -> None:
        self._access.recheck = None
        # R-EVD-12: what the Pod Events and the installing CSVs' pods are read for first
        later = [inf for inf in self._informers if inf.spec.admits is not None]
        jobs = [self._sync(inf.name, inf.list_once) for inf in self._informers if inf not in later]
        if self._poller is not None:
            jobs.append(self._sync(self._poller.name, self._poller.list_once))
        await asyncio.gather(*jobs)
        jobs = [self._sync(inf.name, inf.list_once) for inf in later]
        if self._install_pods is not None:
            jobs += [self._sync(s.name, s.list_once) for s in self._install_pods.update()]
        await asyncio.gather(*jobs)
        reader = self._namespace_reader
        if reader is not None and reader.needed():
            await self._sync(reader.name, reader.read_once)
        if catalog_content:
            await self.catalogd.refresh()

    async def _sync(self, name: str, list_once: Callable[[], Awaitable[None]]) -> None:
        """List one stream, waiting out a busy server (429, 5xx with ``Retry-After``; 410:
        a continue token expired) within ``request_timeout``, as client-go would."""
        patience = Patience(
            self.options, self.options.request_timeout, also=frozenset({410}), timeouts=True
        )
        try:
            await patience.call(
                list_once, lambda error: self.status.set_state(name, "reconnecting", error)
            )
        except StatusError as exc:
            if exc.code not in (403, 404):
                lost = ClusterUnauthorized if exc.code == 401 else ClusterUnreachable
                raise lost(f"lost the cluster while listing {name}: {exc}") from None
            state: StreamState = "no access" if exc.code == 403 else "unavailable"
            self.status.set_state(name, state, str(exc))
            return
        except NETWORK_ERRORS as exc:
            raise ClusterUnreachable(
                f"lost the cluster while listing {name}: {describe(exc)}"
            ) from None
        self.status.set_state(name, "live")

    async def run(self) -> None:
        """List then watch every stream until cancelled; network trouble only shows in
        :attr:`status`, it never ends the session. Call :meth:`connect` first."""
        if self.discovery is None:
            raise RuntimeError("LiveSource.run() before connect()")
        self.store.subscribe(self._on_changes)
        jobs: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            (inf.name, inf.run if inf.spec.admits is None else self._after_relevance(inf))
            for inf in self._informers
        ]
        if self._install_pods is not None:
            jobs.append((INSTALL_PODS, self._install_pods.run))
        if self._poller is not None:
            jobs.append((self._poller.name, self._poller.run))
        if self._namespace_reader is not None:
            jobs.append((self._namespace_reader.name, self._namespace_reader.run))
        if self.catalogd.requester is not None:
            jobs.append((CATALOG_CONTENT, self.catalogd.run))
        cluster, every, limit = (
            self._cluster,
            self.options.credential_refresh,
            self.options.exec_timeout,
        )
        if cluster is not None:
            jobs.append((CREDENTIALS, lambda: keep_credentials_fresh(cluster, every, limit)))
        self._tasks = [asyncio.ensure_future(self._supervised(n, job)) for n, job in jobs]
        try:
            await asyncio.gather(*self._tasks)
        finally:
            await self._stop_tasks()
            self.store.unsubscribe(self._on_changes)

    async def _supervised(self, name: str, job: Callable[[], Awaitable[None]]) -> None:
        """Run ``job`` for good: each task handles cluster trouble itself, and whatever
        escapes it anyway (a bug, an object nothing expected) must neither end the session
        nor leave the header saying "live" over a dead stream. The stream says "failed"
        with the reason until the restarted task reports again; restarts back off."""
        crashes = 0
        while True:
            began = time.monotonic()
            try:
                await job()
                return  # only the credential refresher ends, when there is nothing to renew
            except Exception as exc:
                crashes = 1 if time.monotonic() - began > RESTART_RESET else crashes + 1
                self.status.set_state(name, "failed", describe(exc))
            await asyncio.sleep(self.options.restart_backoff(crashes))
            if name in (CATALOG_CONTENT, CREDENTIALS, INSTALL_PODS):  # no stream reports
                self.status.forget(name)
            else:
                self.status.set_state(name, "syncing")
            for informer in self._informers:
                if informer.name == name:  # the cache is in doubt: relist
                    informer.resource_version = ""

    def _after_relevance(self, informer: Informer) -> Callable[[], Awaitable[None]]:
        """R-EVD-12: run a Pod Event stream once the streams that say which namespaces are
        OLM's have listed (whatever their outcome), so its list finds them known; from then
        on a namespace that becomes OLM's is caught up."""

        async def run() -> None:
            relevance = [i.name for i in self._informers if i.spec.name in _RELEVANCE_STREAMS]
            while any(self.status.stream(n).state == "syncing" for n in relevance):
                await asyncio.sleep(_RELEVANCE_POLL)
            if self._pod_events is not None:
                self._pod_events.begin()
            await informer.run()

        return run

    async def close(self) -> None:
        """Stop every stream and close the connections."""
        await self._stop_tasks()
        if self._pod_events is not None:
            await self._pod_events.close()
        if self._api is not None:
            await self._api.close()
            self._api = None
        self.status.set_reachable(False)

    async def _stop_tasks(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    # -- reacting to changes -------------------------------------------------------------
    def _on_changes(self, changes: list[Change]) -> None:
        """A CatalogSource that changed content means its PackageManifests did too; the
        initial list of catalogs does not count (the poller lists at start anyway)."""
        if self._poller is None:
            return
        if any(changes_catalog_content(c) for c in changes) and self._catalogs_live():
            self._poller.catalogs_changed()

    def _catalogs_live(self) -> bool:
        streams = [inf.name for inf in self._informers if inf.spec.name == "CatalogSource"]
        return any(self.status.stream(n).state == "live" for n in streams)

    def _count_upgrade(self, obj: Obj) -> None:
        """csv_upgrade_count: an ADDED CSV whose ``spec.replaces`` names a CSV of its own
        namespace that is still there is an upgrade (R-CSV-R2's "replacing" lookup)."""
        spec, meta = obj.get("spec"), obj.get("metadata")
        replaces = spec.get("replaces") if isinstance(spec, dict) else None
        if not isinstance(replaces, str) or not isinstance(meta, dict):
            return
        namespace = meta.get("namespace") or ""
        if not replaces or replaces == meta.get("name") or not isinstance(namespace, str):
            return
        if self.store.get("ClusterServiceVersion", namespace, replaces):
            self.status.count_upgrade()


def _without_environment(session: aiohttp.ClientSession) -> aiohttp.ClientSession:
    """``session``'s connection pool (and so its TLS settings) in a session that does not
    trust the environment.

    kubernetes-asyncio makes its session with ``trust_env=True``, and aiohttp then looks the
    proxy up again for every request, in a worker thread: a thread hop per list page while
    the loop is busy parsing. The environment's proxy was resolved once for this cluster
    instead (``live_config.proxy_from_environment``). ``detach`` hands the pool over without
    closing it; the read buffer is kubernetes-asyncio's, sized for watch events that carry
    large objects.
    """
    connector = session.connector
    session.detach()
    return aiohttp.ClientSession(
        connector=connector, trust_env=False, read_bufsize=KUBERNETES_ASYNCIO_READ_BUFSIZE
    )


def _is_real_csv_stream(spec: StreamSpec) -> bool:
    return spec.resource.kind == "ClusterServiceVersion" and not spec.metadata_only


async def _server_version(probe: Requester) -> str:
    """``gitVersion`` of ``GET /version`` (shown in the header); "" when the server does not
    say: the version is a courtesy, never a reason to fail connecting."""
    try:
        info = await probe.get_json("/version")
    except (StatusError, UsageError, ValueError, *NETWORK_ERRORS):
        return ""
    version = info.get("gitVersion") if isinstance(info, dict) else None
    return version if isinstance(version, str) else ""
