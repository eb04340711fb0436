"""The Timeline's columns fit their content: at 160 columns every object of the demo's
``team-a-operators`` reads whole (a Subscription's name was cut in its middle while WHAT had
room); at 100, where the row cannot hold them, WHAT gives way first and a name longer than
what is left is cut in its middle, both ends kept, never past the screen."""

from __future__ import annotations

from pathlib import Path

import yaml

from olmtui.demo import scenario
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.timeline import TimelineScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

NAMESPACE = "team-a-operators"
#: What the first rounds of fitting leave a message column (``virtual_table._COMFORT``).
COMFORT = 16


async def _painted(tmp_path: Path, width: int) -> tuple[list[str], list[str]]:
    """The timeline's header and row lines as painted at ``width`` columns, and the objects
    of its rows."""
    snapshot = tmp_path / "demo.yaml"
    snapshot.write_text(yaml.safe_dump_all(scenario.build_scenario().objects))
    session = snapshot_session([str(snapshot)], label="demo")
    app = OlmApp(session)
    async with app.run_test(size=(width, 50)) as pilot:
        await pilot.pause()
        app.push_screen(TimelineScreen(session, namespace=NAMESPACE))
        await pilot.pause()
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        rows = list(table.shown_rows)
        assert rows
        table.action_jump(0)
        await pilot.pause()
        lines = [table.render_line(y).text for y in range(len(rows) + 1)]
        assert all(len(line) <= width for line in lines)
        return lines, [str(row.cells[1]) for row in rows]


def _columns(header: str) -> tuple[int, int]:
    """Where OBJECT starts and how wide it is, from the header."""
    start = header.index("OBJECT")
    return start, header.index("WHAT") - start - 2


async def test_at_160_columns_every_name_reads_whole(tmp_path: Path) -> None:
    lines, objects = await _painted(tmp_path, 160)
    assert max(map(len, objects)) > 60  # longer than a column sized from content grew before
    start, _ = _columns(lines[0])
    for line, obj in zip(lines[1:], objects, strict=True):
        assert line[start:].startswith(obj + "  "), line
    assert any(o.startswith("Subscription ") and len(o) > 60 for o in objects)


async def test_at_100_columns_what_gives_way_before_a_name_is_cut(tmp_path: Path) -> None:
    lines, objects = await _painted(tmp_path, 100)
    header = lines[0]
    start, room = _columns(header)
    assert len(header.rstrip()) - header.index("WHAT") <= COMFORT
    assert any(len(o) > room for o in objects)  # the terminal truly cannot hold these
    for line, obj in zip(lines[1:], objects, strict=True):
        cell = line[start : start + room].rstrip()
        if len(obj) <= room:
            assert cell == obj, line
        else:
            head, tail = cell.split("…")
            assert len(cell) == room and obj.startswith(head) and obj.endswith(tail), line
