"""The ``:upgrade`` view (R-CUP-6): every blocker of the next OpenShift minor painted with its
source, object, cap and way out, its detail, and Enter on a row drilling to its object."""

from __future__ import annotations

import io

from conftest import press, wait_for
from data_paths import DATA
from rich.console import Console, RenderableType

from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.upgrade import UpgradeScreen
from olmtui.ui.views import resolve
from olmtui.ui.widgets.virtual_table import VirtualTable

CASE = DATA / "cluster-upgrade"
SIZE = (200, 40)
ARGOCD = ObjectRef("ClusterExtension", "", "argocd")


def _text(renderable: RenderableType) -> str:
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _rows(screen: UpgradeScreen) -> dict[object, tuple[str, ...]]:
    table = screen.query_one("#table", VirtualTable)
    return {
        row.key: tuple(c if isinstance(c, str) else c.plain for c in row.cells)
        for row in table.shown_rows
    }


async def test_the_blocker_row_its_detail_and_enter() -> None:
    session = snapshot_session(
        [str(CASE / "cluster.yaml")], [f"operatorhubio={CASE / 'catalog.json'}"], label="cup"
    )
    app = OlmApp(session, initial_view="upgrade")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, UpgradeScreen)
        rows = _rows(screen)
        assert list(rows) == [ARGOCD]
        source, where, cap, marks, message = rows[ARGOCD]
        assert (source, where, cap) == ("v1", "ClusterExtension argocd", "4.18")
        assert "▲" in marks
        assert "upgrade it to argocd-operator.v0.8.0" in message  # R-CUP-7: the spec leads there
        assert "OpenShift 4.18.12 -> 4.19: 1 blocker" in screen.title_note()
        detail = _text(screen.describe(ARGOCD))
        assert "olm.maxOpenShiftVersion: 4.18" in detail
        assert "ClusterExtensionBlocksUpgrade" in detail
        # painted: every line of the screen renders
        assert app.screen._compositor.render_strips()
        await press(pilot, "enter")
        await wait_for(
            lambda: isinstance(app.screen, ObjectScreen), "the object detail", pilot=pilot
        )


async def test_an_unknown_cap_is_a_row_of_its_own() -> None:
    session = snapshot_session([str(CASE / "cluster.yaml")], [], label="cup")
    # without the catalog the olm ClusterOperator's word names the blocker, its cap unknown
    app = OlmApp(session, initial_view="upgrade")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, UpgradeScreen)
        assert _rows(screen)[ARGOCD][:3] == ("v1", "ClusterExtension argocd", "?")


def test_the_view_answers_to_its_names() -> None:
    assert {resolve(w) for w in ("upgrade", "cup", "readiness", "upg")} == {"upgrade"}
