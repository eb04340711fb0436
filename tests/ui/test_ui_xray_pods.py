"""``:xray`` on a snapshot with an installing operator: the Deployment's pods, their state and
the R-EVD-9 finding that marks the one that cannot pull its image."""

from __future__ import annotations

from pathlib import Path

import yaml
from model_builders import csv, deployment, namespace, operator_group, pod

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.xray import XrayScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

NS = "team-a"
SELECTOR = {"control-plane": "op"}
POD = "op-controller-7d9f8b6c5-x2k4p"


def flatten(nodes, depth: int = 0) -> list[str]:
    out = []
    for node in nodes:
        out.append("  " * depth + node.label)
        out += flatten(node.children, depth + 1)
    return out


async def test_xray_shows_the_installing_deployments_pods_and_their_trouble(tmp_path: Path):
    the_csv = csv(NS, "op.v1", phase="Installing", reason="InstallWaiting")
    the_csv["spec"]["install"] = {"spec": {"deployments": [{"name": "op-controller"}]}}
    objects = [
        namespace(NS),
        operator_group(NS, "og", targets=[NS]),
        the_csv,
        deployment(NS, "op-controller", match_labels=SELECTOR),
        pod(NS, POD, labels=SELECTOR, ready=False, waiting="ImagePullBackOff"),
    ]
    path = tmp_path / "state.yaml"
    path.write_text(yaml.safe_dump_all(objects))
    app = OlmApp(snapshot_session([str(path)], label="installing"), initial_view="csvs")
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        assert table.selected_key is not None
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, XrayScreen)
        lines = flatten(app.screen.roots())
        assert "    Deployment op-controller: 0/1 ready" in lines
        pod_line = f"      Pod {POD}: Running, not ready, ImagePullBackOff"
        assert pod_line in lines
        (pod_node,) = [
            n
            for r in app.screen.roots()
            for d in r.children[0].children
            for n in d.children
            if n.label.startswith("Pod ")
        ]
        assert pod_node.codes == ("InstallPodImagePull",)
