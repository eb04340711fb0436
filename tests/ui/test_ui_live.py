"""``olmtui`` without a sub-command: the dashboard on a live cluster (here the loopback API
server olmtui ships for its tests and demo), read through kubernetes-asyncio."""

from __future__ import annotations

import copy
from importlib.resources import files

import pytest
import yaml
from conftest import redrawn, wait_for

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.errors import UsageError
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.ui.app import OlmApp
from olmtui.ui.widgets.source_header import header_text

SAMPLE = files("olmtui").joinpath("samples", "cluster.yaml")


@pytest.fixture
def cluster(tmp_path):
    objects = [o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o]
    server = LoopbackAPIServer()
    server.state.load(objects, skip_unknown=True)
    thread = run_in_thread(server)
    kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
    yield thread, str(kubeconfig)
    thread.stop()


async def test_live_dashboard_follows_the_cluster_and_says_so_in_the_header(cluster):
    thread, kubeconfig = cluster
    session = await _session(kubeconfig)
    app = OlmApp(session, initial_view="changes")
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(
            lambda: session.store.count("ClusterServiceVersion"), "the CSVs listed", pilot=pilot
        )
        assert session.model.csv("team-a", "etcdoperator.v0.9.4") is not None
        status = session.status()
        assert status.state in ("live", "syncing")
        assert "last event" in header_text(session, "Changes").plain
        csv = copy.deepcopy(
            session.store.get("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")
        )
        csv["status"] = {"phase": "Pending", "reason": "RequirementsUnknown"}
        csv["metadata"].pop("resourceVersion", None)
        thread.apply(csv)  # the cluster changes
        await wait_for(
            lambda: (
                session.store.get("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")[
                    "status"
                ]["phase"]
                == "Pending"
            ),
            "the CSV's new phase",
            pilot=pilot,
        )
        await redrawn(pilot)
        whats = [row.cells[1].plain for row in app.screen.query_one("#table").shown_rows]
        assert "phase" in whats


async def _session(kubeconfig: str):
    # live_session probes the cluster with asyncio.run: call it off this test's loop
    import asyncio

    return await asyncio.to_thread(live_session, LiveOptions(kubeconfig=kubeconfig))


def test_unreachable_cluster_is_a_one_line_error(tmp_path):
    config = tmp_path / "kubeconfig"
    config.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "c", "cluster": {"server": "http://127.0.0.1:9"}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
                "users": [{"name": "u", "user": {}}],
            }
        )
    )
    with pytest.raises(UsageError):
        live_session(LiveOptions(kubeconfig=str(config), read_timeout=2))
