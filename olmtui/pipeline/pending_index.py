"""What the screens read as the health index while a snapshot still streams in (``olmtui
replay``): an index over no objects, so no finding is claimed from a partial snapshot (an
unread file proves nothing absent). The Analysis drops it when the load ends and builds the
real index then."""

from __future__ import annotations

from collections.abc import Mapping

from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.types import Finding, SubscriptionState
from olmtui.store import Obj, Store


class _NothingYet:
    """The model as the pending index sees it: no findings, no Subscriptions and no CSVs yet."""

    version = 0

    def findings(self) -> list[Finding]:
        return []

    def subscriptions(self) -> list[SubscriptionState]:
        return []

    def subscriptions_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]:
        return {}

    def installed_csvs_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]:
        return {}


def pending_index() -> HealthIndex:
    """An index over no objects: no finding, every count zero."""
    return HealthIndex(Store(), _NothingYet(), list)
