"""OLM's Prometheus metrics (``csv_count``, ``csv_abnormal``, ...), derived from what a reader
of the cluster sees.

OLM exports these from its own informers; olmtui rebuilds them from the cache so that a
snapshot or a live session can be compared with a monitoring dashboard. Where the number
cannot be seen from outside OLM, the record says so rather than guessing:

* ``csv_count``, ``csv_succeeded`` and ``csv_abnormal`` cover the CSVs OLM reconciles, i.e.
  not the copies (R-COPY-1: OLM's main CSV cache filters copies out, and it only emits CSV
  metrics while reconciling).
* ``csv_upgrade_count`` is a monotonic counter in OLM. Live, the watcher counts the
  replacements it saw (CSVs added whose ``spec.replaces`` names a CSV present in their
  namespace); on a snapshot the best equivalent is the replacements in progress, CSVs whose
  ``spec.replaces`` names an existing CSV of their namespace (R-CSV-R2).
* ``subscription_sync_total`` counts OLM's Subscription syncs, which leave no trace in any
  object: it is ``None`` with a note.
* A count over a kind the source may not read (``Store.unreadable``) is ``None`` too, with
  a note: no access is not zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Literal, Protocol

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.records.types import CSVState, SubscriptionState
from olmtui.store import Unreadable

UpgradeSource = Literal["watch", "snapshot"]

SNAPSHOT_UPGRADE_NOTE = (
    "OLM counts upgrades since it started; a snapshot shows only the replacements in progress "
    "(CSVs whose spec.replaces names a CSV still present in their namespace)."
)
WATCH_UPGRADE_NOTE = (
    "Replacements seen while watching (CSVs added whose spec.replaces names a CSV present in "
    "their namespace); OLM's counter also holds the upgrades before olmtui started."
)
SYNC_NOTE = (
    "OLM counts its own Subscription syncs; they change no object, so no reader of the "
    "cluster can see them. Read OLM's metrics endpoint for this one."
)


class MetricsStore(Protocol):
    """What the metrics read from the cache: the whole Store, or one namespace of it (``:ns``)."""

    @property
    def unreadable(self) -> Mapping[str, Unreadable]: ...

    def count(self, kind: str) -> int: ...


class MetricsModel(Protocol):
    """What the metrics read from the reconciliation model
    (``olmtui.model.incremental.engine.Model``)."""

    def csvs(self) -> Sequence[CSVState]: ...


@frozen
class AbnormalCSV:
    """One ``csv_abnormal`` series: a CSV in any phase but Succeeded, with OLM's labels."""

    name: str
    namespace: str
    phase: str
    reason: str
    version: str


@frozen
class Metrics:
    """The seed's metric table, one field per metric.

    ``csv_succeeded`` is OLM's per-CSV 0/1 gauge summed (how many series are 1); the CSVs
    at 0 are exactly those in ``csv_abnormal``. ``None`` is unknown; ``unknown`` says why
    for each metric over a kind the source may not read.
    """

    catalog_source_count: int | None
    csv_count: int | None
    csv_succeeded: int | None
    csv_abnormal: tuple[AbnormalCSV, ...]
    csv_upgrade_count: int | None
    csv_upgrade_count_source: UpgradeSource
    csv_upgrade_count_note: str
    install_plan_count: int | None
    subscription_count: int | None
    subscription_sync_total: int | None = None
    subscription_sync_total_note: str = SYNC_NOTE
    unknown: dict[str, str] = field(default_factory=dict)


#: The kind each count reads.
METRIC_KINDS: dict[str, str] = {
    "catalog_source_count": CATALOG_SOURCE,
    "csv_count": CSV,
    "csv_succeeded": CSV,
    "csv_abnormal": CSV,
    "csv_upgrade_count": CSV,
    "install_plan_count": INSTALL_PLAN,
    "subscription_count": SUBSCRIPTION,
}


def replacements_in_progress(csvs: Sequence[CSVState]) -> int:
    """CSVs whose ``spec.replaces`` names another existing CSV of their namespace (R-CSV-R2)."""
    present = {(c.namespace, c.name) for c in csvs}
    return sum(
        1
        for c in csvs
        if c.replaces and c.replaces != c.name and (c.namespace, c.replaces) in present
    )


def seed_metrics(
    store: MetricsStore, model: MetricsModel, upgrade_count: int | None = None
) -> Metrics:
    """OLM's metrics for the cluster in ``store``.

    ``upgrade_count`` is the live watcher's count of CSV upgrades; without it (a snapshot)
    the replacements in progress stand in, and the note says which one was used.
    """
    csvs = list(model.csvs())
    abnormal = tuple(
        sorted(
            (
                AbnormalCSV(c.name, c.namespace, c.phase or "", c.reason or "", c.version or "")
                for c in csvs
                if c.phase != "Succeeded"
            ),
            key=lambda a: (a.namespace, a.name),
        )
    )
    watched = upgrade_count is not None
    unknown = {
        metric: f"no access to {store.unreadable[kind].scope} (RBAC): unknown, not 0"
        for metric, kind in METRIC_KINDS.items()
        if kind in store.unreadable
    }

    def count(metric: str, value: int) -> int | None:
        return None if metric in unknown else value

    return Metrics(
        catalog_source_count=count("catalog_source_count", store.count(CATALOG_SOURCE)),
        csv_count=count("csv_count", len(csvs)),
        csv_succeeded=count("csv_succeeded", len(csvs) - len(abnormal)),
        csv_abnormal=() if "csv_abnormal" in unknown else abnormal,
        csv_upgrade_count=count(
            "csv_upgrade_count",
            upgrade_count if upgrade_count is not None else replacements_in_progress(csvs),
        ),
        csv_upgrade_count_source="watch" if watched else "snapshot",
        csv_upgrade_count_note=WATCH_UPGRADE_NOTE if watched else SNAPSHOT_UPGRADE_NOTE,
        install_plan_count=count("install_plan_count", store.count(INSTALL_PLAN)),
        subscription_count=count("subscription_count", store.count(SUBSCRIPTION)),
        unknown=unknown,
    )


@frozen
class HeadCounts:
    """Installed Subscriptions (``installed``) against their channel's head (R-UPG-1, R-UPG-5).

    ``behind`` counts those whose head is known and is not the installed CSV; ``unknown``
    those with a CSV installed whose head is not known, so "0 behind" never stands for "no
    head to compare with". ``unknown_reason`` says why in a few words, for a screen. ``held``
    counts the behind ones OLM's resolver, where it ran, keeps where they are (R-RES-17):
    behind the head, yet nothing installs next.
    """

    installed: int
    behind: int
    unknown: int
    unknown_reason: str
    held: int = 0


def head_counts(subs: Sequence[SubscriptionState]) -> HeadCounts:
    """How many installed Subscriptions are behind their head, how many cannot be told, and
    (over records the resolver decided, R-RES-17) how many of the behind it holds back."""
    installed = [s for s in subs if s.installed_csv]
    late = [s for s in installed if s.upgrade.head and s.installed_csv != s.upgrade.head]
    behind = len(late)
    held = sum(1 for s in late if s.upgrade.decided_by == "resolver" and s.upgrade.next is None)
    no_content = sum(1 for s in installed if s.upgrade.graph == "none")
    # R-UPG-1: with catalog content but no head, OLM cannot order the channel.
    unorderable = sum(1 for s in installed if s.upgrade.graph != "none" and not s.upgrade.head)
    reasons = [
        why
        for count, why in (
            (no_content, "no catalog content"),
            (unorderable, "channel OLM cannot order"),
        )
        if count
    ]
    return HeadCounts(len(installed), behind, no_content + unorderable, " or ".join(reasons), held)
