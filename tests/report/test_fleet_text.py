"""The fleet's text roll-up says skew only where several clusters differ (R-FLT-3): a
package installed twice in one cluster, at two versions, is no fleet's skew, even when its
channels do differ across clusters."""

from __future__ import annotations

from olmtui.report.fleet_text import rollup_lines

ROLLUP = {
    "targets": 2,
    "statuses": {"ok": 2},
    "incidents": [],
    "byRule": {},
    "skew": [
        {
            "package": "etcd",
            "versions": {"0.9.4": ["one"], "0.9.4-clusterwide": ["one"]},
            "channels": {"alpha": ["two"], "clusterwide-alpha": ["one"]},
        }
    ],
    "catalogSkew": [],
    "blockedForNextMinor": [],
    "migration": {},
}


def test_versions_of_one_cluster_are_not_said_skew_its_channels_are() -> None:
    lines = rollup_lines(ROLLUP)
    assert not any("versions" in line for line in lines)
    assert "package etcd at 2 channels: alpha on two; clusterwide-alpha on one" in lines
