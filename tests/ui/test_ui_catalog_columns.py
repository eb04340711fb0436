"""``:catsrc`` on the demo: columns fit their content, so a catalog's state
(``TRANSIENT_FAILURE``) is never cut at 120 or 160 columns and names stay told apart."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from rich.text import Text

from olmtui.demo import scenario
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.catalogs import CatalogsScreen
from olmtui.ui.widgets.virtual_table import VirtualTable


@pytest.mark.parametrize("size", [(120, 40), (160, 50)])
async def test_catsrc_states_and_names_are_whole(tmp_path: Path, size: tuple[int, int]) -> None:
    snapshot = tmp_path / "demo.yaml"
    snapshot.write_text(yaml.safe_dump_all(scenario.build_scenario().objects))
    session = snapshot_session([str(snapshot)], label="demo")
    app = OlmApp(session, initial_view="catsrc")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CatalogsScreen)
        table = app.screen.query_one("#table", VirtualTable)
        rows = list(table.shown_rows)
        assert rows
        lines = [table.render_line(y).text for y in range(1, len(rows) + 1)]
        states = [plain(r.cells[4]) for r in rows]
        assert "✖ TRANSIENT_FAILURE" in states  # the demo has a catalog that does not serve
        for state, text in zip(states, lines, strict=True):
            assert state in text, text
        names = [text.split()[:2] for text in lines]
        assert len({tuple(n) for n in names}) == len(names), names


def plain(cell: str | Text) -> str:
    return cell if isinstance(cell, str) else cell.plain
