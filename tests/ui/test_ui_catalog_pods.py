"""``:catsrc`` detail names a catalog's registry pods and their health (R-EVD-1), and says
"no access" when pods may not be read live (R-SRC-3), never "none", as the header does."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from conftest import wait_for
from model_builders import catalog_source, namespace, pod
from rich.console import Console

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.ui.app import OlmApp
from olmtui.ui.widgets.source_header import header_text

MARKET = "openshift-marketplace"
KEY = (MARKET, "community")


@pytest.mark.parametrize("forbidden", [False, True])
async def test_catalog_detail_shows_its_pods_or_no_access(tmp_path: Path, forbidden: bool) -> None:
    server = LoopbackAPIServer()
    server.state.load(
        [
            namespace(MARKET),
            catalog_source(MARKET, "community"),
            pod(
                MARKET,
                "community-xyz",
                labels={"olm.catalogSource": "community"},
                ready=False,
                restarts=4,
                waiting="CrashLoopBackOff",
            ),
        ]
    )
    if forbidden:
        server.forbid("pods")
    with run_in_thread(server):
        kubeconfig = str(server.write_kubeconfig(tmp_path / "kubeconfig"))
        session = await asyncio.to_thread(live_session, LiveOptions(kubeconfig=kubeconfig))
        app = OlmApp(session, initial_view="catsrc")
        async with app.run_test(size=(160, 40)) as pilot:

            def detail() -> str:
                console = Console(width=200, record=True, file=io.StringIO())
                console.print(app.screen.describe(KEY))
                return console.export_text()

            want = (
                "pods: no access" if forbidden else "community-xyz (CrashLoopBackOff, 4 restarts)"
            )
            await wait_for(lambda: want in detail(), f"{want!r} in the detail", pilot=pilot)
            header = header_text(session, "Catalogs").plain
            assert ("no access: pods" in header) is forbidden, header
