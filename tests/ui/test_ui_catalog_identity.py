"""``:catsrc`` says what each catalog is: its kind (grpc image, address, configmap, the test
catalog ``operator-sdk run bundle`` makes), its priority, and in the detail where it serves
from and how often it is polled."""

from __future__ import annotations

import io
from pathlib import Path

import yaml
from model_builders import catalog_source
from rich.console import Console

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.catalogs import CatalogsScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (160, 40)


async def test_catsrc_rows_and_detail_say_what_each_catalog_is(tmp_path: Path):
    path = tmp_path / "catalogs.yaml"
    objs = [
        catalog_source(
            "openshift-marketplace",
            "redhat-operators",
            priority=-100,
            spec={"updateStrategy": {"registryPoll": {"interval": "10m"}}},
        ),
        catalog_source("team-a", "mirror", spec={"image": None, "address": "reg.team-a:50051"}),
        catalog_source(
            "team-a",
            "etcd-catalog",
            annotations={"operators.operatorframework.io/index-image": "quay.io/x/index:v1"},
        ),
    ]
    path.write_text(yaml.safe_dump_all(objs))
    app = OlmApp(snapshot_session([str(path)]), initial_view="catsrc")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CatalogsScreen)
        table = app.screen.query_one("#table", VirtualTable)
        rows = {
            row.key: tuple(c if isinstance(c, str) else c.plain for c in row.cells)
            for row in table.shown_rows
        }
        assert rows[("openshift-marketplace", "redhat-operators")][2:4] == ("grpc image", "-100")
        assert rows[("team-a", "mirror")][2:4] == ("grpc address", "0")
        assert rows[("team-a", "etcd-catalog")][2] == "run bundle test catalog"
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(app.screen.describe(("openshift-marketplace", "redhat-operators")))
        text = console.export_text()
        assert "image: quay.io/x/index:v1" in text
        assert "polling: every 10m" in text
        console.print(app.screen.describe(("team-a", "mirror")))
        assert "address: reg.team-a:50051" in console.export_text()
