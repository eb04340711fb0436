"""``p`` previews the selected incident's remedy: in the Overview and the
Findings view, the root's remedy is tried on a copy of the state in a worker and shown in a
panel (steps with their commands, whether simulated, what OLM does next, the incidents and
findings that clear and appear); Esc closes it; the session's own state is never changed."""

from __future__ import annotations

from importlib.resources import files

from conftest import press, wait_for
from simulation_support import ORPHAN, catalog_specs

from olmtui.model.records.diagnosis import Incident, Remedy, Step
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session
from olmtui.pipeline.trial_diagnosis import RemedyPreview
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.findings import FindingsScreen
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.screens.remedy_preview import RemedyPreviewScreen, preview_text
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (120, 40)
SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
ORPHAN_CSV = ObjectRef("ClusterServiceVersion", "team", "etcdoperator.v0.9.4")


def orphan_session() -> Session:
    return snapshot_session(
        [str(ORPHAN / "cluster.yaml")], catalog_specs(ORPHAN), label="orphaned CSV"
    )


def _select(app: OlmApp, code: str) -> None:
    table = app.screen.query_one("#table", VirtualTable)
    keys = [r.key for r in table.shown_rows]
    codes = [str(r.cells[1]).removeprefix("└ ") for r in table.shown_rows]
    table.cursor = keys.index(keys[codes.index(code)])


def _codes(app: OlmApp) -> list[str]:
    return [str(r.cells[1]) for r in app.screen.query_one("#table", VirtualTable).shown_rows]


async def _preview(app: OlmApp, pilot: object) -> str:
    await press(pilot, "p")
    await wait_for(
        lambda: isinstance(app.screen, RemedyPreviewScreen) and app.screen.preview is not None,
        "the remedy preview",
        pilot=pilot,
    )
    screen = app.screen
    assert isinstance(screen, RemedyPreviewScreen) and screen.preview is not None
    return preview_text(screen.preview).plain


async def test_overview_previews_the_incidents_remedy_and_esc_closes_it() -> None:
    session = orphan_session()
    app = OlmApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            lambda: isinstance(app.screen, OverviewScreen) and "UnreferencedCSV" in _codes(app),
            "the incident row",
            pilot=pilot,
        )
        _select(app, "UnreferencedCSV")
        shown = await _preview(app, pilot)
        assert shown.startswith(
            "Remedy of UnreferencedCSV:ClusterServiceVersion/team/etcdoperator.v0.9.4\n"
        )
        assert "\nsteps:\n 1. " in shown
        assert "$ oc delete csv etcdoperator.v0.9.4 -n team" in shown
        assert "\nsimulated: " in shown
        assert "OLM resolves team/etcd to etcdoperator.v0.9.4" in shown  # OLM next
        cleared = shown[shown.index("Incidents that clear") : shown.index("Incidents that appear")]
        assert "warning UnreferencedCSV ClusterServiceVersion team/etcdoperator.v0.9.4" in cleared
        brought = shown[shown.index("Findings that appear (1):") :]
        assert "+ info InstallPlanPending Subscription team/etcd" in brought
        # the session the screens show is untouched: the CSV is still there
        assert session.store.get(ORPHAN_CSV.kind, "team", ORPHAN_CSV.name) is not None
        await press(pilot, "escape")
        await wait_for(lambda: isinstance(app.screen, OverviewScreen), "back", pilot=pilot)


async def test_findings_view_previews_the_remedy_of_the_rows_incident() -> None:
    app = OlmApp(orphan_session(), initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            lambda: isinstance(app.screen, FindingsScreen) and "UnreferencedCSV" in _codes(app),
            "the findings",
            pilot=pilot,
        )
        _select(app, "UnreferencedCSV")
        shown = await _preview(app, pilot)
        assert "Remedy of UnreferencedCSV:ClusterServiceVersion/team/etcdoperator.v0.9.4" in shown
        assert "simulated: " in shown
        await press(pilot, "escape")
        await wait_for(lambda: isinstance(app.screen, FindingsScreen), "back", pilot=pilot)


async def test_p_on_a_row_that_is_no_incident_says_so() -> None:
    app = OlmApp(orphan_session())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            lambda: isinstance(app.screen, OverviewScreen) and _codes(app), "rows", pilot=pilot
        )
        table = app.screen.query_one("#table", VirtualTable)
        rows = [r.key for r in table.shown_rows if not str(r.key).startswith("('finding'")]
        if rows:  # an approval, catalog or behind row
            table.cursor = [r.key for r in table.shown_rows].index(rows[0])
            await press(pilot, "p")
            assert isinstance(app.screen, OverviewScreen)


async def test_a_consequence_row_previews_its_roots_remedy() -> None:
    session = snapshot_session([SAMPLE], [], label="sample cluster")
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            lambda: (
                isinstance(app.screen, FindingsScreen)
                and any(c.startswith("└ ") for c in _codes(app))
            ),
            "a finding that follows from another",
            pilot=pilot,
        )
        table = app.screen.query_one("#table", VirtualTable)
        row = next(r for r in table.shown_rows if str(r.cells[1]).startswith("└ "))
        table.cursor = [r.key for r in table.shown_rows].index(row.key)
        diagnosis = session.analysis.diagnosis()
        assert isinstance(row.key, int)
        root = diagnosis.findings[diagnosis.root(row.key)]
        await _preview(app, pilot)
        screen = app.screen
        assert isinstance(screen, RemedyPreviewScreen) and screen.preview is not None
        assert screen.preview.incident.root == (root.code, root.kind, root.namespace, root.name)
        assert screen.preview.incident.consequences  # the incident, not the lone finding


def test_the_panel_never_reads_cluster_text_as_markup_or_control() -> None:
    hostile = "[bold red]x[/]\x1b[31m"
    incident = Incident(
        id=f"UnreferencedCSV:ClusterServiceVersion/team/{hostile}",
        severity="warning",
        root=("UnreferencedCSV", "ClusterServiceVersion", "team", hostile),
        consequences=(),
        affected=(),
        summary=hostile,
    )
    step = Step("delete", f"Delete CSV {hostile}", command=f"oc delete csv {hostile} -n team")
    remedy = Remedy((step,), missing=f"not simulated: {hostile}")
    shown = preview_text(RemedyPreview(incident, remedy, None, hostile)).plain
    assert "[bold red]x[/]" in shown and "\x1b" not in shown and "\\x1b" in shown
    assert f"not simulated: {hostile}".replace("\x1b", "\\x1b") in shown
    assert "not simulated: not simulated" not in shown
