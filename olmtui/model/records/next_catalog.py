"""What the next release's catalog (``--next-catalog``) holds for one installed operator:
the report's ``nextCatalog[]`` entry and the findings drawn from it (R-NXT-1 .. R-NXT-5)."""

from __future__ import annotations

from olmtui.frozen import frozen
from olmtui.model.records.types import ObjectRef


@frozen
class WayOut:
    """R-NXT-5: how to reach a version the next catalog upgrades from, before the cluster
    upgrade: on ``channel`` (``switch``: not the operator's channel now), move from the
    installed version to ``position`` by ``now_edge`` (None: the installed version itself),
    after which the next catalog's ``channel`` goes on by ``next_edge``."""

    channel: str
    switch: bool
    position: str
    now_edge: str | None
    next_edge: str


@frozen
class NextCatalogEntry:
    """One installed operator (a Subscription with its installed CSV, or a ClusterExtension
    with its installed bundle) against the catalog that replaces its own after the
    upgrade (R-NXT-6, ``origin``): whether the package, the channel and an upgrade edge from
    the installed version are there (R-NXT-1 .. R-NXT-3), whether the channel offers any
    installable bundle (R-NXT-4), and the way out when something is missing (R-NXT-5);
    ``advice`` says it in words, None when nothing is missing."""

    object: ObjectRef
    package: str
    channel: str | None
    installed: str
    origin: str
    package_in_next: bool
    channel_in_next: bool
    edge_from_installed: bool
    #: The edge the next catalog has from the installed version, described (None: none).
    edge: str | None = None
    installable: bool = True
    way_out: WayOut | None = None
    #: Whether the current catalog's content was known (``--catalog``, PackageManifests,
    #: catalogd): without it, only channels with an edge from the installed version itself
    #: can be named as a way out.
    current_known: bool = True
    advice: str | None = None
    #: operator-controller's resolution error over the next catalog (OLM v1), if any.
    error: str | None = None

    @property
    def ok(self) -> bool:
        return (
            self.package_in_next
            and self.channel_in_next
            and self.edge_from_installed
            and self.installable
        )
