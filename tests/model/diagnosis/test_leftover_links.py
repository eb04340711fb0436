"""R-DIAG-26 on the triage case of an operator capping the OpenShift version: OLM's
ClusterOperator saying Upgradeable=False follows from the CSV its message names."""

from __future__ import annotations

from check_runs import check_json
from data_paths import DATA


def test_r_diag_26_the_blocked_upgrade_follows_from_the_csv_the_cluster_operator_names() -> None:
    _, report = check_json(DATA / "triage" / "max-ocp-blocks-next-minor" / "cluster.yaml")
    blocked = next(f for f in report["findings"] if f["code"] == "ClusterUpgradeBlocked")
    assert blocked["cause"] == {
        "code": "MaxOpenShiftVersion",
        "kind": "ClusterServiceVersion",
        "namespace": "ops",
        "name": "foo.v1.0.0",
    }
    assert "status.conditions[Upgradeable]" in {e["field"] for e in blocked["evidence"]}
