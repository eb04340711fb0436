"""R-EVD-12 with R-EVD-9 and R-DIAG-27, live: against the loopback API server, an Installing
CSV's Deployment has a pod that cannot pull its image; the dashboard's Overview leads with
one incident rooted at that pod, the CSV's finding following from it. The pod then runs and
the CSV succeeds: the finding goes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from conftest import wait_for
from model_builders import csv, deployment, namespace, operator_group, pod

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.model.records.types import Finding
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

NS = "team-a"
SELECTOR = {"control-plane": "op"}
POD = "op-controller-7d9f8b6c5-x2k4p"
ROOT = "InstallPodImagePull"
Obj = dict[str, Any]


def _csv(phase: str) -> Obj:
    install = {"strategy": "deployment", "spec": {"deployments": [{"name": "op-controller"}]}}
    reason = "InstallSucceeded" if phase == "Succeeded" else "InstallWaiting"
    return csv(NS, "op.v1", phase=phase, reason=reason, spec={"install": install})


def _pod(pulling: bool) -> Obj:
    if not pulling:
        return pod(NS, POD, labels=SELECTOR, container="manager")
    return pod(
        NS,
        POD,
        labels=SELECTOR,
        phase="Pending",
        ready=False,
        waiting="ImagePullBackOff",
        waiting_message='Back-off pulling image "quay.io/op/op:v1"',
        container="manager",
    )


@pytest.fixture
def cluster(tmp_path: Path):
    server = LoopbackAPIServer()
    server.state.load(
        [
            namespace(NS),
            operator_group(NS, "og"),
            _csv("Installing"),
            deployment(NS, "op-controller", match_labels=SELECTOR, owner_csv="op.v1"),
            _pod(pulling=True),
        ]
    )
    thread = run_in_thread(server)
    kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
    yield thread, str(kubeconfig)
    thread.stop()


def _codes(app: OlmApp) -> list[str]:
    table = app.screen.query_one("#table", VirtualTable)
    return [str(row.cells[1]) for row in table.shown_rows]


def _findings(app: OlmApp) -> list[Finding]:
    return list(app.session.analysis.all_findings())


async def test_an_installing_csvs_pod_is_the_root_of_its_incident_live(cluster) -> None:
    thread, kubeconfig = cluster
    session = await asyncio.to_thread(live_session, LiveOptions(kubeconfig=kubeconfig))
    app = OlmApp(session)
    async with app.run_test(size=(200, 40)) as pilot:
        await wait_for(
            lambda: isinstance(app.screen, OverviewScreen) and ROOT in _codes(app),
            "the pod's incident on the Overview",
            pilot=pilot,
        )
        diagnosis = session.analysis.diagnosis()
        incident = next(i for i in diagnosis.incidents() if i.root[0] == ROOT)
        assert incident.root == (ROOT, "Pod", NS, POD)
        assert ("CSVInstalling", "ClusterServiceVersion", NS, "op.v1") in incident.consequences
        assert "CSVInstalling" not in _codes(app)  # folded under its root
        # the cluster moves on: the image pulls, the CSV succeeds
        thread.apply(_pod(pulling=False))
        thread.apply(_csv("Succeeded"))
        await wait_for(
            lambda: not any(f.code in (ROOT, "CSVInstalling") for f in _findings(app)),
            "the findings gone",
            pilot=pilot,
        )
        await wait_for(lambda: ROOT not in _codes(app), "the incident row gone", pilot=pilot)
        await wait_for(lambda: not session.store.has("Pod", NS, POD), "the pod no longer read")
