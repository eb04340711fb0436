"""The Findings view's detail and the Overview's incident detail show the remedy of the
selected finding (of the incident's root): its steps numbered and each command on a line of
its own, shown as text, never as markup."""

from __future__ import annotations

from importlib.resources import files

from rich.console import Console
from textual.widgets import Static

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))


def _detail(app: OlmApp) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(app.screen.query_one("#detail", Static).content)
    return console.export_text()


async def test_the_findings_detail_lists_the_remedy_steps() -> None:
    app = OlmApp(snapshot_session([SAMPLE], [], label="sample"), initial_view="findings")
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"MultipleOperatorGroupsFound", "enter")
        await pilot.pause()
        text = _detail(app)
        assert "remedy (not tried yet: p tries it on a copy of the state):" in text
        assert " 1. Delete OperatorGroup" in text
        assert "$ oc delete operatorgroup keycloak-og -n team-b" in text


async def test_the_overviews_incident_detail_lists_its_roots_remedy() -> None:
    app = OlmApp(snapshot_session([SAMPLE], [], label="sample"), initial_view="overview")
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"MultipleOperatorGroupsFound", "enter")
        await pilot.pause()
        text = _detail(app)
        assert "follows from it" in text
        assert "remedy (not tried yet: p tries it on a copy of the state):" in text
        assert "$ oc delete operatorgroup keycloak-og -n team-b" in text
