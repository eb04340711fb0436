"""The cluster upgrade readiness of what the cache holds (R-CUP-6), for the report, the
Markdown and text outputs and the ``:upgrade`` view: the objects it reads gathered from the
Store, the judgement left to ``rules/cluster_readiness``."""

from __future__ import annotations

from collections.abc import Sequence

from olmtui.kinds import (
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CLUSTER_OPERATOR,
    CLUSTER_VERSION,
    CSV,
    SUBSCRIPTION,
)
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.cluster_readiness.extension_caps import extension_caps
from olmtui.model.rules.cluster_readiness.readiness import UpgradeReadiness, upgrade_readiness
from olmtui.model.rules.documented.cluster_upgrade import cluster_version
from olmtui.objects import is_copied_csv
from olmtui.store import Store


def store_readiness(store: Store, catalogs: Sequence[Catalog]) -> UpgradeReadiness:
    """R-CUP-6 over the cache: installed (non-copied, R-COPY-1) CSVs, their Subscriptions,
    the ClusterVersion, OLM's ClusterOperators and the ClusterExtensions with ``catalogs``."""
    return upgrade_readiness(
        installed_csvs=[c for c in store.list(CSV) if not is_copied_csv(c)],
        subscriptions=list(store.list(SUBSCRIPTION)),
        cluster_versions=list(store.list(CLUSTER_VERSION)),
        cluster_operators=list(store.list(CLUSTER_OPERATOR)),
        caps=extension_caps(
            store.list(CLUSTER_EXTENSION),
            list(store.list(CLUSTER_CATALOG)),
            catalogs,
            cluster_version(store.list(CLUSTER_VERSION)),
        ),
        catalogs=catalogs,
    )
