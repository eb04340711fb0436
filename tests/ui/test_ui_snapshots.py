"""SVG snapshots of the key screens on the packaged sample cluster (pytest-textual-snapshot;
refresh with ``pytest tests/ui/test_ui_snapshots.py --snapshot-update`` and look at the diff).
A snapshot session has no clock in its header, so the pictures are stable."""

from __future__ import annotations

import os
from importlib.resources import files

from conftest import redrawn, wait_for
from data_paths import TESTS

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
#: Relative to the repository root (where pytest runs): the graph screen shows the catalog's
#: path, and the picture must not depend on where the repository was cloned.
KEYCLOAK = os.path.relpath(TESTS / "data" / "ui" / "keycloak-catalog")
SIZE = (120, 40)


def _app(view: str) -> OlmApp:
    return OlmApp(snapshot_session([SAMPLE], [KEYCLOAK], label="sample cluster"), initial_view=view)


async def settled(pilot) -> None:
    """Wait for the predicted findings' first run (a worker thread, ``pipeline/predicted.py``):
    on a busy machine it may land after the first frames, and the picture must not depend
    on when."""

    def ran() -> bool:
        hit = pilot.app.session.analysis.predicted
        return hit is not None and hit.runs >= 1 and not hit._busy

    await wait_for(ran, "the predicted findings' first run", 20.0, pilot=pilot)
    await redrawn(pilot)


def test_overview_screen(snap_compare):
    assert snap_compare(_app("overview"), terminal_size=SIZE, run_before=settled)


def test_operatorgroups_screen_shows_r_og_8_roles_of_the_conflicting_group(snap_compare):
    # rows sorted by namespace: cfe-test-namespace, openshift-operators (global-operators)
    assert snap_compare(_app("og"), terminal_size=SIZE, press=["down"], run_before=settled)


def test_csvs_screen_marks_the_conflict_verdict(snap_compare):
    assert snap_compare(
        _app("csv"), terminal_size=SIZE, press=["down", "down", "down"], run_before=settled
    )


def test_subscriptions_screen_shows_functioning_as_manual(snap_compare):
    assert snap_compare(_app("sub"), terminal_size=SIZE, press=["down"], run_before=settled)


def test_graph_screen_highlights_installed_next_and_path(snap_compare):
    async def open_graph(pilot) -> None:
        await settled(pilot)
        await pilot.press("slash", *"keycloak", "enter")
        await pilot.press("g")
        await pilot.pause()

    assert snap_compare(_app("sub"), terminal_size=SIZE, run_before=open_graph)


def test_findings_screen_worst_first(snap_compare):
    assert snap_compare(_app("findings"), terminal_size=SIZE, press=["down"], run_before=settled)


def test_resolution_screen_explains_the_orphan_cause_first(snap_compare):
    """``r`` on a Subscription its orphaned CSV blocks: the minimal explanation, each
    constraint with its objects and fix, the Subscription's lines marked."""
    case = TESTS / "data" / "resolution" / "orphaned-csv-blocks-package"
    catalog = (
        f"openshift-marketplace/community-operators={case / 'catalog-community-operators.yaml'}"
    )
    session = snapshot_session([str(case / "cluster.yaml")], [catalog], label="orphaned CSV")

    async def resolve(pilot) -> None:
        await settled(pilot)
        await pilot.press("r")
        await wait_for(
            lambda: getattr(pilot.app.screen, "result", None) is not None,
            "the resolution's result",
            pilot=pilot,
        )
        await pilot.pause()

    app = OlmApp(session, initial_view="sub")
    assert snap_compare(app, terminal_size=SIZE, run_before=resolve)


def test_cluster_extensions_screen_reads_the_progressing_quirk_as_installed(snap_compare):
    """OLM v1 ``:ce``: a settled extension (Progressing=True/Succeeded) shows Installed, a
    retrying one is marked, the resolution says "not computed" without catalog content."""
    v1 = os.path.relpath(TESTS / "data" / "ui" / "v1-cluster.yaml")
    app = OlmApp(snapshot_session([v1], [], label="OLM v1"), initial_view="ce")
    assert snap_compare(app, terminal_size=SIZE, press=["down"])
