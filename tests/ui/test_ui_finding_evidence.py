"""R-EVD-10 on screen: the Findings view's detail shows the selected finding's evidence — its
object's fields, its Events newest first, and OLM's log lines naming it toolong-style (a time
column, the level, the object's name highlighted) — every piece as text, never markup."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import wait_for
from data_paths import DATA
from rich.console import Console
from textual.widgets import Static

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp

MUST_GATHER = DATA / "logs" / "must-gather-logs"
HOSTILE = (
    '2026-11-28T11:26:00.000000000Z time="2026-11-28T11:26:00Z" level=error '
    'msg="[bold red]not markup[/] \x1b[31m" csv=etcdoperator.v0.9.4 namespace=openshift-operators'
)


def _detail(app: OlmApp) -> str:
    console = Console(width=240, record=True, color_system=None)
    console.print(app.screen.query_one("#detail", Static).content)
    return console.export_text()


async def test_the_findings_detail_shows_fields_events_and_log_lines(tmp_path: Path) -> None:
    copy = tmp_path / "mg"
    shutil.copytree(MUST_GATHER, copy)
    log = next(copy.rglob("olm-operator/logs/current.log"))
    log.write_text(log.read_text() + HOSTILE + "\n")
    app = OlmApp(snapshot_session([str(copy)], [], label="mg"), initial_view="findings")
    async with app.run_test(size=(240, 60)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"CSVFailed", "enter")
        await pilot.pause()
        text = _detail(app)
        assert "evidence:" in text
        assert (
            "ClusterServiceVersion/openshift-operators/etcdoperator.v0.9.4 .status.phase = Failed"
            in text
        )
        events = text.split("events (newest first):", 1)[1]
        assert events.index("InstallCheckFailed: install timeout") < events.index("InstallWaiting")
        logs = text.split("OLM log lines naming it:", 1)[1]
        assert "11-28 11:25:00.400 WARN  olm-operator time=" in logs
        assert "11-28 11:25:00.500 ERROR olm-operator E1128" in logs
        assert "[bold red]not markup[/] \\x1b[31m" in logs  # as written, escape shown inert
        assert "other.v1.0.0" not in logs


def test_a_log_line_highlights_the_object_name_and_colours_its_level() -> None:
    from olmtui.model.records.types import LogEvidence
    from olmtui.ui import palette
    from olmtui.ui.evidence_text import evidence_text

    line = LogEvidence("olm-operator-1", "olm-operator", "", "error", "sync etcd [b]x[/b] failed")
    shown = evidence_text([line], "etcd")
    assert shown is not None
    assert "--- --:--:--.--- ERROR olm-operator sync etcd [b]x[/b] failed" in shown.plain
    styled = {shown.plain[s.start : s.end]: str(s.style) for s in shown.spans}
    assert styled["etcd"] == "bold underline"
    assert styled["ERROR"] == palette.ERROR
    assert evidence_text([], "etcd") is None


async def test_the_object_detail_lists_the_olm_log_lines_naming_it() -> None:
    from olmtui.ui.screens.object_detail import ObjectScreen

    app = OlmApp(snapshot_session([str(MUST_GATHER)], [], label="mg"), initial_view="findings")
    async with app.run_test(size=(240, 60)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"CSVFailed", "enter", "enter")
        for _ in range(100):
            if isinstance(app.screen, ObjectScreen):
                break
            await pilot.pause(0.05)
        await pilot.pause()
        console = Console(width=240, record=True, color_system=None)
        console.print(app.screen.query_one("#object-summary", Static).content)
        text = console.export_text()
        assert "OLM log lines naming it" in text
        assert "11-28 11:25:00.500 ERROR olm-operator E1128" in text


async def test_the_overview_incident_detail_shows_its_roots_evidence() -> None:
    """The Overview's incident pane explains the root as the Findings detail does, evidence
    included (R-EVD-10)."""
    from olmtui.ui.screens.overview import OverviewScreen

    app = OlmApp(snapshot_session([str(MUST_GATHER)], [], label="mg"))
    async with app.run_test(size=(240, 60)) as pilot:
        await wait_for(lambda: isinstance(app.screen, OverviewScreen), pilot=pilot)
        await pilot.press("slash", *"CSVFailed", "enter")
        await wait_for(lambda: "evidence:" in _detail(app), "the root's evidence", pilot=pilot)
        assert ".status.phase = Failed" in _detail(app)
