"""What operator-controller would resolve a ClusterExtension to, from the catalog content
given: one bundle, or its exact error text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from olmtui.model.catalog import Catalog

Obj = dict[str, Any]


@dataclass(frozen=True, slots=True)
class V1Resolution:
    """The report's ``resolved``/``error`` of one ClusterExtension.

    ``bundle``/``version``/``catalog`` are set when a bundle is picked; ``error`` holds
    operator-controller's text when none can be; ``unknown`` says why olmtui could not
    compute it offline (a ClusterCatalog without content given): then all else is None.
    ``deprecations`` are the messages (package, channel, bundle) that apply to the pick."""

    bundle: str | None = None
    version: str | None = None
    catalog: str | None = None
    error: str | None = None
    unknown: str | None = None
    deprecations: tuple[str, ...] = ()


def content_by_catalog(
    catalogs: Sequence[Catalog], cluster_catalogs: Sequence[Obj]
) -> dict[str, Catalog]:
    """ClusterCatalog name -> its content: content bound with ``--catalog NAME=PATH``
    (a ref without ``/``), else content given without a binding, which serves every
    ClusterCatalog."""
    bound = {c.ref: c for c in catalogs if c.ref and "/" not in c.ref and c.graph == "catalog"}
    unbound = next((c for c in catalogs if c.ref is None and c.graph == "catalog"), None)
    out: dict[str, Catalog] = {}
    for obj in cluster_catalogs:
        name = str((obj.get("metadata") or {}).get("name") or "")
        content = bound.get(name, unbound)
        if content is not None:
            out[name] = content
    return out


def resolve_extension(
    extension: Obj, cluster_catalogs: Sequence[Obj], content: Mapping[str, Catalog]
) -> V1Resolution:
    """Resolve one ClusterExtension over the ClusterCatalogs read and the content
    given per ClusterCatalog name (``content_by_catalog``)."""
    raise NotImplementedError("helper v1-resolve writes this")
