"""OLM's Prometheus metrics rebuilt from the cache, on a real must-gather and on the
demo cluster mid-upgrade."""

from __future__ import annotations

import pytest
from data_paths import DATA

from olmtui.apiserver import ClusterState
from olmtui.demo import scenario as s
from olmtui.demo.script import cycle
from olmtui.model.incremental.engine import Model
from olmtui.model.viewmodels.metrics import (
    SNAPSHOT_UPGRADE_NOTE,
    SYNC_NOTE,
    WATCH_UPGRADE_NOTE,
    AbnormalCSV,
    seed_metrics,
)
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

AZURE = DATA / "must-gather/must-gather-clean/must-gather-azure"


@pytest.fixture(scope="module")
def azure() -> tuple[Store, Model]:
    store = Store()
    load_snapshot([str(AZURE)], store)
    return store, Model(store)


def test_seed_metrics_counts_on_a_real_must_gather(azure) -> None:
    store, model = azure
    metrics = seed_metrics(store, model)
    assert metrics.catalog_source_count == 6
    assert metrics.install_plan_count == 2
    assert metrics.subscription_count == 2
    # 131 CSVs in the dump, 128 of them copies: OLM's csv_count sees the 3 others (R-COPY-1).
    assert store.count("ClusterServiceVersion") == 131
    assert metrics.csv_count == 3
    assert metrics.csv_succeeded == 1


def test_csv_abnormal_lists_every_csv_not_succeeded_with_olm_labels(azure) -> None:
    metrics = seed_metrics(*azure)
    assert metrics.csv_abnormal == (
        AbnormalCSV(
            "image-caching-operator.v0.0.1",
            "cfe-test-namespace",
            "Pending",
            "RequirementsNotMet",
            "0.0.1",
        ),
        AbnormalCSV(
            "projectrequestlimits.v0.0.1",
            "cfe-test-namespace",
            "Installing",
            "InstallWaiting",
            "0.0.1",
        ),
    )


def test_subscription_sync_total_is_not_observable(azure) -> None:
    metrics = seed_metrics(*azure)
    assert metrics.subscription_sync_total is None
    assert metrics.subscription_sync_total_note == SYNC_NOTE


def test_csv_upgrade_count_from_the_watcher_when_given(azure) -> None:
    metrics = seed_metrics(*azure, upgrade_count=7)
    assert (metrics.csv_upgrade_count, metrics.csv_upgrade_count_source) == (7, "watch")
    assert metrics.csv_upgrade_count_note == WATCH_UPGRADE_NOTE


def test_r_csv_r2_snapshot_upgrade_count_is_replacements_in_progress() -> None:
    start = s.build_scenario("2026-11-21T22:00:00Z")
    state = ClusterState()
    store = Store()
    state.subscribe(lambda event: store.apply(event.type, event.obj))
    state.load(start.objects)
    model = Model(store)
    before = seed_metrics(store, model)
    assert (before.csv_upgrade_count, before.csv_upgrade_count_source) == (0, "snapshot")
    assert before.csv_upgrade_count_note == SNAPSHOT_UPGRADE_NOTE
    assert [(a.namespace, a.name, a.reason) for a in before.csv_abnormal] == [
        (s.TWO_GROUPS_NS, s.RABBITMQ_TOPOLOGY, "TooManyOperatorGroups"),
        (s.TEAM_B_OPERATORS, s.ETCD, "InterOperatorGroupOwnerConflict"),
    ]
    steps = cycle(start)
    for step in steps[:2]:  # approve, then the new keycloak CSV replacing the old one
        step.change(state, "2026-11-21T22:00:05Z")
    during = seed_metrics(store, model)
    assert during.csv_upgrade_count == 1
    assert during.csv_count == before.csv_count + 1
    assert (s.TEAM_A_OPERATORS, s.KEYCLOAK_NEXT, "Pending") in [
        (a.namespace, a.name, a.phase) for a in during.csv_abnormal
    ]
    for step in steps[2:8]:  # ... until the old CSV is gone
        step.change(state, "2026-11-21T22:00:10Z")
    assert seed_metrics(store, model).csv_upgrade_count == 0


def test_head_counts_tell_unknown_heads_from_none_behind():
    """R-UPG-1/R-UPG-5: no catalog content, or a channel OLM cannot order, is "unknown"."""
    from olmtui.model.records.types import SubscriptionState, UpgradeInfo
    from olmtui.model.viewmodels.metrics import head_counts

    def state(
        name: str, upgrade: UpgradeInfo, installed: str | None = "op.v1"
    ) -> SubscriptionState:
        return SubscriptionState(
            "ns",
            name,
            "op",
            "stable",
            "cat",
            "olm",
            "Automatic",
            "Automatic",
            None,
            installed,
            installed,
            None,
            upgrade,
        )

    subs = [
        state("none", UpgradeInfo()),
        state("unorderable", UpgradeInfo("catalog")),
        state("fresh", UpgradeInfo(), installed=None),
    ]
    counts = head_counts(subs)
    assert (counts.installed, counts.behind, counts.unknown) == (2, 0, 2)
    assert counts.unknown_reason == "no catalog content or channel OLM cannot order"
    behind = head_counts([*subs, state("behind", UpgradeInfo("catalog", "op.v2", "op.v2"))])
    assert (behind.installed, behind.behind, behind.unknown) == (3, 1, 2)
