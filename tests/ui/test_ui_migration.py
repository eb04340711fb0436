"""The Migration view (``:migration``, R-MIG-12): a row per operator painted in the tool's
order with its state and the rules it does not pass; the detail pane and Enter with every
rule and the ClusterExtension YAML (R-MIG-13); and the migration line of a CSV's OLM v1
readiness."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import yaml
from migration_support import CLUSTER_CATALOG, CSV_NAME, NS, healthy_subscription
from model_builders import catalog_source, csv, operator_condition, operator_group, subscription
from rich.console import Console, RenderableType
from v1_objects import catalog, extension

from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.migration.states import MIGRATED_FROM
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.migration import MigrationDetailScreen, MigrationScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

SIZE = (200, 40)


def _text(renderable: RenderableType) -> str:
    console = Console(width=300, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _session(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Four operators, one in each state, and the ClusterCatalog's content (FBC) bound to it."""
    objects: list[dict[str, Any]] = [
        operator_group(NS, "og", status=[""]),
        csv(NS, CSV_NAME),
        operator_condition(CSV_NAME, None, ns=NS),
        healthy_subscription(approval="Manual"),
        operator_group("team", "og", targets=["team"]),
        csv("team", CSV_NAME),
        subscription("team", "pkg", installed=CSV_NAME, state="AtLatestKnown"),
        subscription("half", "done", package="half"),
        extension(
            "done", package="half", namespace="half", annotations={MIGRATED_FROM: "half/done"}
        ),
        extension(
            "gone", package="gone", namespace="gone", annotations={MIGRATED_FROM: "old/gone"}
        ),
        catalog_source("openshift-marketplace", "cat"),
        catalog(CLUSTER_CATALOG),
    ]
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(yaml.safe_dump_all(objects, sort_keys=False))
    bundle = {
        "schema": "olm.bundle",
        "name": CSV_NAME,
        "package": "pkg",
        "image": "quay.io/example/pkg-bundle:v1.0.0",
        "properties": [
            {"type": "olm.package", "value": {"packageName": "pkg", "version": "1.0.0"}}
        ],
    }
    blobs = [
        {"schema": "olm.package", "name": "pkg", "defaultChannel": "stable"},
        {
            "schema": "olm.channel",
            "name": "stable",
            "package": "pkg",
            "entries": [{"name": CSV_NAME}],
        },
        bundle,
    ]
    fbc = tmp_path / "catalog"
    fbc.mkdir()
    (fbc / "catalog.json").write_text("\n".join(json.dumps(b) for b in blobs))
    return snapshot_session([str(cluster)], [f"{CLUSTER_CATALOG}={fbc}"], label="migration")


async def test_every_row_is_painted_in_the_tools_order(tmp_path: Path) -> None:
    app = OlmApp(_session(tmp_path), initial_view="migration")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MigrationScreen)
        table = screen.query_one("#table", VirtualTable)
        rows = [
            tuple(c if isinstance(c, str) else c.plain for c in row.cells)
            for row in table.shown_rows
        ]
        assert [r[:6] for r in rows] == [
            ("Conflict", "half", "done", "Subscription", "half", "-"),
            ("Ineligible", "team", "pkg", "Subscription", "pkg", "C1"),
            ("AlreadyMigrated", "-", "gone", "ClusterExtension", "gone", "-"),
            ("Eligible", NS, "pkg", "Subscription", "pkg", "none"),
        ]
        painted = app.export_screenshot()  # what the terminal shows, every row painted
        for state in ("Conflict", "Ineligible", "AlreadyMigrated", "Eligible"):
            assert f">{state}&#160;" in painted or f">{state}<" in painted, state
        assert "not&#160;shown" not in painted


async def test_the_detail_and_enter_show_every_rule_and_the_yaml(tmp_path: Path) -> None:
    app = OlmApp(_session(tmp_path), initial_view="migration")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MigrationScreen)
        eligible = ObjectRef("Subscription", NS, "pkg")
        text = _text(screen.describe(eligible))
        assert "state (R-MIG-12): Eligible" in text
        assert "✓ C7  ClusterCatalog operatorhubio serves pkg 1.0.0 in channel stable" in text
        assert "ClusterExtension a conversion would create (R-MIG-13)" in text
        assert "      version: 1.0.0" in text  # Manual approval: pinned
        scoped = _text(screen.describe(ObjectRef("Subscription", "team", "pkg")))
        assert "✖ C1  OperatorGroup og targets namespaces team" in scoped
        assert "(override: --acknowledge-watch-scope-change)" in scoped
        assert "would create" not in scoped
        table = screen.query_one("#table", VirtualTable)
        table.focus()
        await pilot.press("end", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MigrationDetailScreen)
        assert app.screen.row.object == eligible
        shown = _text(app.screen.query_one("#migration-detail").content)
        assert "kind: ClusterExtension" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MigrationScreen)


async def test_a_csv_detail_says_its_migration_state(tmp_path: Path) -> None:
    app = OlmApp(_session(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        app.open_object(ObjectRef("ClusterServiceVersion", "team", CSV_NAME))
        await pilot.pause()
        text = _text(app.screen.query_one("#object-summary").content)
        assert "migration tool (R-MIG-12): Ineligible: fails C1" in text
        assert "✖ C1  OperatorGroup og targets namespaces team" in text
