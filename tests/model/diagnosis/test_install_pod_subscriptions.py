"""R-DIAG-30: an installing CSV's pod (R-EVD-9, R-DIAG-27) causes no Subscription finding.

OLM sets a Subscription's ``installedCSV`` as soon as a CSV of that name exists, whatever its
phase, its state is then ``AtLatestKnown`` (R-SUB-1, R-SUB-2), and the InstallPlan is
``Complete`` once it has created its objects, which writes no InstallPlan condition on the
Subscription (R-SUB-5). A CSV stuck installing therefore leaves nothing on its Subscription:
the pod's incident holds the CSV's finding and no Subscription finding, fresh install or
upgrade alike; none is invented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from check_runs import check_json
from model_builders import (
    catalog_source,
    csv,
    deployment,
    install_plan,
    namespace,
    operator_group,
    pod,
    subscription,
)

NS = "team-a"
MARKET = "openshift-marketplace"
SELECTOR = {"control-plane": "op"}
POD = "op-controller-7d9f8b6c5-x2k4p"
ROOT = {"code": "InstallPodImagePull", "kind": "Pod", "namespace": NS, "name": POD}
Obj = dict[str, Any]


def _csv(name: str, phase: str, **more: Any) -> Obj:
    install = {"strategy": "deployment", "spec": {"deployments": [{"name": "op-controller"}]}}
    reason = {"Installing": "InstallWaiting", "Replacing": "BeingReplaced"}.get(phase)
    return csv(NS, name, phase=phase, reason=reason, spec={"install": install, **more})


def _state(upgrade: bool) -> list[Obj]:
    """The Subscription as OLM leaves it while its CSV's pod cannot pull its image: a fresh
    install of op.v1, or an upgrade to op.v2 that replaces op.v1."""
    installing = "op.v2" if upgrade else "op.v1"
    csvs = [_csv(installing, "Installing", **({"replaces": "op.v1"} if upgrade else {}))]
    if upgrade:
        csvs.append(_csv("op.v1", "Replacing"))
    plan = install_plan(NS, "install-abc", phase="Complete", approved=True)
    plan["spec"]["clusterServiceVersionNames"] = [installing]
    return [
        namespace(NS),
        operator_group(NS, "og", targets=[NS]),
        catalog_source(MARKET, "cat"),
        subscription(
            NS,
            "op",
            source="cat",
            source_ns=MARKET,
            installed=installing,
            current=installing,
            state="AtLatestKnown",
            plan="install-abc",
        ),
        plan,
        *csvs,
        deployment(NS, "op-controller", match_labels=SELECTOR, owner_csv=installing),
        pod(NS, POD, labels=SELECTOR, phase="Pending", ready=False, waiting="ImagePullBackOff"),
    ]


@pytest.mark.parametrize("upgrade", [False, True], ids=["install", "upgrade"])
def test_r_diag_30_no_subscription_finding_follows_from_an_install_pod(
    tmp_path: Path, upgrade: bool
) -> None:
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(yaml.safe_dump_all(_state(upgrade)))
    _, report = check_json(snapshot)
    incident = next(i for i in report["incidents"] if i["root"] == ROOT)
    installing = "op.v2" if upgrade else "op.v1"
    assert ("CSVInstalling", "ClusterServiceVersion", installing) in {
        (c["code"], c["kind"], c["name"]) for c in incident["consequences"]
    }
    assert [f for f in report["findings"] if f["kind"] == "Subscription"] == []
