"""PackageManifests, polled: OLM's packageserver serves them as an aggregated API that
cannot be watched (its ClusterRole grants get/list only), so they are listed every
``packagemanifest_interval`` seconds and soon after a CatalogSource changes in a way that
can change its content (debounced: a burst of catalog updates costs one relist).
"""

from __future__ import annotations

import asyncio
import contextlib

from olmtui.sources.cluster.live_http import Requester, StatusError
from olmtui.sources.cluster.live_informer import NETWORK_ERRORS, Shaper, describe, relist
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.sources.cluster.live_resources import PACKAGE_MANIFEST, StreamSpec
from olmtui.sources.cluster.live_status import LiveStatus, StreamState
from olmtui.store import Change, Obj, Store

SPEC = StreamSpec("PackageManifest", PACKAGE_MANIFEST)


def changes_catalog_content(change: Change) -> bool:
    """Whether a CatalogSource change may change the packages it serves: it appeared or went,
    its spec changed, its registry was polled for a new image, or its connection state moved
    (a catalog that becomes READY starts serving). Heartbeats such as ``lastConnect`` are not."""
    if change.key.kind != "CatalogSource":
        return False
    if change.old is None or change.new is None:
        return True
    return _content_fields(change.old) != _content_fields(change.new)


def _content_fields(obj: Obj) -> tuple[object, ...]:
    status = obj.get("status") or {}
    return (
        obj.get("spec"),
        status.get("latestImageRegistryPoll"),
        (status.get("connectionState") or {}).get("lastObservedState"),
        status.get("registryService"),
    )


class PackageManifestPoller:
    """Keeps the store's PackageManifests equal to the cluster's, by listing."""

    def __init__(
        self,
        requester: Requester,
        version: str,
        namespaces: list[str],
        store: Store,
        status: LiveStatus,
        options: LiveOptions,
    ) -> None:
        self.requester = requester
        self.store = store
        self.status = status
        self.options = options
        self.shape = Shaper(SPEC, version)
        self.scopes: list[str | None] = list(namespaces) or [None]
        self.paths = {ns: PACKAGE_MANIFEST.path(version, ns) for ns in self.scopes}
        self.name = SPEC.name
        self._wake = asyncio.Event()
        status.stream(self.name)

    def catalogs_changed(self) -> None:
        """Ask for a relist soon (several calls within the debounce period make one)."""
        self._wake.set()

    async def list_once(self) -> None:
        """List every scope into the store (raises StatusError or network errors)."""
        for namespace, path in self.paths.items():
            pages = self.requester.list_pages(path, ())
            version = await relist(
                self.store,
                "PackageManifest",
                pages,
                self.shape,
                namespace,
                SPEC.owns,
                lambda exc: self.status.skipped_object(self.name, describe(exc)),
            )
            self.status.saw_events(self.name, version)
        self.status.set_state(self.name, "live")

    async def run(self) -> None:
        """Poll forever; never raises for cluster trouble."""
        failures = 0
        while True:
            self._wake.clear()
            try:
                await self.list_once()
                failures = 0
                wait = self.options.packagemanifest_interval
            except StatusError as exc:
                if exc.code in (403, 404):
                    state: StreamState = "no access" if exc.code == 403 else "unavailable"
                    self.status.set_state(self.name, state, str(exc))
                    wait = self.options.forbidden_recheck
                else:
                    failures += 1
                    self.status.set_state(self.name, "reconnecting", str(exc))
                    wait = self.options.backoff(failures)
            except NETWORK_ERRORS as exc:
                failures += 1
                self.status.set_state(self.name, "reconnecting", describe(exc))
                wait = self.options.backoff(failures)
            with contextlib.suppress(TimeoutError):  # not wait_for: it may swallow a cancel
                async with asyncio.timeout(wait):
                    await self._wake.wait()
                await asyncio.sleep(self.options.packagemanifest_debounce)
