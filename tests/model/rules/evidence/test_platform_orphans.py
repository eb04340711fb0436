"""R-EVD-8 and R-DIAG-25: a Subscription left by an operator that moved to the release
payload; strict about what the input shows."""

from __future__ import annotations

from typing import Any

import pytest
from model_builders import clusteroperator, csv, subscription

from olmtui.model.rules.evidence.platform_orphans import platform_orphan_findings

NS = "openshift-logging"
SUB = subscription(NS, "cluster-logging", package="cluster-logging", installed="cluster-logging.v5")
BY_NAMESPACE = clusteroperator("True", "AsExpected", "", name="logging", namespaces=(NS,))
BY_NAME = clusteroperator("True", "AsExpected", "", name="cluster-logging")


def findings(
    subs: list[dict[str, Any]], csvs: list[dict[str, Any]], cos: list[dict[str, Any]]
) -> list[str]:
    by_key = {(c["metadata"]["namespace"], c["metadata"]["name"]): c for c in csvs}
    found = platform_orphan_findings(
        subs,
        lambda ns: [c for (n, _), c in by_key.items() if n == ns],
        lambda ns, name: by_key.get((ns, name)),
        cos,
    )
    return [f.code for f in found]


@pytest.mark.parametrize("co", [BY_NAMESPACE, BY_NAME], ids=["related-namespace", "name"])
def test_a_subscription_whose_operator_a_cluster_operator_reports_is_orphaned(
    co: dict[str, Any],
) -> None:
    assert findings([SUB], [], [co]) == ["SubscriptionOrphanedByPlatform"]


@pytest.mark.parametrize(
    ("subs", "csvs", "cos"),
    [
        ([SUB], [], []),  # no ClusterOperator: nothing says the payload took it
        ([SUB], [csv(NS, "cluster-logging.v5")], [BY_NAMESPACE]),  # its CSV is there
        (
            [SUB],
            [
                csv(
                    NS,
                    "cluster-logging.v6",
                    labels={f"operators.coreos.com/cluster-logging.{NS}": ""},
                )
            ],
            [BY_NAMESPACE],
        ),  # another CSV of its package is there
        ([subscription("team-a", "cl", package="cluster-logging", installed="x")], [], [BY_NAME]),
        ([subscription(NS, "cl", package="cluster-logging")], [], [BY_NAME]),  # never installed
        (
            [subscription("openshift-operators", "x", package="x", installed="x.v1")],
            [],
            [
                clusteroperator(
                    "True", None, "", name="logging", namespaces=("openshift-operators",)
                )
            ],
        ),  # a namespace admins share with the platform
        (
            [
                subscription(
                    "openshift-operator-lifecycle-manager", "x", package="x", installed="x.v1"
                )
            ],
            [],
            [
                clusteroperator(
                    "True", None, "", namespaces=("openshift-operator-lifecycle-manager",)
                )
            ],
        ),  # OLM's own ClusterOperator lists where it runs
    ],
)
def test_no_finding_where_the_input_does_not_show_it(
    subs: list[dict[str, Any]], csvs: list[dict[str, Any]], cos: list[dict[str, Any]]
) -> None:
    assert findings(subs, csvs, cos) == []


def test_a_subscription_the_payload_owns_is_info_and_not_the_admins_to_change() -> None:
    owned = subscription(
        NS,
        "cluster-logging",
        package="cluster-logging",
        installed="cluster-logging.v5",
        annotations={"include.release.openshift.io/self-managed-high-availability": "true"},
    )
    found = platform_orphan_findings([owned], lambda ns: [], lambda ns, name: None, [BY_NAME])
    assert [f.severity for f in found] == ["info"]
    assert "not the admin's to change" in found[0].message
