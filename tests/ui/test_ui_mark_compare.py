"""The dashboard's mark-and-compare: ``m`` keeps the state shown, ``M`` (or ``:compare``)
shows what changed since, in ``olmtui diff``'s words (``pipeline/marks.py``); the mark
holds across the replay's cursor moves, a live cluster's changes and ``:open`` of another
input, cluster text is never
markup, and every line of a long comparison paints."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from conftest import press, settle, wait_for
from live_support import fast_options, sample_objects
from model_builders import csv, namespace
from snapshot_files import yaml_documents
from textual.pilot import Pilot
from textual.widgets import Log
from timeline_support import CATALOG_SPEC, CSV_FAILS, T0, UPGRADED, demo_timeline

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.model.records.catalog import Catalog
from olmtui.pipeline.build import (
    live_session,
    recording_session,
    rewind_session,
    snapshot_session,
)
from olmtui.pipeline.compare import compare_sessions
from olmtui.report.diff_report import diff_lines
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.sources.recording.moments import utc_text
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.compare import CompareScreen

SIZE = (160, 30)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(CATALOG_SPEC)


async def typed(pilot: Pilot[Any], line: str) -> None:
    await press(pilot, ":", *line, "enter")
    await settle(pilot)


def shown(app: OlmApp) -> tuple[str, ...]:
    screen = app.screen
    assert isinstance(screen, CompareScreen)
    return screen.lines


async def painted(pilot: Pilot[Any], app: OlmApp) -> dict[int, str]:
    """Every line of the Compare screen's log as drawn (cut at the screen's width), by its
    index: scrolled a page at a time to its end."""
    log = app.screen.query_one(Log)
    drawn: dict[int, str] = {}
    while True:
        await settle(pilot)
        top = round(log.scroll_y)
        height = log.scrollable_content_region.height
        for y in range(height):
            if top + y < log.line_count:
                drawn[top + y] = log.render_line(y).text.rstrip()
        if top + height >= log.line_count:
            return drawn
        log.scroll_to(y=top + height, animate=False, immediate=True)


def whole(drawn: dict[int, str], lines: tuple[str, ...]) -> bool:
    """Every line drawn, each the start of its line (a long one is cut at the edge)."""
    assert sorted(drawn) == list(range(len(lines)))
    for index, text in drawn.items():
        assert lines[index].startswith(text), (index, text, lines[index])
    return True


async def test_mark_a_moment_move_the_cursor_and_compare(catalog: Catalog) -> None:
    timeline = demo_timeline()
    before, after = T0 + CSV_FAILS - 1, T0 + UPGRADED + 1
    app = OlmApp(rewind_session(timeline, loaded=[catalog]))
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, f"at {utc_text(before)}")
        await press(pilot, "M")
        assert not isinstance(app.screen, CompareScreen)  # nothing marked yet
        await press(pilot, "m")
        await typed(pilot, f"at {utc_text(after)}")
        await press(pilot, "M")
        await wait_for(lambda: isinstance(app.screen, CompareScreen), "the comparison")
        lines = shown(app)
        drawn = await painted(pilot, app)
        await press(pilot, "escape")
        assert not isinstance(app.screen, CompareScreen)
    # the same comparison as ``olmtui diff FILE@BEFORE FILE@AFTER``, line for line after
    # the two lines naming the sides
    old = recording_session(timeline, timeline.count_at(before), [CATALOG_SPEC], when=before)
    new = recording_session(timeline, timeline.count_at(after), [CATALOG_SPEC], when=after)
    expected = diff_lines(compare_sessions(old, new)[0], "a", "b")
    assert lines[0].startswith("from ") and utc_text(before) in lines[0]
    assert lines[1].startswith("to   ") and utc_text(after) in lines[1]
    assert lines[2:] == tuple(expected[2:])
    assert any("keycloak" in line for line in lines)  # the upgrade is in it
    assert whole(drawn, lines)


def test_a_live_change_since_the_mark_is_shown_and_names_stay_text(tmp_path: Path) -> None:
    server = LoopbackAPIServer(bookmark_interval=0.2)
    server.state.load(sample_objects(), skip_unknown=True)
    thread = run_in_thread(server)
    odd = "[bold]odd[/bold]"
    try:
        session = live_session(fast_options(server.write_kubeconfig(tmp_path / "kubeconfig")))
        app = OlmApp(session)

        async def drive() -> tuple[tuple[str, ...], dict[int, str]]:
            async with app.run_test(size=SIZE) as pilot:
                await wait_for(lambda: not session.input_partial().partial, "synced", 30)
                await press(pilot, "m")
                thread.call(lambda: server.state.create(namespace("team-q")))
                thread.call(lambda: server.state.create(csv("team-q", f"{odd}.v1", phase="Failed")))
                await wait_for(
                    lambda: session.store.get("ClusterServiceVersion", "team-q", f"{odd}.v1"),
                    "the change arrived",
                    30,
                )
                await typed(pilot, "compare")
                lines = shown(app)
                drawn = await painted(pilot, app)
                await press(pilot, "escape")
                await typed(pilot, "unmark")
                assert app.marked is None
                return lines, drawn

        lines, drawn = asyncio.run(drive())
    finally:
        thread.stop()
    assert any(f"team-q/{odd}.v1" in line for line in lines)  # as written, not markup
    assert whole(drawn, lines) and any(odd in line for line in drawn.values())
    assert {r.method for r in server.requests} == {"GET"}


async def test_mark_a_snapshot_open_another_and_compare(tmp_path: Path) -> None:
    before, after = tmp_path / "before.yaml", tmp_path / "after.yaml"
    cluster = [namespace("team-q"), csv("team-q", "op.v1", phase="Succeeded")]
    before.write_text(yaml_documents(cluster))
    after.write_text(yaml_documents([*cluster[:1], csv("team-q", "op.v1", phase="Failed")]))
    app = OlmApp(snapshot_session([str(before)]))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "m")
        await typed(pilot, f"open {tmp_path / 'nothing-here'}")
        await settle(pilot)
        assert app.session.label == str(before)  # a path that cannot be used: it stays
        await typed(pilot, f"open {after}")
        await wait_for(
            lambda: (
                app.session.label == str(after)
                and app.session.loading is not None
                and app.session.loading.done
            ),
            "the other input read",
        )
        await press(pilot, "M")
        await wait_for(lambda: isinstance(app.screen, CompareScreen), "the comparison")
        lines = shown(app)
    old, new = snapshot_session([str(before)]), snapshot_session([str(after)])
    expected = diff_lines(compare_sessions(old, new)[0], "a", "b")
    assert lines[2:] == tuple(expected[2:])
    assert any("Failed" in line for line in lines)


def rows(app: OlmApp) -> list[str]:
    """The rows of the table shown, each as its cells' text."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return [" ".join(str(cell) for cell in row.cells) for row in screen.table.shown_rows]


def marked(app: OlmApp, name: str) -> str:
    """The sign the row naming ``name`` leads with ("" when none)."""
    (row,) = [r for r in rows(app) if f" {name} " in f" {r} "]
    return row[0] if row[:2] in ("+ ", "~ ") else ""


async def test_each_view_marks_the_rows_new_or_changed_since_the_mark(catalog: Catalog) -> None:
    before, after = T0 + CSV_FAILS - 1, T0 + UPGRADED + 1
    app = OlmApp(rewind_session(demo_timeline(), loaded=[catalog]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await typed(pilot, f"at {utc_text(before)}")
        await press(pilot, "m")
        await typed(pilot, f"at {utc_text(after)}")
        await press(pilot, "M")
        await wait_for(lambda: isinstance(app.screen, CompareScreen), "the comparison")
        await press(pilot, "escape")
        await settle(pilot)
        assert marked(app, "keycloak-operator.v26.6.3") == "+"  # installed since the mark
        assert marked(app, "etcdoperator.v0.9.4") == ""
        await typed(pilot, "ip")  # another view, drawn with the marks too
        assert marked(app, "install-kc263") == "~"  # approved and complete since
        await typed(pilot, "unmark")
        await wait_for(lambda: marked(app, "install-kc263") == "", "the marks gone", pilot=pilot)
        await typed(pilot, "csv")
        assert not any(r[:2] in ("+ ", "~ ") for r in rows(app))
