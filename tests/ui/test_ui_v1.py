"""OLM v1 on screen: ``:ce`` and ``:cc`` (rows, detail, Enter, finding marks, the
Progressing quirk shown as installed, R-V1-5), ``g`` on a ClusterExtension, the Overview's v1
counts (only when the source has v1 objects) and a CSV's OLM v1 readiness (R-V1-23).

Objects: tests/data/ui/v1-cluster.yaml (see its header); catalog content: the
keycloak-operator FBC of tests/data/ui/keycloak-catalog, given unbound (it then serves every
ClusterCatalog)."""

from __future__ import annotations

import copy
import io
from importlib.resources import files

import pytest
from data_paths import TESTS
from rich.console import Console, RenderableType

from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.v1 import resolve as v1_resolve
from olmtui.model.rules.v1.resolve import V1Resolution
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.clustercatalogs import ClusterCatalogsScreen
from olmtui.ui.screens.extension_graph import ExtensionGraphScreen
from olmtui.ui.screens.extensions import ClusterExtensionsScreen
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.overview import metrics_text
from olmtui.ui.widgets.virtual_table import VirtualTable
from olmtui.ui.widgets.yaml_view import YamlView

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
KEYCLOAK = str(TESTS / "data" / "ui" / "keycloak-catalog")
SIZE = (160, 48)
V1_CLUSTER = str(TESTS / "data" / "ui" / "v1-cluster.yaml")
RETRY = 'no bundles found for package "argocd-operator" matching version "9.9.9"'


@pytest.fixture
def v1_file() -> str:
    return V1_CLUSTER


def _app(path: str, view: str, catalogs: tuple[str, ...] = ()) -> OlmApp:
    return OlmApp(snapshot_session([path], list(catalogs), label="v1"), initial_view=view)


def _text(renderable: RenderableType) -> str:
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _rows(app: OlmApp) -> dict[object, tuple[str, ...]]:
    table = app.screen.query_one("#table", VirtualTable)
    return {
        row.key: tuple(c if isinstance(c, str) else c.plain for c in row.cells)
        for row in table.shown_rows
    }


def _resolved(bundle: str, version: str, catalog: str):
    def fake(extension, cluster_catalogs, content):
        return V1Resolution(bundle=bundle, version=version, catalog=catalog)

    return fake


async def test_ce_rows_show_the_progressing_quirk_as_installed_and_mark_findings(v1_file):
    """R-V1-5: Progressing=True/Succeeded is settled: ``Installed``, no mark; a Retrying
    extension with nothing installed is marked, and its error finding counted."""
    app = _app(v1_file, "ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ClusterExtensionsScreen)
        rows = _rows(app)
        assert set(rows) == {"argocd", "broken", "keycloak"}
        # the package in brackets after the name, where it is another name
        assert rows["argocd"][:3] == ("argocd (argocd-operator)", "0.6.0", "Installed")
        # team-catalog is selected and not serving: operator-controller's next resolution
        # fails for every extension selecting it, settled or not (R-V1-9)
        assert rows["argocd"][3] == "▲1"
        assert rows["broken"][2] == "✖ Retrying"
        assert rows["broken"][5:7] == ("any", "9.9.9")
        assert rows["broken"][3].startswith("✖1")
        assert rows["keycloak"][5:7] == ("alpha", "any")
        assert rows["argocd"][4] == "error"


async def test_ce_detail_shows_conditions_findings_and_the_resolution(v1_file):
    app = _app(v1_file, "ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ClusterExtensionsScreen)
        text = _text(screen.describe("broken"))
        assert "state (R-V1-5): ✖ Retrying: " + RETRY in text
        assert "Progressing True/Retrying: " + RETRY in text
        assert "ClusterExtensionRetrying" in text
        assert (
            "would resolve to: would fail: error walking catalogs: error getting package " in text
        )
        # not serving is still selected (R-V1-9): it fails the resolution, it is not skipped
        assert "catalogs selected: operatorhubio, team-catalog" in text
        keycloak = _text(screen.describe("keycloak"))
        assert "catalog selector: olm.operatorframework.io/metadata.name=operatorhubio" in keycloak


async def test_ce_shows_the_resolved_bundle_once_the_resolver_gives_one(v1_file, monkeypatch):
    monkeypatch.setattr(
        v1_resolve,
        "resolve_extension",
        _resolved("argocd-operator.v0.7.0", "0.7.0", "operatorhubio"),
    )
    app = _app(v1_file, "ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert _rows(app)["argocd"][4] == "0.7.0", "the version: it fits beside INSTALLED"
        text = _text(app.screen.describe("argocd"))
        assert (
            "would resolve to: argocd-operator.v0.7.0 (0.7.0) from ClusterCatalog operatorhubio"
            in text
        )


async def test_ce_enter_opens_the_cluster_scoped_object_and_its_yaml(v1_file):
    app = _app(v1_file, "ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # rows by name: argocd first
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef("ClusterExtension", "", "argocd")
        related = app.screen.query_one("#related", VirtualTable)
        assert [c.plain if hasattr(c, "plain") else c for r in related.shown_rows for c in r.cells][
            1::2
        ] == ["ClusterCatalog operatorhubio", "ClusterCatalog team-catalog"]
        await pilot.press("y")
        await pilot.pause()
        assert "kind: ClusterExtension" in app.screen.query_one(YamlView).text


async def test_cc_rows_detail_and_extensions_selecting_it(v1_file):
    app = _app(v1_file, "cc")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ClusterCatalogsScreen)
        rows = _rows(app)
        assert rows["operatorhubio"][1:3] == ("yes", "0")
        assert rows["operatorhubio"][5] == "sha256:3cd8fde1dfd4"
        assert rows["operatorhubio"][4] == "argocd, broken, keycloak"
        assert rows["team-catalog"][1] == "✖ no"
        assert rows["team-catalog"][4] == "argocd, broken"
        assert rows["team-catalog"][3].startswith("▲")
        text = _text(app.screen.describe("team-catalog"))
        assert "Progressing True/Retrying: manifest unknown" in text
        assert "ClusterCatalogNotServing" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef("ClusterCatalog", "", "operatorhubio")


async def test_g_on_an_extension_draws_its_channel_with_installed_and_resolved(
    v1_file, monkeypatch
):
    monkeypatch.setattr(
        v1_resolve,
        "resolve_extension",
        _resolved("keycloak-operator.v19.0.0", "19.0.0", "operatorhubio"),
    )
    app = _app(v1_file, "ce", (KEYCLOAK,))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.table.select_key("keycloak")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ExtensionGraphScreen)
        assert screen.channel == "alpha"
        rows = _rows(app)
        assert "[installed]" in rows["keycloak-operator.v15.0.2"][3]
        assert "[resolves to]" in rows["keycloak-operator.v19.0.0"][3]
        info = _text(screen.query_one("#graph-info").content)
        assert (
            "ClusterExtension keycloak (ClusterCatalog operatorhubio): keycloak-operator.v15.0.2"
            " → keycloak-operator.v19.0.0 (19.0.0) from ClusterCatalog operatorhubio" in info
        )


async def test_g_on_an_extension_without_content_says_so(v1_file):
    app = _app(v1_file, "ce")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, ClusterExtensionsScreen)
        messages = [str(n.message) for n in app._notifications]
        wanted = "no catalog content given for ClusterCatalog operatorhubio"
        assert any(wanted in m for m in messages)


async def test_overview_counts_v1_beside_v0_only_with_v1_objects(v1_file):
    with_v1 = snapshot_session([v1_file], [], label="v1")
    assert (
        "OLM v1: 3 ClusterExtensions, 2 installed, 1 failing · 2 ClusterCatalogs, 1 serving, "
        "1 not serving" in metrics_text(with_v1).plain
    )
    assert "OLM v1" not in metrics_text(with_v1, "argocd").plain  # cluster-scoped: not per ns
    without = snapshot_session([SAMPLE], [], label="sample")
    assert "OLM v1" not in metrics_text(without).plain


async def test_csv_detail_lists_olm_v1_readiness_points():
    """R-V1-23: an installed CSV's detail ends with the heuristic checklist; a copy has none."""
    app = OlmApp(snapshot_session([SAMPLE], [], label="sample"))
    async with app.run_test(size=SIZE) as pilot:
        target = ObjectRef("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")
        app.open_object(target)
        await pilot.pause()
        text = _text(app.screen.query_one("#object-summary").content)
        assert "OLM v1 readiness (heuristic)" in text
        assert "R-V1-23" in text
        assert any(w in text for w in ("✓ ok: ", "▲ needs: ", "✖ blocks: "))
        copy = next(
            ObjectRef("ClusterServiceVersion", o["metadata"]["namespace"], o["metadata"]["name"])
            for o in app.session.store.list("ClusterServiceVersion")
            if (o["metadata"].get("labels") or {}).get("olm.copiedFrom")
        )
        app.open_object(copy)
        await pilot.pause()
        assert "OLM v1 readiness" not in _text(app.screen.query_one("#object-summary").content)


def test_v1_state_is_kept_while_only_v0_objects_move(v1_file):
    """The v1 records are rebuilt when a v1 object changes, not per model version: churning
    copied CSVs move the version on every refresh of a live cluster."""
    session = snapshot_session([v1_file], [KEYCLOAK], label="v1")
    first = session.analysis.v1_state()
    version = session.model.version
    csv = {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "ClusterServiceVersion",
        "metadata": {"name": "x.v1", "namespace": "team-a", "labels": {"olm.copiedFrom": "a"}},
        "status": {"phase": "Succeeded", "reason": "Copied"},
    }
    session.store.apply("ADDED", csv)
    session.model.csvs()
    assert session.model.version != version
    assert session.analysis.v1_state() is first
    extension = copy.deepcopy(session.store.get("ClusterExtension", "", "argocd"))
    extension["metadata"]["generation"] = 2
    session.store.apply("MODIFIED", extension)
    assert session.analysis.v1_state() is not first
