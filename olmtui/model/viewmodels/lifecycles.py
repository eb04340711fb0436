"""The support lifecycle of every installed operator, by object (R-LCY-2): what the report's
``csvs[].lifecycle`` / ``clusterExtensions[].lifecycle`` and the detail screens show."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from olmtui.kinds import CLUSTER_EXTENSION, CSV, SUBSCRIPTION
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.lifecycle.findings import LifecycleView, lifecycle_views
from olmtui.objects import is_copied_csv
from olmtui.store import Store

#: ``(kind, namespace, name)`` of an installed operator's object.
ObjectKey = tuple[str, str, str]


def has_lifecycles(catalogs: Sequence[Catalog]) -> bool:
    """Whether any content given holds a lifecycle document (else nothing is computed)."""
    return any(p.lifecycles for c in catalogs for p in c.packages.values())


def installed_lifecycles(
    store: Store, catalogs: Sequence[Catalog], now: dt.datetime | None
) -> dict[ObjectKey, LifecycleView]:
    """Each installed operator (non-copied CSV, ClusterExtension) with a lifecycle document
    in ``catalogs``, by its object; ``now`` is the input's clock."""
    if not has_lifecycles(catalogs):
        return {}
    views = lifecycle_views(
        (c for c in store.list(CSV) if not is_copied_csv(c)),
        store.list(SUBSCRIPTION),
        store.list(CLUSTER_EXTENSION),
        catalogs,
        now,
    )
    return {(v.installed.kind, v.installed.namespace, v.installed.name): v for v in views}


def support_line(
    store: Store, catalogs: Sequence[Catalog], now: dt.datetime | None, key: ObjectKey
) -> str | None:
    """The detail screens' ``Support: <phase> until <date>; compatible: 4.20–4.22`` of one
    installed operator; ``None`` when no lifecycle document speaks for it."""
    view = installed_lifecycles(store, catalogs, now).get(key)
    return None if view is None else view.line()
