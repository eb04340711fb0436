"""``:ip`` and ``:xray`` on the azure must-gather (a Failed InstallPlan with steps and bundle
lookups, in a namespace with Manual Subscriptions; an operator with 64 copies)."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import wait_for
from data_paths import DATA
from rich.console import Console
from textual.widgets import Static, Tree

from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.installplans import InstallPlansScreen
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.xray import XrayScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

AZURE = str(DATA / "must-gather/must-gather-clean/must-gather-azure")
SIZE = (140, 45)
PLAN = ("cfe-test-namespace", "install-bfnbn")


def _app(view: str) -> OlmApp:
    return OlmApp(snapshot_session([AZURE], [], label="azure"), initial_view=view)


def _detail(app: OlmApp) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(app.screen.query_one("#detail", Static).content)
    return console.export_text()


def _lines(tree: Tree) -> list[tuple[str, str]]:
    """``(indent + label, style)`` of the visible nodes."""
    out: list[tuple[str, str]] = []

    def walk(node, depth: int) -> None:
        for child in node.children:
            out.append(("  " * depth + child.label.plain, str(child.label.style)))
            if child.is_expanded:
                walk(child, depth + 1)

    walk(tree.root, 0)
    return out


async def _goto(pilot, table: VirtualTable, key) -> None:
    while table.selected_key != key:
        await pilot.press("down")
    await pilot.pause()


async def test_ip_lists_the_failed_plan_and_details_its_steps_and_approval():
    app = _app("ip")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, InstallPlansScreen)
        table = app.screen.query_one("#table", VirtualTable)
        await _goto(pilot, table, PLAN)
        row = next(r for r in table.shown_rows if r.key == PLAN)
        assert [str(c) for c in row.cells] == [
            "cfe-test-namespace",
            "install-bfnbn",
            "✖ Failed",
            "Manual",
            "yes",
            "image-caching-operator.v0.0.1",
            "image-caching-operator-v0-0-1-sub",
            "2021-09-13 15:27",
        ]
        assert str(row.cells[1].style) == "olm.error"  # type: ignore[union-attr]
        text = " ".join(_detail(app).split())
        assert (
            "Manual: Manual Subscriptions in cfe-test-namespace: "
            "image-caching-operator-v0-0-1-sub, projectrequestlimits-v0-0-1-sub; one Manual "
            "Subscription makes every InstallPlan of its namespace Manual (R-SUB-4)"
        ) in text
        assert "approved (spec.approved is true)" in text
        assert "Steps (11)" in text
        assert (
            "resolving: image-caching-operator.v0.0.1 ClusterServiceVersion "
            "image-caching-operator.v0.0.1 Created"
        ) in text
        role = "image-caching-operator.v0.0.1-image-caching-operator-86998f54f6"
        assert f"Role {role} Unknown" in text
        assert (
            "image-caching-operator.v0.0.1 from cfe-test-namespace/image-caching-operator-catalog"
            ": quay.io/josefkarasek/image-caching-operator-bundle:v0.0.1"
        ) in text
        assert "Installed=False InstallComponentFailed" in text
        assert "error InstallPlanFailed (R-SUB-5)" in text
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef("InstallPlan", *PLAN)


async def test_x_on_a_subscription_shows_its_operator_tree_with_marks_and_lazy_copies():
    app = _app("sub")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        await _goto(pilot, table, ("cfe-test-namespace", "image-caching-operator-v0-0-1-sub"))
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, XrayScreen)
        tree = app.screen.query_one("#xray", Tree)
        lines = _lines(tree)
        assert lines[:4] == [
            (
                "✖ Subscription cfe-test-namespace/image-caching-operator-v0-0-1-sub: "
                "AtLatestKnown  [InstallPlanFailed]",
                "olm.error",
            ),
            ("  ✖ InstallPlan install-bfnbn: Failed", "olm.error"),
            (
                "    ✖ CSV image-caching-operator.v0.0.1: Pending (RequirementsNotMet)  "
                "[CSVPending]",
                "olm.error",
            ),
            ("      Deployments (1)", ""),
        ]
        copies = [i for i, (label, _) in enumerate(lines) if label.endswith("64 copies")]
        assert len(copies) == 1 and len(lines) == copies[0] + 1  # one count node, closed
        for _ in range(copies[0]):
            await pilot.press("down")
        await pilot.press("space")
        await pilot.pause()
        opened = _lines(tree)[copies[0] + 1 :]
        assert len(opened) == 64
        assert opened[0][0].strip().startswith("copy in ")
        # Enter on a node opens its object; Esc comes back to the tree
        await pilot.press("up", "up")
        await pilot.press("home")
        await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef("InstallPlan", *PLAN)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, XrayScreen)


@pytest.mark.parametrize("command", ["xray", "tree"])
async def test_xray_command_has_one_root_per_operator(command: str):
    app = _app("overview")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("colon", *command, "enter")
        await pilot.pause()
        assert isinstance(app.screen, XrayScreen)
        roots = [label for label, _ in _lines(app.screen.query_one("#xray", Tree))]
        assert roots == [
            "✖ Subscription cfe-test-namespace/image-caching-operator-v0-0-1-sub: "
            "AtLatestKnown  [InstallPlanFailed]",
            "✓ Subscription cfe-test-namespace/projectrequestlimits-v0-0-1-sub: AtLatestKnown",
            "✓ CSV openshift-operator-lifecycle-manager/packageserver: Succeeded (no Subscription)",
        ]


def test_x_on_a_copied_csv_stands_for_its_parent_operator():
    """R-COPY-1: a copy has no tree of its own; its X-ray is the parent's (olm.copiedFrom)."""
    from olmtui.ui.screens.xray import parent_of_copy

    session = snapshot_session([AZURE], [], label="azure")
    csv = "ClusterServiceVersion"
    copy = ObjectRef(csv, "openshift-config", "image-caching-operator.v0.0.1")
    assert session.store.get(csv, copy.namespace, copy.name) is not None
    assert parent_of_copy(session, copy) == ObjectRef(
        csv, "cfe-test-namespace", "image-caching-operator.v0.0.1"
    )
    parent = ObjectRef(csv, "cfe-test-namespace", "image-caching-operator.v0.0.1")
    assert parent_of_copy(session, parent) == parent


async def test_ip_ages_move_with_the_clock_alone():
    """On a session whose clock is now (live, the demo) an InstallPlan's age grows with no
    change to the cluster: the view rebuilds once its ages are AGE_STEP behind."""
    session = snapshot_session([AZURE], [], label="azure")
    plan = session.store.get("InstallPlan", *PLAN)
    assert plan is not None
    created = dt.datetime.fromisoformat(plan["metadata"]["creationTimestamp"])
    now = [created + dt.timedelta(minutes=5)]
    session.clock = lambda: now[0]
    app = OlmApp(session, initial_view="ip")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#table", VirtualTable)
        await _goto(pilot, table, PLAN)
        version = session.model.version

        def age() -> str:
            row = next(r for r in table.shown_rows if r.key == PLAN)
            return str(row.cells[-1])

        assert age() == "5m"
        now[0] += dt.timedelta(seconds=65)
        await wait_for(lambda: age() == "6m", "age() == '6m'", pilot=pilot)
        assert age() == "6m"
        now[0] += dt.timedelta(minutes=60)
        await wait_for(
            lambda: (age() == "1h") and (session.model.version == version),
            "age() == '1h'",
            pilot=pilot,
        )
        assert age() == "1h"
        assert session.model.version == version
