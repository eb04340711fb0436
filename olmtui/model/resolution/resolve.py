"""Resolve every namespace that holds a Subscription, as OLM's catalog operator would at its
next sync (R-RES-1). Entry point of the resolver for ``check``, ``explain`` and the screens.
"""

from __future__ import annotations

from collections.abc import Sequence

from olmtui.model.catalog import Catalog
from olmtui.model.resolution.result import NamespaceResolution
from olmtui.store import Store


def resolve_cluster(
    store: Store, catalogs: Sequence[Catalog], global_namespace: str | None = None
) -> list[NamespaceResolution]:
    """One ``NamespaceResolution`` per namespace holding a Subscription, sorted by namespace
    (R-RES-1). ``catalogs`` is the session's catalog content (``--catalog`` first, then
    PackageManifests); ``global_namespace`` None means OLM's default (R-RES-3)."""
    raise NotImplementedError("being written on main (integrator)")
