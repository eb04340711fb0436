"""SVG snapshot of the Timeline (``t`` on a namespace) over the Azure CI must-gather's
``cfe-test-namespace``: the issue's story, 15:27:22 plan created, 15:28:43 the Role failed,
15:29:59 the second plan (refresh with ``--snapshot-update`` after looking at the diff)."""

from __future__ import annotations

import os

from conftest import press, wait_for
from data_paths import DATA

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.timeline import TimelineScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (140, 40)
AZURE = DATA / "must-gather/must-gather-clean/must-gather-azure"
NAMESPACE = "cfe-test-namespace"


async def opened(pilot) -> None:
    """``t`` on the namespace's row, until its timeline is drawn."""
    app = pilot.app

    def rows() -> list:
        return app.screen.query_one("#table", VirtualTable).shown_rows

    await wait_for(lambda: any(r.key == NAMESPACE for r in rows()), "its row", pilot=pilot)
    table = app.screen.query_one("#table", VirtualTable)
    table.cursor = [r.key for r in rows()].index(NAMESPACE)
    await press(pilot, "t")
    await wait_for(
        lambda: isinstance(app.screen, TimelineScreen) and app.screen.table.row_count > 0,
        "the timeline",
        pilot=pilot,
    )
    await pilot.pause(0.3)  # the next tick redraws


def test_timeline_of_a_namespace(snap_compare):
    session = snapshot_session([os.path.relpath(AZURE)], label="must-gather azure")
    app = OlmApp(session, initial_view="namespaces")
    assert snap_compare(app, terminal_size=SIZE, run_before=opened)
