"""The demo's cluster upgrade (R-CUP-*): an OpenShift 4.18 cluster whose OLM v1 extension is
capped at 4.18; the ``olm`` ClusterOperator's hold follows from it (R-DIAG-32), and the way
out is the next bundle the community catalog serves."""

from __future__ import annotations

from pathlib import Path

import yaml

from olmtui.demo import cluster_upgrade, v1
from olmtui.demo.scenario import build_scenario
from olmtui.pipeline.build import snapshot_session


def test_the_demo_cluster_holds_its_next_minor_for_one_v1_operator(tmp_path: Path) -> None:
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(yaml.safe_dump_all(build_scenario().objects))
    served = tmp_path / "all.json"
    served.write_bytes(v1.catalogd_content())
    report = snapshot_session([str(snapshot)], [f"{v1.COMMUNITY}={served}"]).analysis.report()
    upgrade = report["clusterUpgrade"]
    assert (upgrade["currentVersion"], upgrade["nextMinor"]) == (
        cluster_upgrade.OPENSHIFT,
        cluster_upgrade.NEXT_MINOR,
    )
    [blocker] = upgrade["blockers"]
    assert (blocker["source"], blocker["object"]["name"], blocker["maxOpenShiftVersion"]) == (
        "v1",
        cluster_upgrade.PACKAGE,
        "4.18",
    )
    assert "legacy-metrics-operator.v1.3.0" in blocker["message"]
    # R-CUP-7: pinned at 1.2.0, the way out is changing the pin, not "upgrade to 1.3.0"
    assert 'change spec.source.catalog.version from "1.2.0" to "1.3.0"' in blocker["message"]
    held = next(f for f in report["findings"] if f["code"] == "OLMClusterOperatorNotUpgradeable")
    assert held["cause"]["name"] == cluster_upgrade.PACKAGE
