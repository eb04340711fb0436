"""SVG snapshot of the remedy preview (``p`` on an incident) over OLM's orphaned-CSV
resolver case (refresh with ``--snapshot-update`` after looking at the diff)."""

from __future__ import annotations

import os

from conftest import press, redrawn, wait_for
from simulation_support import ORPHAN, catalog_specs

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.remedy_preview import RemedyPreviewScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (120, 40)


def _relative(spec: str) -> str:
    """A catalog spec whose path does not depend on where the repository was cloned."""
    target, path = spec.split("=", 1)
    return f"{target}={os.path.relpath(path)}"


async def previewed(pilot) -> None:
    """The predicted findings' first run done (a worker thread: the picture must not depend
    on when it lands), then ``p`` on the orphaned CSV's incident, until the panel is drawn."""
    app = pilot.app

    def predicted() -> bool:
        hit = app.session.analysis.predicted
        return hit is not None and hit.runs >= 1 and not hit._busy

    await wait_for(predicted, "the predicted findings' first run", pilot=pilot)
    await redrawn(pilot)
    await wait_for(
        lambda: any(
            str(r.cells[1]) == "UnreferencedCSV"
            for r in app.screen.query_one("#table", VirtualTable).shown_rows
        ),
        "the incident row",
        pilot=pilot,
    )
    table = app.screen.query_one("#table", VirtualTable)
    codes = [str(r.cells[1]) for r in table.shown_rows]
    table.cursor = codes.index("UnreferencedCSV")
    await press(pilot, "p")
    await wait_for(
        lambda: isinstance(app.screen, RemedyPreviewScreen) and app.screen.preview is not None,
        "the remedy preview",
        pilot=pilot,
    )
    await redrawn(pilot)


def test_remedy_preview(snap_compare):
    session = snapshot_session(
        [os.path.relpath(ORPHAN / "cluster.yaml")],
        [_relative(s) for s in catalog_specs(ORPHAN)],
        label="orphaned CSV",
    )
    assert snap_compare(OlmApp(session), terminal_size=SIZE, run_before=previewed)
