"""The detail and YAML screens say how the connection is now: "reconnecting"
while the cluster is away, "live" again once it is back, never the state of when the
screen was opened."""

from __future__ import annotations

import asyncio
import io
from importlib.resources import files

import pytest
import yaml
from conftest import wait_for
from rich.console import Console

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.widgets.source_header import SourceHeader

SAMPLE = files("olmtui").joinpath("samples", "cluster.yaml")
CSV = ObjectRef("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")


@pytest.fixture
def cluster(tmp_path):
    server = LoopbackAPIServer(bookmark_interval=0.2)
    server.state.load([o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o], skip_unknown=True)
    thread = run_in_thread(server)
    yield server, thread, str(server.write_kubeconfig(tmp_path / "kubeconfig"))
    thread.stop()


def _header(app: OlmApp) -> str:
    console = Console(width=300, record=True, file=io.StringIO())
    console.print(app.screen.query_one(SourceHeader).content)
    return console.export_text()


@pytest.mark.parametrize("tab", ["summary", "yaml"])
async def test_detail_and_yaml_screens_follow_the_connection_state(cluster, tab) -> None:
    server, thread, kubeconfig = cluster
    options = LiveOptions(kubeconfig=kubeconfig, read_timeout=2)  # default backoff
    session = await asyncio.to_thread(live_session, options)
    app = OlmApp(session)
    async with app.run_test(size=(200, 40)) as pilot:
        await wait_for(lambda: session.model.csv(CSV.namespace, CSV.name), "the CSV", pilot=pilot)
        app.open_object(CSV, tab)
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        await wait_for(lambda: " live " in _header(app), "live", pilot=pilot)
        thread.run(server.stop())
        await wait_for(lambda: " reconnecting " in _header(app), "reconnecting shown", pilot=pilot)
        assert " live " not in _header(app)
        thread.run(server.restart())
        # the target: within 10 s of the fault clearing (the default backoff is at most 5 s)
        await wait_for(
            lambda: " live " in _header(app), "live shown again", timeout=10, pilot=pilot
        )
        assert isinstance(app.screen, ObjectScreen)
