"""The support lifecycle on screen (R-LCY-2): the CSV detail and the ``:ce`` detail say
"Support: <phase> until <date>; compatible: ..." when the catalog content holds a lifecycle
document for the operator's package, and nothing when it does not."""

from __future__ import annotations

import io
from pathlib import Path

import yaml
from data_paths import DATA
from model_builders import csv, namespace, operator_group, subscription
from rich.console import Console, RenderableType
from v1_objects import extension

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.csvs import CSVsScreen
from olmtui.ui.screens.extensions import ClusterExtensionsScreen

EFS_DOC = DATA / "lifecycle" / "aws-efs-csi-driver-operator.lifecycle.yaml"
PACKAGE = "aws-efs-csi-driver-operator"
EFS_CSV = "aws-efs-csi-driver-operator.v4.12.0-202401"
SIZE = (200, 40)


def _cluster(tmp_path: Path) -> str:
    efs = csv("efs", EFS_CSV, version="4.12.0-202401")
    efs["status"]["lastUpdateTime"] = "2025-06-01T00:00:00Z"
    objects = [
        namespace("efs"),
        operator_group("efs", "efs"),
        efs,
        subscription("efs", "efs", package=PACKAGE, installed=EFS_CSV),
        csv("efs", "other.v1.0.0"),
        extension("efs-v1", package=PACKAGE, installed=("efs.v4.17.2", "4.17.2")),
    ]
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml.safe_dump_all(objects, sort_keys=False))
    return str(path)


def _text(renderable: RenderableType) -> str:
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def test_the_csv_detail_says_its_support(tmp_path: Path) -> None:
    session = snapshot_session([_cluster(tmp_path)], [str(EFS_DOC)], label="lifecycle")
    app = OlmApp(session, initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CSVsScreen)
        shown = _text(screen.describe(("csv", "efs", EFS_CSV)))
        assert "Support: Extended update support until 2025-01-17" not in shown
        assert "Support: Extended update support Term 2 until 2026-01-17; compatible: 4.12" in (
            shown
        )
        assert "Support:" not in _text(screen.describe(("csv", "efs", "other.v1.0.0")))


async def test_the_extension_detail_says_its_support(tmp_path: Path) -> None:
    session = snapshot_session([_cluster(tmp_path)], [str(EFS_DOC)], label="lifecycle")
    app = OlmApp(session, initial_view="ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ClusterExtensionsScreen)
        shown = _text(screen.describe("efs-v1"))
        assert "Support: Maintenance support until 2026-04-01; compatible: 4.17" in shown


async def test_without_a_lifecycle_document_the_detail_says_nothing(tmp_path: Path) -> None:
    app = OlmApp(snapshot_session([_cluster(tmp_path)], [], label="none"), initial_view="ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Support:" not in _text(app.screen.describe("efs-v1"))
