"""Namespace objects for ``--namespace`` sessions whose user may not list namespaces.

Such users (an OpenShift project admin, say) can usually GET their own namespaces even
though listing all of them is forbidden. The model needs those objects: an OperatorGroup's
label selector matches namespace labels (R-OG-1), and a namespace without its object looks
absent. So while the cluster-wide Namespace stream is "no access", each given namespace is
fetched on its own, again every ``forbidden_recheck`` seconds.
"""

from __future__ import annotations

import asyncio

from olmtui.sources.cluster.live_http import Requester, StatusError
from olmtui.sources.cluster.live_informer import NETWORK_ERRORS, describe
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.sources.cluster.live_resources import NAMESPACE
from olmtui.sources.cluster.live_status import LiveStatus, StreamState
from olmtui.store import Obj, Store

STREAM = "Namespace"


class NamespaceReader:
    """GETs the namespaces of a ``--namespace`` session when listing them is forbidden."""

    NAME = "Namespace (one by one)"

    def __init__(
        self,
        requester: Requester,
        namespaces: list[str],
        store: Store,
        status: LiveStatus,
        options: LiveOptions,
    ) -> None:
        self.requester = requester
        self.namespaces = list(namespaces)
        self.store = store
        self.status = status
        self.options = options
        self.name = self.NAME

    def needed(self) -> bool:
        return self.status.stream(STREAM).state == "no access"

    async def read_once(self) -> None:
        """Fetch every given namespace; one that is gone (404) leaves the cache."""
        found: list[Obj] = []
        for namespace in self.namespaces:
            try:
                obj = await self.requester.get_json(f"{NAMESPACE.path('v1')}/{namespace}")
            except StatusError as exc:
                if exc.code != 404:
                    raise
                continue
            found.append({**obj, "kind": "Namespace", "apiVersion": "v1"})
        wanted = set(self.namespaces)
        self.store.replace(
            "Namespace",
            found,
            keep=lambda obj: (obj.get("metadata") or {}).get("name") in wanted,
        )
        self.status.set_state(self.name, "live")
        self.status.saw_events(self.name, "")

    async def run(self) -> None:
        """While the Namespace stream has no access, re-read slowly; never raises for
        cluster trouble."""
        failures = 0
        while True:
            wait = self.options.forbidden_recheck
            if self.needed():
                try:
                    await self.read_once()
                    failures = 0
                except StatusError as exc:
                    state: StreamState = "no access" if exc.code == 403 else "reconnecting"
                    self.status.set_state(self.name, state, str(exc))
                except NETWORK_ERRORS as exc:
                    failures += 1
                    self.status.set_state(self.name, "reconnecting", describe(exc))
                    wait = self.options.backoff(failures)
            else:
                wait = min(wait, 1.0)
            await asyncio.sleep(wait)
