"""The loopback Kubernetes API server: real HTTP on 127.0.0.1, read-only, in-process.

No kube-apiserver can run where olmtui is tested or demonstrated, so this serves the
subset of the protocol olmtui, kubernetes-asyncio and kubectl use: discovery, get, list
with selectors and ``limit``/``continue`` pagination, watch with bookmarks and 410
handling, server-side Tables and metadata-only (PartialObjectMetadata) answers, and
catalogd behind the service proxy (``catalogd``, see :mod:`olmtui.apiserver.catalogd`). Every
method but GET is refused with 405, and every request is recorded in ``requests`` so a
test can prove that a client only ever reads.

Objects are changed through the Python API (``server.state``), which emits the watch
events. Test controls reproduce what clients must survive on a real cluster: 403 per
resource (``forbid``, ``forbid_service_proxy``), a cluster without a group
(``hide_group``), streams cut mid-line (``drop_connections``), a server that closes
every connection (``set_unreachable``), stalled watches (``stall_watches``), half-open
watches that never send again (``half_open_watches``), lists answered late (``stall_lists``)
or never (``lose_lists``), watches refused with an error status such as 500, 429 or 410
(``fail_watches``), discovery or lists refused (``fail_discovery``, ``fail_lists``: e.g. a
burst of 429 with ``Retry-After``), a restart on the same port (``restart``) and history compaction
(``compact``, then old resourceVersions and continue tokens give 410).

The server runs on the event loop that calls :meth:`LoopbackAPIServer.start`; use
:func:`olmtui.apiserver.threaded.run_in_thread` to give it a loop of its own.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from aiohttp import web

from olmtui.apiserver import discovery, render
from olmtui.apiserver import status as st
from olmtui.apiserver.catalogd import SERVICE_PROXY, Catalogd
from olmtui.apiserver.kubeconfig import write_kubeconfig
from olmtui.apiserver.negotiation import JSON, Representation, negotiate
from olmtui.apiserver.pagination import ContinueExpired, ListSnapshots
from olmtui.apiserver.permissions import Permissions
from olmtui.apiserver.resources import READ_VERBS, Resource, by_path, lookup
from olmtui.apiserver.selectors import Selection, SelectorError, parse_selection
from olmtui.apiserver.state import ClusterState, ResourceVersionTooLarge, StoredEvent
from olmtui.apiserver.watch import WatchHub, WatchRequest
from olmtui.frozen import frozen

Obj = dict[str, Any]

_TRUE = frozenset({"true", "1"})
_INCLUDE_OBJECT = frozenset({"None", "Metadata", "Object"})


@frozen
class RequestRecord:
    """One HTTP request the server received."""

    method: str
    path: str
    query: dict[str, str]
    accept: str


@frozen
class _Target:
    resource: Resource
    namespace: str | None
    name: str | None


class _BadRequest(Exception):
    pass


class LoopbackAPIServer:
    """A read-only Kubernetes API server for OLM objects on ``http://127.0.0.1:<port>``."""

    def __init__(
        self,
        *,
        bookmark_interval: float = 60.0,
        watch_timeout: float = 1800.0,
        history: int = 10000,
        continue_ttl: float = 300.0,
        user: str = "olmtui-test",
        port: int = 0,
    ) -> None:
        self.state = ClusterState(history=history)
        self.requests: list[RequestRecord] = []
        self.url = ""
        self.user = user
        self.watch_timeout = watch_timeout
        self.permissions = Permissions()
        #: catalogd behind the service proxy: ``catalogd.serve(name, jsonl_bytes)``.
        self.catalogd = Catalogd()
        #: API groups the server acts as if it did not serve (discovery and paths: 404).
        self.hidden_groups: set[str] = set()
        #: Plurals answered with 404 although their group is served (a kind behind a
        #: feature gate, such as OLM v1's clusterobjectsets).
        self.hidden_resources: set[str] = set()
        self._snapshots = ListSnapshots(ttl=continue_ttl)
        self._hub = WatchHub(self.state, bookmark_interval=bookmark_interval)
        self._unreachable = False
        self._lists_stalled = asyncio.Event()
        self._lists_stalled.set()  # set: lists are answered
        #: While set, list requests are lost: never answered, even after it is cleared.
        self._lists_lost = False
        #: Per resource plural: lists of it are answered once its event is set.
        self._lists_held: dict[str, asyncio.Event] = {}
        #: (code, reason) every watch request is answered with, until cleared.
        self._watch_failure: tuple[int, str] | None = None
        #: (code, Retry-After seconds, how many more) discovery requests, and list requests,
        #: are answered with.
        self._discovery_failure: tuple[int, int, int] | None = None
        self._list_failure: tuple[int, int, int] | None = None
        self._runner: web.AppRunner | None = None
        self._port = port  # 0: a free port, chosen at the first start
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self.state.subscribe(self._on_change)

    # -- lifecycle -----------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self._port

    @property
    def open_watches(self) -> int:
        return self._hub.open_count

    async def start(self) -> str:
        """Listen on 127.0.0.1 (a free port the first time, the same one on restart)."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._hub.delivered_rv = self.state.current_rv
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0
        )
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self._port, reuse_address=True)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self._port = runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{self._port}"
        return self.url

    async def stop(self) -> None:
        """Close every watch cleanly and stop listening. The state is kept."""
        if self._runner is None:
            return
        self._hub.close_all()
        await asyncio.sleep(0)
        runner, self._runner = self._runner, None
        await runner.cleanup()

    async def restart(self, *, clear_history: bool = False) -> str:
        """Stop and start again on the same port; ``clear_history`` also compacts."""
        await self.stop()
        if clear_history:
            self.compact()
        return await self.start()

    def write_kubeconfig(
        self,
        path: str | Path,
        *,
        context: str = "loopback",
        namespace: str | None = None,
        token: str | None = None,
    ) -> Path:
        """Write a kubeconfig whose current context points at this server."""
        if not self.url:
            raise RuntimeError("start the server before writing a kubeconfig for it")
        return write_kubeconfig(
            path, self.url, context=context, namespace=namespace, user=self.user, token=token
        )

    # -- test controls -------------------------------------------------------------------
    def forbid(
        self,
        kind_or_plural: str,
        namespace: str | None = None,
        *,
        verbs: Iterable[str] = READ_VERBS,
    ) -> None:
        """Answer ``verbs`` on the resource with 403, everywhere, at the cluster scope only
        (``namespace=""``) or in one namespace."""
        self.permissions.forbid(lookup(kind_or_plural), namespace, verbs)

    def allow(
        self,
        kind_or_plural: str,
        namespace: str | None = None,
        *,
        verbs: Iterable[str] = READ_VERBS,
    ) -> None:
        """Undo :meth:`forbid`."""
        self.permissions.allow(lookup(kind_or_plural), namespace, verbs)

    def forbid_service_proxy(self, namespace: str | None = None) -> None:
        """Answer ``get services/proxy`` with 403 (everywhere, or in one namespace)."""
        self.permissions.forbid(SERVICE_PROXY, namespace, ("get",))

    def hide_group(self, group: str) -> None:
        """Act as a cluster without ``group`` (e.g. no OLM v1): absent from discovery, its
        paths answer 404."""
        self.hidden_groups.add(group)

    def hide_resource(self, kind_or_plural: str) -> None:
        """Act as a cluster whose group does not serve this resource (a feature gate off):
        its paths answer 404."""
        self.hidden_resources.add(lookup(kind_or_plural).plural)

    def drop_connections(self) -> None:
        """Cut every open watch stream mid-stream (no terminating chunk)."""
        self._on_loop(self._hub.drop_all)

    def set_unreachable(self, unreachable: bool) -> None:
        """While set, every request is answered by closing the connection, unanswered."""
        self._unreachable = unreachable

    def stall_watches(self, stalled: bool) -> None:
        """While set, watches (open and new) keep their connection but send nothing."""
        self._on_loop(self._hub.set_stalled, stalled)

    def half_open_watches(self) -> None:
        """Every open watch goes half-open for good: open, silent, never ended (a NAT or a
        server that forgot the connection); new watches work."""
        self._on_loop(self._hub.half_open)

    def stall_lists(self, stalled: bool) -> None:
        """While set, list requests are received but not answered."""
        self._on_loop(self._lists_stalled.clear if stalled else self._lists_stalled.set)

    def hold_lists(self, kind_or_plural: str, held: bool) -> None:
        """While set, lists of one resource are received but not answered, the others are:
        a client's sync that has listed some kinds and not yet others."""
        plural = lookup(kind_or_plural).plural
        self._on_loop(self._hold_lists, plural, held)

    def _hold_lists(self, plural: str, held: bool) -> None:
        event = self._lists_held.setdefault(plural, asyncio.Event())
        if held:
            event.clear()
        else:
            event.set()

    def lose_lists(self, lost: bool) -> None:
        """While set, list requests are received and never answered, not even once it is
        cleared (the answer was lost on the way: only the client giving up ends them)."""
        self._lists_lost = lost

    def fail_watches(self, code: int | None, reason: str = "InternalError") -> None:
        """Answer every new watch request with HTTP ``code`` and a Status (e.g. 500, or 429
        ``TooManyRequests`` with ``Retry-After: 1``) until called with ``None``. Open
        watches are not touched: cut them with :meth:`drop_connections`."""
        self._watch_failure = None if code is None else (code, reason)

    def fail_discovery(self, code: int, times: int, retry_after: int = 1) -> None:
        """Answer the next ``times`` discovery requests (``/version``, ``/api``, ``/apis``
        and below, down to a group version) with HTTP ``code`` (429 ``TooManyRequests`` or
        503 with ``Retry-After: retry_after``, another code without), as a busy API server
        sheds load: a burst that a client must wait out, not fail on."""
        self._discovery_failure = (code, retry_after, times) if times > 0 else None

    def fail_lists(self, code: int, times: int, retry_after: int = 1) -> None:
        """Answer the next ``times`` list requests as :meth:`fail_discovery` does."""
        self._list_failure = (code, retry_after, times) if times > 0 else None

    def compact(self) -> None:
        """Forget the watch history and every continue snapshot: older RVs give 410."""
        self.state.compact()
        self._on_loop(self._snapshots.clear)

    # -- plumbing ------------------------------------------------------------------------
    def _on_loop(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn`` on the server's loop: now if already there, else as soon as it can."""
        loop = self._loop
        if loop is None or loop.is_closed() or threading.get_ident() == self._loop_thread:
            fn(*args)
        else:
            loop.call_soon_threadsafe(fn, *args)

    def _on_change(self, event: StoredEvent) -> None:
        self._on_loop(self._hub.publish, event)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        self.requests.append(
            RequestRecord(
                request.method,
                request.path,
                dict(request.query),
                request.headers.get("Accept", ""),
            )
        )
        if self._unreachable:
            if request.transport is not None:
                request.transport.abort()
            return web.Response()  # its write fails on the dead connection, unsent
        if request.method != "GET":
            return _json(st.method_not_allowed(), 405)
        if self._discovery_failure is not None and _is_discovery(request.path):
            self._discovery_failure, failed = _injected(self._discovery_failure, "discovery")
            return failed
        try:
            return await self._get(request)
        except _BadRequest as exc:
            return _json(st.bad_request(str(exc)), 400)

    async def _get(self, request: web.Request) -> web.StreamResponse:
        segments = [s for s in request.path.split("/") if s]
        if segments in (["api"], ["apis"]):
            version = discovery.aggregated_version(request.headers.get("Accept"))
            if version is not None:
                return _json(
                    discovery.aggregated(
                        version, core=segments == ["api"], hidden=self.hidden_groups
                    ),
                    content_type=discovery.aggregated_content_type(version),
                )
        match segments:
            case ["api", "v1", "namespaces", namespace, "services", service, "proxy", *rest]:
                return self._proxy(request, namespace, service, rest)
        routed = self._route(segments)
        if routed is None:
            return _json(st.path_not_found(), 404)
        if not isinstance(routed, _Target):
            return _json(routed)
        query = request.query
        verb = (
            "get"
            if routed.name
            else ("watch" if query.get("watch", "").lower() in _TRUE else "list")
        )
        resource = routed.resource
        if not self.permissions.allowed(resource, verb, routed.namespace):
            return _json(
                st.forbidden(resource, verb, self.user, routed.namespace, routed.name), 403
            )
        if not resource.can(verb):
            return _json(st.method_not_allowed(), 405)
        accept = request.headers.get("Accept", "")
        rep = negotiate(accept, listing=verb == "list")
        if rep is None:
            return _json(st.not_acceptable(accept), 406)
        include_object = query.get("includeObject", "Metadata")
        if include_object not in _INCLUDE_OBJECT:
            raise _BadRequest(f"includeObject: unsupported value {include_object!r}")
        if routed.name is not None:
            obj = self.state.stored(resource, routed.namespace, routed.name)
            if obj is None:
                return _json(st.not_found(resource, routed.name), 404)
            body = render.represent(obj, rep, resource, include_object=include_object)
            return _json(body, content_type=rep.content_type)
        try:
            selection = parse_selection(
                query.get("labelSelector"), query.get("fieldSelector"), resource.kind
            )
        except SelectorError as exc:
            raise _BadRequest(str(exc)) from exc
        resource_version = query.get("resourceVersion", "")
        if resource_version and not resource_version.isdigit():
            raise _BadRequest(
                f'resourceVersion: Invalid value: "{resource_version}": must be an integer'
            )
        if verb == "watch":
            return await self._watch(
                request,
                WatchRequest(
                    resource,
                    routed.namespace,
                    selection,
                    rep,
                    resource_version,
                    query.get("allowWatchBookmarks", "").lower() in _TRUE,
                    min(
                        _number(query, "timeoutSeconds", 0) or self.watch_timeout,
                        self.watch_timeout,
                    ),
                    include_object,
                ),
            )
        await self._list_answerable(routed.resource.plural)
        return self._list(routed, selection, rep, query, include_object)

    async def _list_answerable(self, plural: str) -> None:
        """Return when a list of ``plural`` may be answered (:meth:`stall_lists`,
        :meth:`hold_lists`); never for a list asked while lists are lost
        (:meth:`lose_lists`): the client's giving up cancels it."""
        if self._lists_lost:
            await asyncio.Event().wait()
        await self._lists_stalled.wait()
        held = self._lists_held.get(plural)
        if held is not None:
            await held.wait()

    async def _watch(self, request: web.Request, params: WatchRequest) -> web.StreamResponse:
        """A watch, unless a test asked for watches to be refused (:meth:`fail_watches`)."""
        if self._watch_failure is None:
            return await self._hub.serve(request, params)
        code, reason = self._watch_failure
        failed = _json(st.status(code, reason, f"injected {code} on watch"), code)
        if code == 429:
            failed.headers["Retry-After"] = "1"
        return failed

    def _proxy(
        self, request: web.Request, namespace: str, service: str, rest: list[str]
    ) -> web.Response:
        """The service proxy: only catalogd's services are behind it (R-V1-21)."""
        if not self.permissions.allowed(SERVICE_PROXY, "get", namespace):
            name = service.split(":")[1] if service.count(":") == 2 else service.split(":")[0]
            return _json(
                st.status(
                    403,
                    "Forbidden",
                    f'services "{name}" is forbidden: User "{self.user}" cannot get resource '
                    f'"services/proxy" in API group "" in the namespace "{namespace}"',
                    {"name": name, "kind": "services"},
                ),
                403,
            )
        return self.catalogd.handle(request, namespace, service, rest)

    def _list(
        self,
        routed: _Target,
        selection: Selection,
        rep: Representation,
        query: Any,
        include_object: str,
    ) -> web.Response:
        """A list, or one page of it: every page of a paginated list comes from the
        snapshot taken for its first page."""
        if self._list_failure is not None:
            self._list_failure, failed = _injected(self._list_failure, "list")
            return failed
        try:
            self.state.check_reached(int(query.get("resourceVersion") or 0))
        except ResourceVersionTooLarge as exc:
            return _json(st.too_large_resource_version(str(exc)), 504)
        limit = int(_number(query, "limit", 0))
        token = query.get("continue")
        try:
            if token:
                page = self._snapshots.next_page(token, limit)
            else:
                objs, rv = self.state.snapshot_with_rv(routed.resource, routed.namespace)
                items = [o for o in objs if selection.matches(o)]
                page = self._snapshots.first_page(items, rv, limit)
        except ContinueExpired:
            return _json(st.expired(st.CONTINUE_EXPIRED), 410)
        list_meta: Obj = {"resourceVersion": str(page.resource_version)}
        if page.continue_token:
            list_meta["continue"] = page.continue_token
            if selection.empty:
                list_meta["remainingItemCount"] = page.remaining
        body = render.object_list(
            routed.resource, page.items, rep, list_meta, include_object=include_object
        )
        return _json(body, content_type=rep.content_type)

    def _route(self, segments: list[str]) -> Obj | _Target | None:
        """What a path names: a discovery document, a resource target, or nothing."""
        match segments:
            case ["version"]:
                return discovery.version_info()
            case ["api"]:
                return discovery.api_versions(f"127.0.0.1:{self._port}")
            case ["apis"]:
                return discovery.group_list(self.hidden_groups)
            case ["apis", group]:
                return discovery.api_group(group, self.hidden_groups)
            case ["api", "v1", *rest]:
                group, version = "", "v1"
            case ["apis", group, version, *rest]:
                if group in self.hidden_groups:
                    return None
            case _:
                return None
        if not rest:
            return discovery.resource_list(group, version)
        if len(rest) in (3, 4) and rest[0] == "namespaces":
            resource = by_path(group, version, rest[2])
            if resource is not None and resource.namespaced:
                return _Target(resource, rest[1], rest[3] if len(rest) == 4 else None)
        if len(rest) in (1, 2):
            resource = by_path(group, version, rest[0])
            if resource is not None and resource.plural in self.hidden_resources:
                return None
            if resource is not None and not (len(rest) == 2 and resource.namespaced):
                return _Target(resource, None, rest[1] if len(rest) == 2 else None)
        return None


def _injected(
    failure: tuple[int, int, int], what: str
) -> tuple[tuple[int, int, int] | None, web.Response]:
    """The answer of an injected failure, and the failure left for the next requests."""
    code, wait, times = failure
    reason = {429: "TooManyRequests", 503: "ServiceUnavailable"}.get(code, "InternalError")
    failed = _json(st.status(code, reason, f"injected {code} on {what}"), code)
    if code in (429, 503):
        failed.headers["Retry-After"] = str(wait)
    return ((code, wait, times - 1) if times > 1 else None), failed


def _is_discovery(path: str) -> bool:
    """``/version``, ``/api``, ``/api/v1``, ``/apis``, ``/apis/GROUP``, ``/apis/GROUP/VERSION``."""
    match [s for s in path.split("/") if s]:
        case ["version"] | ["api"] | ["api", _] | ["apis"] | ["apis", _] | ["apis", _, _]:
            return True
    return False


def _number(query: Any, name: str, default: float) -> float:
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise _BadRequest(f"{name}: invalid value {raw!r}: must be an integer") from None
    if value < 0:
        raise _BadRequest(f"{name}: invalid value {raw!r}: must be >= 0")
    return value


def _json(body: Obj, status: int = 200, content_type: str = JSON) -> web.Response:
    return web.Response(
        body=json.dumps(body, separators=(",", ":")).encode(),
        status=status,
        headers={"Content-Type": content_type},
    )
