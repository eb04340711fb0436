"""``:ctx NAME`` in a live session: the loopback API server serves two clusters' worth of
kubeconfig contexts (two servers), and the dashboard moves from one to the other."""

from __future__ import annotations

import asyncio
from importlib.resources import files
from pathlib import Path

import pytest
import yaml
from conftest import wait_for

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.pipeline.build import live_session, snapshot_session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.ui.app import OlmApp
from olmtui.ui.widgets.command_bar import CommandBar
from olmtui.ui.widgets.source_header import header_text

SAMPLE = files("olmtui").joinpath("samples", "cluster.yaml")


def _server(objects: list[dict]):
    server = LoopbackAPIServer()
    server.state.load(objects, skip_unknown=True)
    return server, run_in_thread(server)


@pytest.fixture
def two_contexts(tmp_path: Path):
    """Context ``first`` holds the sample cluster, ``second`` only its namespaces."""
    objects = [o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o]
    first, first_thread = _server(objects)
    second, second_thread = _server([o for o in objects if o["kind"] == "Namespace"])
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "first",
        "clusters": [
            {"name": "first", "cluster": {"server": first.url}},
            {"name": "second", "cluster": {"server": second.url}},
        ],
        "users": [{"name": "u", "user": {}}],
        "contexts": [
            {"name": n, "context": {"cluster": n, "user": "u"}} for n in ("first", "second")
        ],
    }
    path = tmp_path / "kubeconfig"
    path.write_text(yaml.safe_dump(doc))
    yield str(path)
    first_thread.stop()
    second_thread.stop()


async def test_ctx_switches_the_live_session_to_another_context(two_contexts):
    options = LiveOptions(kubeconfig=two_contexts, context="first")
    session = await asyncio.to_thread(live_session, options)
    app = OlmApp(session, initial_view="csvs")
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(lambda: session.store.count("ClusterServiceVersion") > 0, pilot=pilot)
        await pilot.press("colon", *"ctx s", "tab")
        assert app.screen.query_one(CommandBar).value == "ctx second"
        await pilot.press("enter")
        # the switch is done once the view in use is rebuilt on the new session: the session
        # is swapped first, then every view is removed and made again (waiting for the swap
        # alone looked at the views mid-way, a flake under load)
        await wait_for(
            lambda: (
                app.session is not session
                and app.current_mode == "csvs"
                and app.screen.session is app.session
            ),
            "the csvs view rebuilt on the new session",
            pilot=pilot,
        )
        new = app.session
        assert new.label == "second"
        await wait_for(lambda: new.store.count("Namespace") > 0, pilot=pilot)
        assert new.store.count("ClusterServiceVersion") == 0
        assert "second" in header_text(new, "Operators").plain

        # the old watcher stopped: no worker of the old session is left running (a cancelled
        # worker ends at its next await, not at once)
        def sources_running() -> int:
            return len([w for w in app.workers if w.group == "source" and w.is_running])

        await wait_for(lambda: sources_running() == 1, "one source worker", pilot=pilot)


async def test_an_unknown_context_leaves_the_session_as_it_was(two_contexts):
    options = LiveOptions(kubeconfig=two_contexts, context="first")
    session = await asyncio.to_thread(live_session, options)
    app = OlmApp(session)
    async with app.run_test(size=(160, 40)) as pilot:
        app.run_command_line("ctx nowhere")
        await wait_for(
            lambda: (
                (app.session is session)
                and (any("nowhere" in str(n.message) for n in app._notifications))
            ),
            "app.session is session",
            pilot=pilot,
        )
        assert app.session is session
        assert any("nowhere" in str(n.message) for n in app._notifications)


async def test_ctx_in_a_snapshot_says_it_applies_to_live_sessions_only():
    app = OlmApp(snapshot_session([str(SAMPLE)], label="sample"))
    async with app.run_test(size=(120, 36)) as pilot:
        app.run_command_line("ctx prod")
        await pilot.pause()
        assert any("live sessions only" in str(n.message) for n in app._notifications)
