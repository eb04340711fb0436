"""The resolver's findings on the dashboard: the Findings screen, the Overview and
the counts hold what ``olmtui check`` draws from ``resolution[]``, resolved in a worker after
the model moved, and nothing runs without catalog content."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import yaml
from conftest import wait_for
from data_paths import DATA

from olmtui.model.diagnosis.remedies import IndexedContext
from olmtui.model.viewmodels.finding_evidence import finding_evidence
from olmtui.pipeline import predicted
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session
from olmtui.report.json_report import diagnosed_findings, incidents_json
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.findings import FindingsScreen
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.screens.resolution import ResolutionScreen

CASE = DATA / "resolution" / "orphaned-csv-blocks-package"
SIZE = (140, 40)


def _session(catalogs: bool = True) -> Session:
    specs = []
    if catalogs:
        expect = yaml.safe_load((CASE / "expect.yaml").read_text())
        for spec in expect.get("catalogs") or ():
            ref, _, path = spec.partition("=")
            specs.append(f"{ref}={CASE / path}")
    return snapshot_session([str(CASE / "cluster.yaml")], specs, label=CASE.name)


def _codes(session: Session) -> list[str]:
    return [f.code for f in session.analysis.all_findings()]


async def _runs(
    pilot, session: Session, at_least: int, shown: Callable[[], bool] = lambda: True
) -> None:
    """Wait until the follower's worker has landed ``at_least`` runs in all and the view
    ``shown`` what they found (a tick redraws it)."""

    def landed() -> bool:
        hit = session.analysis.predicted
        return hit is not None and hit.runs >= at_least and not hit._busy and shown()

    await wait_for(landed, f"{at_least} resolution runs landed and shown", pilot=pilot)


def _rows(app: OlmApp) -> list[str]:
    """The codes of the findings the screen shows in its rows."""
    screen = app.screen
    if isinstance(screen, FindingsScreen):
        return [f.code for f in screen._findings.values()]
    assert isinstance(screen, OverviewScreen)
    return [f.code for f in screen._finding_rows.values()]


async def test_findings_screen_shows_the_predicted_failure_and_enter_opens_its_resolution():
    session = _session()
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        await _runs(pilot, session, 1, lambda: "ResolutionWouldFail" in _rows(app))
        assert "ResolutionWouldFail" in _rows(app)
        await pilot.press("slash", *"ResolutionWouldFail", "enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResolutionScreen)
        assert (screen.namespace, screen.subscription) == ("team", None)


async def test_overview_counts_and_rows_include_the_predicted_finding():
    session = _session()
    before = session.analysis.severity_counts()
    app = OlmApp(session, initial_view="overview")
    async with app.run_test(size=SIZE) as pilot:
        await _runs(pilot, session, 1, lambda: "ResolutionWouldFail" in _rows(app))
        counts = session.analysis.overview_counts().severities
        assert counts["warning"] == before["warning"] + 1
        assert session.analysis.overview_counts("team").severities["warning"] >= 1
        assert "ResolutionWouldFail" in _rows(app)
        subjects = session.analysis.findings_by_subject()
        assert [f.code for f in subjects[("Namespace", "", "team")]] == ["ResolutionWouldFail"]


async def test_without_catalog_content_nothing_is_resolved(monkeypatch):
    session = _session(catalogs=False)
    assert not session.analysis.has_catalog_content()

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("resolved without catalog content")

    monkeypatch.setattr(predicted.PredictedFindings, "follow", refuse)
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.6)
        assert session.analysis.predicted is None
        assert not any(c.startswith("Resolution") for c in _rows(app))


async def test_deleting_the_orphaned_csv_clears_the_finding_after_the_next_run(monkeypatch):
    monkeypatch.setattr(predicted, "MIN_INTERVAL", 0.0)
    session = _session()
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        await _runs(pilot, session, 1, lambda: "ResolutionWouldFail" in _rows(app))
        assert "ResolutionWouldFail" in _rows(app)
        csv = session.store.get("ClusterServiceVersion", "team", "etcdoperator.v0.9.4")
        assert csv is not None
        session.store.apply("DELETED", csv)
        await _runs(pilot, session, 2, lambda: "ResolutionWouldFail" not in _rows(app))
        assert "ResolutionWouldFail" not in _rows(app)
        assert "ResolutionWouldFail" not in _codes(session)


async def test_a_run_waits_for_the_interval(monkeypatch):
    """A change right after a run is resolved only once the interval has passed."""
    monkeypatch.setattr(predicted, "MIN_INTERVAL", 60.0)
    session = _session()
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        await _runs(pilot, session, 1)
        csv = session.store.get("ClusterServiceVersion", "team", "etcdoperator.v0.9.4")
        assert csv is not None
        session.store.apply("DELETED", csv)
        await pilot.pause(0.6)
        assert session.analysis.predicted is not None
        assert session.analysis.predicted.runs == 1
        assert "ResolutionWouldFail" in _rows(app)


@pytest.mark.parametrize("catalogs", [True, False])
async def test_the_dashboard_and_check_agree(catalogs: bool):
    session = _session(catalogs)
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        if catalogs:
            await _runs(pilot, session, 1)
        else:
            await wait_for(lambda: app.screen.is_mounted, "the findings view", pilot=pilot)
        diagnosis = session.analysis.diagnosis()
        shown = diagnosed_findings(
            diagnosis,
            False,
            IndexedContext(session.store),
            gather=lambda finding: finding_evidence(finding, session.store),  # R-EVD-10
        )
        incidents = incidents_json(diagnosis, streamed=False)
    whole = session.analysis.report()
    report = whole["findings"]
    assert shown == report
    assert incidents == whole["incidents"]  # one diagnosis for the screens and check
    assert ("ResolutionWouldFail" in [f["code"] for f in report]) is catalogs
