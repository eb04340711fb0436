"""An SVG snapshot of the Fleet view (``olmtui replay --fleet``): three small must-gathers, one
with a Failed operator, and a broken archive; the roll-up below (refresh with
``--snapshot-update`` and look at the diff). The paths are relative, so the picture does not
depend on where the test ran."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import settle, wait_for
from fleet_view_support import fleet_folder

from olmtui.pipeline.fleet import FleetSettings
from olmtui.pipeline.fleet_sessions import open_fleet
from olmtui.pipeline.fleet_targets import TargetSpec, fleet_targets
from olmtui.ui.fleet_app import FleetApp
from olmtui.ui.widgets.virtual_table import VirtualTable


def test_fleet_view(snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fleet_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    spec = TargetSpec(paths=("gathers", "broken.tar.gz"))
    fleet = open_fleet(fleet_targets(spec), FleetSettings(parse_workers=None))
    app = FleetApp(fleet, fleet.sessions()[0])

    async def rows_drawn(pilot) -> None:
        table = app.screen.query_one("#fleet-table", VirtualTable)
        await wait_for(lambda: table.row_count == 4, "the fleet's rows", pilot=pilot)
        await settle(pilot)

    assert snap_compare(app, terminal_size=(120, 30), run_before=rows_drawn)
