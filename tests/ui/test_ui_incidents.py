"""The dashboard leads with incidents (R-DIAG-9): on the demo, the broken catalog is one
Overview row, not one per Subscription it blocks, rooted at its crash-looping registry pod
(R-EVD-2, R-DIAG-20); the Findings view folds what follows from it under it; Enter still
opens the object."""

from __future__ import annotations

from conftest import wait_for

from olmtui.demo.cluster import DemoCluster
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import demo_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.findings import FindingsScreen
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (160, 40)
BROKEN = ObjectRef("Pod", "openshift-marketplace", "certified-operators-x7k2p")
ROOT = "CatalogPodCrashLoopBackOff"


def _codes(app: OlmApp) -> list[str]:
    table = app.screen.query_one("#table", VirtualTable)
    return [str(row.cells[1]) for row in table.shown_rows]


async def test_the_demo_overview_shows_the_broken_catalog_as_one_incident_row() -> None:
    with DemoCluster(1.0, cycles=1) as demo:
        session = demo_session(demo)
        app = OlmApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(
                lambda: isinstance(app.screen, OverviewScreen) and ROOT in _codes(app),
                "the incident row",
                pilot=pilot,
            )
            codes = _codes(app)
            assert codes.count(ROOT) == 1
            # the catalog's state and the 8 Subscriptions it blocks follow from its pod
            assert "CatalogSourceNotReady" not in codes
            assert "CatalogSourcesUnhealthy" not in codes
            table = app.screen.query_one("#table", VirtualTable)
            row = next(r for r in table.shown_rows if str(r.cells[1]) == ROOT)
            assert str(row.cells[3]).startswith("(+9 follow)")
            diagnosis = session.analysis.diagnosis()
            root = next(i for i in diagnosis.roots() if diagnosis.findings[i].code == ROOT)
            assert len(diagnosis.consequences(root)) == 9
            # drill-down keeps working: Enter on the incident opens its root's object
            table.cursor = [r.key for r in table.shown_rows].index(row.key)
            await pilot.press("enter")
            await wait_for(lambda: isinstance(app.screen, ObjectScreen), pilot=pilot)
            assert app.screen.target == BROKEN


async def test_the_findings_view_folds_what_follows_under_its_root() -> None:
    with DemoCluster(1.0, cycles=1) as demo:
        session = demo_session(demo)
        app = OlmApp(session, initial_view="findings")
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(
                lambda: isinstance(app.screen, FindingsScreen) and ROOT in _codes(app),
                "the incident row",
                pilot=pilot,
            )
            codes = _codes(app)
            at = codes.index(ROOT)
            assert sorted(codes[at + 1 : at + 10]) == sorted(
                ["└ CatalogSourceNotReady"] + ["└ CatalogSourcesUnhealthy"] * 8
            )
            assert "CatalogSourcesUnhealthy" not in codes
            assert "CatalogSourceNotReady" not in codes
