"""The leftover families (R-EVD-4..8, R-DOC-18) kept by the screens' incremental index equal
the findings ``check`` computes at once, whatever order their objects arrive and leave in:
a copy arriving after the Subscription that names it, a namespace turning Terminating after
its CSV, a ClusterOperator after the Subscription it orphans."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from model_builders import (
    clusteroperator,
    copy_of,
    crd,
    csv,
    namespace,
    operator_group,
    subscription,
)

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.store import Store

CLEANUP = "operators.coreos.com/csv-cleanup"
ORIGINAL = csv("ops", "etcd.v1", group="g", owned=(("EtcdCluster", "v1", "etcdclusters.etcd.io"),))
CASES = {
    "copy-after-subscription": [
        subscription("team-b", "etcd", package="etcd", installed="etcd.v1"),
        copy_of(ORIGINAL, "team-b"),
        operator_group("team-b", "og", targets=["team-b"]),
    ],
    "terminating-after-its-csv": [
        csv("team-a", "x.v1", finalizers=[CLEANUP]),
        namespace("team-a", deleted="2026-11-20T09:00:00Z"),
        operator_group("team-a", "og", targets=["team-a"]),
    ],
    "crd-and-its-owner": [
        crd(
            "etcdclusters.etcd.io",
            labels={"operators.coreos.com/etcd.ops": ""},
            versions=[{"name": "v1beta1", "served": False}, {"name": "v1", "served": True}],
            stored=["v1beta1", "v1"],
        ),
        ORIGINAL,
        operator_group("ops", "g", targets=["ops"]),
    ],
    "cluster-operator-after-subscription": [
        subscription("openshift-logging", "cl", package="cl", installed="cl.v5"),
        clusteroperator("True", None, "", name="logging", namespaces=("openshift-logging",)),
        operator_group("openshift-logging", "og", targets=["openshift-logging"]),
    ],
    "copy-named-in-openshift": [
        subscription("openshift-logging", "etcd", package="etcd", installed="etcd.v1"),
        clusteroperator("True", None, "", name="etcd"),
        copy_of(ORIGINAL, "openshift-logging"),
    ],
    "csv-back-after-orphan": [
        subscription("openshift-logging", "cl", package="cl", installed="cl.v5"),
        clusteroperator("True", None, "", name="cl"),
        csv("openshift-logging", "cl.v5"),
    ],
}


#: The finding each case's objects make once all are in.
MADE = {
    "copy-after-subscription": "InstalledCSVIsCopy",
    "terminating-after-its-csv": "OLMFinalizerHoldsNamespace",
    "crd-and-its-owner": "CRDStoredVersionNotServed",
    "cluster-operator-after-subscription": "SubscriptionOrphanedByPlatform",
}


def fresh(store: Store, model: Model) -> list[Any]:
    return merged_findings(
        [],
        model=model.findings(),
        health=health_findings(store, [], model.subscriptions()),
        unreadable=store.unreadable,
        read_namespaces=store.read_namespaces,
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_index_follows_every_order_of_arrival_and_departure(case: str) -> None:
    objects = CASES[case]
    for order in itertools.permutations(range(len(objects))):
        store = Store()
        model = Model(store)
        index = HealthIndex(store, model, lambda: [], [])
        assert list(index.findings()) == fresh(store, model)
        for i in order:
            store.apply("ADDED", objects[i])
            assert list(index.findings()) == fresh(store, model), (order, i)
        made = {f.code for f in index.findings()}
        # the other cases end with what takes the orphan's place: its CSV, a copy of it
        assert MADE[case] in made if case in MADE else "SubscriptionOrphanedByPlatform" not in made
        for i in order:
            store.apply("DELETED", objects[i])
            assert list(index.findings()) == fresh(store, model), (order, i)
