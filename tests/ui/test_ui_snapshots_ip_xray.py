"""SVG snapshots of ``:ip`` and ``:xray`` on the packaged sample cluster (refresh with
``--snapshot-update`` after looking at the diff)."""

from __future__ import annotations

from importlib.resources import files

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
SIZE = (120, 40)


def _app(view: str) -> OlmApp:
    return OlmApp(snapshot_session([SAMPLE], [], label="sample cluster"), initial_view=view)


def test_installplans_screen_colours_plans_by_health(snap_compare):
    assert snap_compare(_app("ip"), terminal_size=SIZE, press=["down"])


def test_xray_screen_marks_each_operator_by_its_findings(snap_compare):
    assert snap_compare(_app("xray"), terminal_size=SIZE, press=["down", "space"])
