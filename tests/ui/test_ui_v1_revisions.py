"""A ClusterExtension's revisions on screen (R-V1-24, R-V1-25): the REVISIONS column of ``:ce``
("2 active (rolling out)", an error mark past the deadline) and the revisions in its detail,
with the phase the probe failure names."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console, RenderableType
from v1_objects import DEPLOYMENT_PROBE_FAILURE, condition, extension, object_set

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.extensions import ClusterExtensionsScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (200, 40)


def _rolling(name: str, **kwargs: Any) -> dict[str, Any]:
    return extension(
        name,
        conditions=[
            condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
            condition("Progressing", "True", "RollingOut", "Revision 2 is rolling out."),
        ],
        **kwargs,
    )


def _cluster(tmp_path: Path) -> str:
    objects = [
        _rolling("argocd"),
        object_set("argocd-1", revision=1),
        object_set("argocd-2", state="rolling-out"),
        _rolling("stuck", progress_deadline_minutes=10),
        object_set("stuck-1", owner="stuck", revision=1),
        object_set("stuck-2", owner="stuck", state="deadline", probe=DEPLOYMENT_PROBE_FAILURE),
        extension("plain"),
    ]
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml.safe_dump_all(objects, sort_keys=False))
    return str(path)


def _text(renderable: RenderableType) -> str:
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def test_the_revisions_column_and_detail(tmp_path: Path) -> None:
    app = OlmApp(snapshot_session([_cluster(tmp_path)], [], label="v1"), initial_view="ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ClusterExtensionsScreen)
        table = screen.query_one("#table", VirtualTable)
        rows = {
            row.key: tuple(c if isinstance(c, str) else c.plain for c in row.cells)
            for row in table.shown_rows
        }
        assert rows["argocd"][-1] == "● 2 active (rolling out)"
        assert rows["stuck"][-1] == "✖ 2 active (deadline exceeded)"
        assert rows["plain"][-1] == "-"
        text = _text(screen.describe("stuck"))
        assert "Revisions (2 active (deadline exceeded))" in text
        assert "#2 stuck-2 Active, collision protection Prevent" in text
        assert "phases: crds → [deploy]" in text
        assert "Available False/ProbeFailure: " + DEPLOYMENT_PROBE_FAILURE in text
        assert "ClusterExtensionDeadlineExceeded" in text
