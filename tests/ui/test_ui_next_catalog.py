"""The Subscriptions view's detail pane says what ``--next-catalog`` holds for the
Subscription (R-NXT-3, R-NXT-5), and the Findings view lists its finding; on the
descheduler operator's real 4.21 and 4.22 catalogs."""

from __future__ import annotations

import io
from pathlib import Path

import yaml
from data_paths import DATA
from model_builders import csv, subscription
from rich.console import Console
from textual.widgets import Static

from olmtui.pipeline.build import snapshot_session
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.ui.app import OlmApp
from olmtui.ui.widgets.virtual_table import VirtualTable

PKG = "cluster-kube-descheduler-operator"
NS = "openshift-kube-descheduler-operator"
SOURCE = "openshift-marketplace/redhat-operators"
INSTALLED = "clusterkubedescheduleroperator.v5.1.0"
CATALOGS = DATA / "next-catalog" / PKG


def _app(tmp_path: Path, view: str) -> OlmApp:
    path = tmp_path / "cluster.yaml"
    objects = [
        subscription(
            NS, PKG, package=PKG, channel="stable", source="redhat-operators", installed=INSTALLED
        ),
        csv(NS, INSTALLED, version="5.1.0"),
    ]
    path.write_text(yaml.safe_dump_all(objects))
    session = snapshot_session([str(path)], [f"{SOURCE}={CATALOGS / 'v4.21'}"], label="test")
    session.next_catalogs = [load_catalog(f"{SOURCE}={CATALOGS / 'v4.22'}")]
    return OlmApp(session, initial_view=view)


async def test_the_subscription_detail_gives_the_way_out(tmp_path: Path) -> None:
    app = _app(tmp_path, "sub")
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#table", VirtualTable).select_key((NS, PKG))
        await pilot.pause()
        console = Console(file=io.StringIO(), width=400)
        console.print(app.screen.query_one("#detail", Static).content)
        detail = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
        assert "next catalog (R-NXT):" in detail
        assert "upgrade it within channel stable to clusterkubedescheduleroperator.v5.3.2" in detail
        # what the next catalog lacks, then the way out on a line of its own
        assert (
            "has no upgrade edge from the installed clusterkubedescheduleroperator.v5.1.0. "
            "way out: Before the cluster upgrade" in detail
        )


async def test_the_findings_view_lists_the_next_catalog_finding(tmp_path: Path) -> None:
    app = _app(tmp_path, "findings")
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        assert any("nextcatalognoupgradeedge" in row.haystack() for row in table.shown_rows)
