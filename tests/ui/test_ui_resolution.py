"""The Resolution view: what OLM's next resolution of a namespace yields, reached
with ``r`` from a Subscription or namespace, ``:res``, or Enter on a resolution finding;
resolved off the UI thread and again when the namespace's objects change."""

from __future__ import annotations

import io

import pytest
import yaml
from conftest import redrawn, settle, wait_for
from data_paths import DATA
from rich.console import Console
from textual.widgets import OptionList, Static

from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.resolution.concerns import subscription_operators
from olmtui.model.rules.resolution.result import NamespaceResolution, ResolvedOperator
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session
from olmtui.ui import completion
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.resolution import ResolutionScreen, resolved_lines
from olmtui.ui.widgets.virtual_table import VirtualTable

CASES = DATA / "resolution"
SIZE = (140, 40)


def _session(case: str, catalogs: bool = True) -> Session:
    here = CASES / case
    specs = []
    if catalogs:
        expect = yaml.safe_load((here / "expect.yaml").read_text())
        for spec in expect.get("catalogs") or ():
            ref, _, path = spec.partition("=")
            specs.append(f"{ref}={here / path}")
    return snapshot_session([str(here / "cluster.yaml")], specs, label=case)


def _plain(renderable: object) -> str:
    console = Console(width=300, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


async def _resolved(pilot, app: OlmApp) -> ResolutionScreen:
    """Wait for the view's worker to deliver a result."""

    def shown() -> bool:
        screen = app.screen
        return (
            isinstance(screen, ResolutionScreen) and screen.result is not None and not screen._busy
        )

    await wait_for(shown, "a resolution shown", pilot=pilot)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ResolutionScreen)
    return screen


def _status(app: OlmApp) -> str:
    return _plain(app.screen.query_one("#resolution-status", Static).content).strip()


def _options(app: OlmApp) -> list[str]:
    view = app.screen.query_one("#resolution-lines", OptionList)
    return [_plain(view.get_option_at_index(i).prompt).rstrip() for i in range(view.option_count)]


def _lines(app: OlmApp) -> list[str]:
    """The view's lines (an option may hold several)."""
    return [line.rstrip() for option in _options(app) for line in option.splitlines()]


async def test_r_on_a_subscription_row_explains_the_orphan_cause_first_with_its_fix():
    app = OlmApp(_session("orphaned-csv-blocks-package"), initial_view="sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        assert table.selected_key == ("team", "etcd")
        await pilot.press("r")
        screen = await _resolved(pilot, app)
        assert screen.subscription == "team/etcd"
        assert _status(app).startswith("✖ cannot be satisfied  namespace team:")
        lines = _lines(app)
        assert lines[0].startswith("Why: 4 constraints that cannot all hold")
        assert "1. @existing/team//etcdoperator.v0.9.4" in lines[1]
        text = "\n".join(lines)
        assert (
            "fix: delete the orphaned ClusterServiceVersion team/etcdoperator.v0.9.4 "
            "(its operands stay)"
        ) in text
        assert lines[1].startswith("» 1.")  # it names the Subscription's candidates
        assert lines.index(next(x for x in lines if "3. clusterserviceversion" in x)) > 1
        # Enter on a line naming an object opens it
        view = app.screen.query_one("#resolution-lines", OptionList)
        options = _options(app)
        view.highlighted = next(i for i, x in enumerate(options) if x.strip().startswith("Cluster"))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef(
            "ClusterServiceVersion", "team", "etcdoperator.v0.9.4"
        )
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ResolutionScreen)


async def test_res_command_lists_what_the_next_installplan_would_install():
    app = OlmApp(_session("upgrade-replaces-skiprange"), initial_view="overview")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(":", *"res team", "enter")
        screen = await _resolved(pilot, app)
        assert (screen.namespace, screen.subscription) == ("team", None)
        assert _status(app) == (
            "✓ resolved  namespace team: the next InstallPlan would install 1 bundle"
        )
        assert _lines(app) == [
            "Next InstallPlan would install (1)",
            "app.v1.2.0  package app, channel stable, from openshift-marketplace/company-catalog",
            "    upgrades app.v1.0.0; there for: Subscription team/app",
        ]


def test_res_completes_namespaces():
    assert completion.candidates("re", ["overview"]) == ["res"]
    assert completion.candidates("res t", ["overview"], ["team", "other"]) == ["res team"]


async def test_enter_on_a_resolution_finding_opens_its_namespace(monkeypatch):
    session = _session("orphaned-csv-blocks-package")
    finding = Finding(
        "warning",
        "ResolutionWouldFail",
        "Namespace",
        "",
        "team",
        "OLM cannot resolve namespace team",
        "R-RES-18",
    )
    found = list(session.analysis.all_findings())
    monkeypatch.setattr(session.analysis, "all_findings", lambda: [finding, *found])
    app = OlmApp(session, initial_view="findings")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"ResolutionWouldFail", "enter")
        await pilot.pause()
        await pilot.press("enter")
        screen = await _resolved(pilot, app)
        assert (screen.namespace, screen.subscription) == ("team", None)
        assert _status(app).startswith("✖ cannot be satisfied")
        assert not _lines(app)[1].startswith("»")  # about the namespace: nothing marked


async def test_not_evaluated_without_catalog_content_says_how_to_give_it():
    app = OlmApp(_session("upgrade-replaces-skiprange", catalogs=False), initial_view="ns")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"team", "enter")
        await pilot.pause()
        await pilot.press("r")
        await _resolved(pilot, app)
        assert _status(app).startswith("● not evaluated  namespace team:")
        assert _lines(app) == [
            "Why olmtui cannot tell",
            "  no catalog content for CatalogSource openshift-marketplace/company-catalog",
            "  start olmtui with --catalog NS/NAME=PATH (the CatalogSource's content: an FBC, "
            "bundle directories or a package tree) to resolve it",
        ]


async def test_stopped_shows_olms_error_from_the_subscription_detail():
    app = OlmApp(_session("no-operatorgroup"), initial_view="sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        sub = app.screen.selected_ref()
        assert sub is not None and sub.kind == "Subscription"
        app.open_object(sub)
        await pilot.pause()
        await pilot.press("r")
        screen = await _resolved(pilot, app)
        assert screen.subscription == f"{sub.namespace}/{sub.name}"
        assert _status(app).startswith("▲ stopped  namespace team:")
        assert _lines(app)[1] == "  expected 1 OperatorGroup in the namespace, found 0"
        note = _plain(app.screen.query_one("#resolution-note", Static).content)
        assert "OLM resolves namespace team as a whole" in " ".join(note.split())


async def test_the_view_follows_the_namespace_live():
    """Deleting the orphaned CSV unblocks the package: the view says what would install."""
    session = _session("orphaned-csv-blocks-package")
    app = OlmApp(session, initial_view="overview")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.show_resolution("team", "etcd")
        await _resolved(pilot, app)
        assert _status(app).startswith("✖ cannot be satisfied")
        csv = session.store.get("ClusterServiceVersion", "team", "etcdoperator.v0.9.4")
        assert csv is not None
        session.store.apply("DELETED", csv)
        await wait_for(lambda: _status(app).startswith("✓"), "resolved again", pilot=pilot)
        assert _status(app) == (
            "✓ resolved  namespace team: the next InstallPlan would install 1 bundle"
        )
        lines = _lines(app)
        assert lines[1].startswith("» etcdoperator.v0.9.4  package etcd, channel alpha")
        assert lines[2] == (
            "      a new install (its channel entry replaces etcdoperator.v0.9.2, not installed "
            "here); there for: Subscription team/etcd"
        )


async def test_an_unrelated_change_does_not_resolve_again():
    session = _session("orphaned-csv-blocks-package")
    app = OlmApp(session, initial_view="overview")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.show_resolution("team")
        screen = await _resolved(pilot, app)
        first = screen.result
        namespace = session.store.get("Namespace", "", "openshift-marketplace")
        assert namespace is not None
        session.store.apply(
            "MODIFIED", {**namespace, "metadata": {**namespace["metadata"], "labels": {"x": "y"}}}
        )
        await redrawn(pilot)  # the screen refreshed for the change: a run would start there
        assert not screen._busy and screen.result is first


@pytest.mark.parametrize("view", ["sub", "ns"])
async def test_r_is_in_the_footer(view: str):
    app = OlmApp(_session("upgrade-replaces-skiprange"), initial_view=view)
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        keys = {b.key for _, b, _, _ in app.screen.active_bindings.values() if b.show}
        assert "r" in keys


def test_catalog_content_is_made_once_per_catalog_list():
    """Every resolution of the session shares one content (its snapshots are the slow
    part); a new catalog list (PackageManifests moved) gets a new one."""
    session = _session("upgrade-replaces-skiprange")
    content = session.analysis.resolution_content()
    assert session.analysis.resolution_content() is content
    assert session.analysis.resolution_inputs("team").content is content
    assert session.analysis.resolution_inputs("team").same_as(
        session.analysis.resolution_inputs("team")
    )
    listed = session.catalogs()
    session.catalogs = lambda: list(listed)
    assert session.analysis.resolution_content() is not content


def test_a_subscriptions_lines_follow_its_dependencies_and_kept_operators_are_listed():
    ops = (
        ResolvedOperator("app.v2", "app", "stable", "m/cat", "app.v1", "Subscription team/app"),
        ResolvedOperator("db.v2", "db", "stable", "m/cat", None, "dependency of app.v2"),
        ResolvedOperator("cache.v1", "cache", "", "m/cat", None, "dependency of db.v2"),
        ResolvedOperator("other.v1", "other", "a", "@existing", None, "existing"),
    )
    result = NamespaceResolution(
        "team", "resolved", operators=ops, changes=("app.v2", "cache.v1", "db.v2")
    )
    assert subscription_operators(result, "team/app") == {"app.v2", "db.v2", "cache.v1"}
    lines = resolved_lines(result, "team/app", frozenset({"app.v1", "other.v1"}))
    text = [(_plain(line.prompt()).rstrip(), line.target) for line in lines]
    sub = ObjectRef("Subscription", "team", "app")
    assert text == [
        ("Next InstallPlan would install (3)", None),
        ("» app.v2  package app, channel stable, from m/cat", sub),
        ("      upgrades app.v1; there for: Subscription team/app", sub),
        ("» db.v2  package db, channel stable, from m/cat", None),
        ("      a new install; there for: dependency of app.v2", None),
        ("» cache.v1  package cache, channel (default), from m/cat", None),
        ("      a new install; there for: dependency of db.v2", None),
        ("Kept as they are (1)", None),
        (
            "  other.v1  package other, channel a, from @existing",
            ObjectRef("ClusterServiceVersion", "team", "other.v1"),
        ),
    ]
