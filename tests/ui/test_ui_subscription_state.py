"""The screens do not contradict the findings. Driven with Textual's Pilot on the
triage snapshots of a Subscription OLM leaves AtLatestKnown that is broken (its InstallPlan
failed, R-SUB-5; its namespace stalled, R-SUB-9), on a Subscription whose catalog OLM calls
unhealthy (R-SUB-8), and on the packaged sample's copied CSVs (R-COPY-4)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Hashable
from importlib.resources import files
from pathlib import Path

from data_paths import DATA
from rich.console import Console
from rich.text import Text
from textual.widgets import Static

from olmtui.cli import main
from olmtui.pipeline.build import snapshot_session
from olmtui.ui import palette
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.widgets.virtual_table import Row, VirtualTable

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
TRIAGE = DATA / "triage"
SIZE = (160, 50)
#: The phases OLM writes on a CSV (R-CSV-*); a copy carries one of them (R-COPY-4).
OLM_PHASES = {"Pending", "InstallReady", "Installing", "Succeeded", "Failed", "Unknown"}
OLM_PHASES |= {"Replacing", "Deleting", "Any", ""}


def _app(path: Path | str, view: str) -> OlmApp:
    return OlmApp(snapshot_session([str(path)], [], label="test"), initial_view=view)


def _table(app: OlmApp) -> VirtualTable:
    return app.screen.query_one("#table", VirtualTable)


def _row(app: OlmApp, key: Hashable) -> Row:
    return next(r for r in _table(app).shown_rows if r.key == key)


async def _detail(app: OlmApp, pilot, key: Hashable) -> str:
    assert _table(app).select_key(key)
    await pilot.pause()
    console = Console(file=io.StringIO(), width=400)
    console.print(app.screen.query_one("#detail", Static).content)
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


def _state_cell(app: OlmApp, key: Hashable) -> Text:
    cell = _row(app, key).cells[-1]
    assert isinstance(cell, Text)
    return cell


async def test_r_sub_5_at_latest_known_with_a_failed_install_plan_is_not_green():
    app = _app(TRIAGE / "sub-atlatest-installplan-failed" / "cluster.yaml", "sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cell = _state_cell(app, ("ops", "foo"))
        assert cell.plain == "✖ AtLatestKnown · InstallPlanFailed"  # the mark reads without colour
        assert cell.style == palette.ERROR
        detail = await _detail(app, pilot, ("ops", "foo"))
        assert "state: ✖ AtLatestKnown · InstallPlanFailed" in detail


async def test_r_sub_5_object_detail_of_the_subscription_says_the_same():
    app = _app(TRIAGE / "sub-atlatest-installplan-failed" / "cluster.yaml", "sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert _table(app).select_key(("ops", "foo"))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        shown = app.screen.query_one("#object-summary", Static).content
        console = Console(file=io.StringIO(), width=400)
        console.print(shown)
        assert "status: ✖ AtLatestKnown · InstallPlanFailed" in console.file.getvalue()  # type: ignore[attr-defined]


async def test_r_sub_9_at_latest_known_in_a_stalled_namespace_is_not_green():
    app = _app(TRIAGE / "sub-atlatest-namespace-stalled" / "cluster.yaml", "sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cell = _state_cell(app, ("ops", "foo"))
        assert cell.plain == "✖ AtLatestKnown · SubscriptionStalled · CSV Failed"
        assert cell.style == palette.ERROR


async def test_healthy_subscription_keeps_its_green_state():
    app = _app(SAMPLE, "sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cell = _state_cell(app, ("openshift-operators", "etcd"))
        assert (cell.plain, cell.style) == ("AtLatestKnown", palette.OK)
        # the sample's failed InstallPlan (image-caching-operator) is never green
        broken = _state_cell(app, ("cfe-test-namespace", "image-caching-operator-v0-0-1-sub"))
        assert broken.plain.startswith("✖ AtLatestKnown · InstallPlanFailed")
        assert broken.style == palette.ERROR


async def test_r_sub_8_ready_catalog_is_never_shown_alone_beside_olms_unhealthy():
    app = _app(DATA / "ui" / "catalog-unhealthy.yaml", "sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cell = _state_cell(app, ("ops", "foo"))
        assert cell.plain.endswith("AtLatestKnown · CatalogSourcesUnhealthy")
        detail = await _detail(app, pilot, ("ops", "foo"))
        assert "catalog: ops/ops-catalog READY" in detail
        assert (
            "OLM says (R-SUB-8): ▲ CatalogSourcesUnhealthy=True UnhealthyCatalogSourceFound: "
            "targeted catalogsource ops/ops-catalog unhealthy" in detail
        )
        assert "OLM's condition says otherwise" in detail
        assert "catalog health: READY" not in detail
        missing = await _detail(app, pilot, ("ops", "bar"))
        assert "catalog: ✖ ops/gone-catalog missing" in missing
        assert "targeted catalogsource ops/gone-catalog missing" in missing


async def test_r_copy_4_copied_csv_rows_show_the_phase_the_copy_carries():
    session = snapshot_session([SAMPLE], [], label="test")
    app = OlmApp(session, initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        copies = [r for r in _table(app).shown_rows if r.key[0] == "copy"]
        assert copies
        for row in copies:
            _, ns, name = row.key
            status = session.store.get("ClusterServiceVersion", ns, name)["status"]
            phase_cell, reason_cell = row.cells[3], row.cells[4]
            assert isinstance(phase_cell, Text)
            assert phase_cell.plain.removeprefix("✖ ") == status["phase"] != "Copied"
            assert str(reason_cell).startswith("Copied from ")
        detail = await _detail(app, pilot, ("copy", "team-a", "image-caching-operator.v0.0.1"))
        assert "Copied CSV team-a/image-caching-operator.v0.0.1: Pending / Copied" in detail


def _phases(node: object) -> list[str]:
    """Every ``phase`` value anywhere in a JSON document."""
    if isinstance(node, dict):
        own = [str(node["phase"])] if "phase" in node else []
        return own + [p for v in node.values() for p in _phases(v)]
    if isinstance(node, list):
        return [p for v in node for p in _phases(v)]
    return []


def test_r_copy_4_json_report_invents_no_phase_for_copies():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", SAMPLE, "--output", "json"])
    report = json.loads(out.getvalue())
    assert set(_phases(report)) <= OLM_PHASES | {"Complete"}  # Complete: an InstallPlan's
    assert _phases(report["copiedCSVs"]) == []  # copies are counted, never given a phase
    # the sample's copies are not CSV entries of their own
    assert not [c for c in report["csvs"] if c["reason"] == "Copied"]


def test_check_text_report_qualifies_the_state_as_the_screen_does():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", str(TRIAGE / "sub-atlatest-namespace-stalled" / "cluster.yaml")])
    text = " ".join(out.getvalue().split())
    assert "state AtLatestKnown (SubscriptionStalled, CSV Failed)" in text
