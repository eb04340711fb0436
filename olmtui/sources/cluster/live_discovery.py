"""Which API groups the cluster serves: is OLM there, and which versions of its kinds.

Discovery runs once when a live source connects (not on the UI path) and its answer is
kept for the session. A cluster without ``operators.coreos.com`` has no OLM v0: that is
said in one line instead of failing later on every list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from olmtui.errors import UsageError
from olmtui.sources.cluster.live_http import Requester
from olmtui.sources.cluster.live_resources import OLM_GROUP, Resource
from olmtui.sources.cluster.live_retry import Patience


@dataclass(frozen=True)
class Discovery:
    """Served API groups and their versions (core ``v1`` is always served)."""

    groups: dict[str, tuple[str, ...]]

    def version_of(self, resource: Resource) -> str | None:
        """The first of the resource's preferred versions the cluster serves, or None."""
        if not resource.group:
            return "v1"
        served = self.groups.get(resource.group, ())
        return next((v for v in resource.versions if v in served), None)


def parse_group_list(group_list: dict[str, Any]) -> Discovery:
    """Read an ``APIGroupList`` (the plain ``GET /apis`` answer)."""
    groups: dict[str, tuple[str, ...]] = {}
    for group in group_list.get("groups") or []:
        versions = tuple(v.get("version", "") for v in group.get("versions") or [])
        groups[group.get("name", "")] = versions
    return Discovery(groups)


async def discover(requester: Requester, server: str, patience: Patience) -> Discovery:
    """``GET /apis`` and check that OLM is installed (raises UsageError otherwise). A busy
    server's 429 or 5xx is waited out (``Retry-After`` honoured) within ``patience``."""
    discovery = parse_group_list(await patience.call(lambda: requester.get_json("/apis")))
    if OLM_GROUP not in discovery.groups:
        raise UsageError(
            f"no OLM on {server}: the API group {OLM_GROUP} is not served "
            "(is Operator Lifecycle Manager installed?)"
        )
    return discovery
