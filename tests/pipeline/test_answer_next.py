"""One answer to "what installs next" (R-RES-17): with real catalog content where the
channel head requires a package no catalog provides (after OLM's
``TestSolveOperators_IgnoreUnsatisfiableDependencies``, resolver_test.go), ``check``'s JSON
and text, its findings, ``explain``, ``graph`` and the Subscriptions view all name the same
older bundle the resolver installs, and say why it is not the head; without catalog content
the channel decides and nothing is guessed."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from check_runs import run_check
from conftest import redrawn, wait_for
from data_paths import DATA
from report_records import validate_report
from rich.console import Console

from olmtui.cli import main
from olmtui.kinds import SUBSCRIPTION
from olmtui.model.records.types import ObjectRef, SubscriptionState, UpgradeInfo
from olmtui.model.rules.upgrades.decided import decided_subscriptions
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.graph import find_subscription
from olmtui.ui.screens.subscriptions import SubscriptionsScreen

CASE = DATA / "answer" / "held-back"
CLUSTER = str(CASE / "cluster.yaml")
CATALOG = f"olm/community={CASE / 'catalog-community.yaml'}"
OLDER, HEAD = "etcd.v0.9.2", "etcd.v0.9.4"
SIZE = (160, 40)


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def _subscriptions(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["namespace"]: s for s in report["subscriptions"]}


def test_check_json_takes_the_resolvers_pick_and_says_why_it_is_not_the_head() -> None:
    status, report = run_check([CLUSTER, "--catalog", CATALOG])
    validate_report(report)
    assert status == 0
    installs = {o["for"]: o["name"] for r in report["resolution"] for o in r["operators"]}
    for namespace, sub in _subscriptions(report).items():
        upgrade = sub["upgrade"]
        assert upgrade["head"] == HEAD
        assert upgrade["next"] == OLDER == installs[f"Subscription {namespace}/etcd"]
        assert upgrade["decidedBy"] == "resolver"
        assert upgrade["path"] == [OLDER]
        because = upgrade["notHeadBecause"]
        assert because is not None and "\n" not in because
        assert HEAD in because and "vault" in because and "no visible catalog" in because
    # no finding says OLM goes to the head next
    for finding in report["findings"]:
        assert f"picks {HEAD}" not in finding["message"], finding
    behind = [f for f in report["findings"] if f["code"] == "UpgradeAvailable"]
    assert len(behind) == 1 and OLDER in behind[0]["message"] and "vault" in behind[0]["message"]


def test_check_text_explain_and_graph_name_the_same_older_bundle() -> None:
    _, text = _run("check", CLUSTER, "--catalog", CATALOG)
    subs = text[text.index("SUBSCRIPTIONS") : text.index("RESOLUTION")]
    assert subs.count(f"next {OLDER}") == 2 and f"next {HEAD}" not in subs
    assert "vault" in subs
    status, explained = _run("explain", "installed/etcd", CLUSTER, "--catalog", CATALOG)
    assert status == 0
    assert f"picks {OLDER}, not {HEAD}" in " ".join(explained.split())
    assert "vault" in explained
    status, graph = _run("graph", "etcd", CLUSTER, "--catalog", CATALOG, "--format", "text")
    assert status == 0
    marked = [line for line in graph.splitlines() if "[next]" in line]
    assert len(marked) == 1 and marked[0].startswith(OLDER)
    assert f"next: {OLDER} (not the head:" in graph and "vault" in graph
    _, mermaid = _run("graph", "etcd", CLUSTER, "--catalog", CATALOG)
    assert "classDef next" in mermaid and " next\n" in mermaid
    _, markdown = _run("check", CLUSTER, "--catalog", CATALOG, "--output", "markdown")
    pending = markdown[markdown.index("## Pending upgrades") :]
    assert pending.count(f"→ {OLDER}") == 2 and f"→ {HEAD}" not in pending
    assert pending.count("Not the channel head:") == 2 and "vault" in pending


def test_without_catalog_content_the_channel_decides_and_nothing_is_guessed() -> None:
    _, report = run_check([CLUSTER])
    for sub in report["subscriptions"]:
        upgrade = sub["upgrade"]
        assert upgrade["decidedBy"] == "channel"
        assert (upgrade["head"], upgrade["next"], upgrade["notHeadBecause"]) == (None, None, None)


def test_channel_decided_next_that_is_not_the_head_says_why() -> None:
    """Without the resolver (PackageManifest-only content is not resolvable), a next bundle
    one hop short of the head is explained by the channel's edges (R-UPG-2)."""
    session = snapshot_session([CLUSTER], [CATALOG])
    channel = {s.namespace: s for s in session.analysis.decided_subscriptions([])}
    upgrade = channel["installed"].upgrade
    assert (upgrade.decided_by, upgrade.next, upgrade.not_head_because) == ("channel", HEAD, None)


async def test_the_subscriptions_view_shows_the_resolvers_pick_once_it_ran() -> None:
    session = snapshot_session([CLUSTER], [CATALOG], label=CASE.name)
    app = OlmApp(session, initial_view="subscriptions")
    async with app.run_test(size=SIZE) as pilot:

        def ran() -> bool:
            follower = session.analysis.predicted
            return follower is not None and follower.runs >= 1 and not follower._busy

        await wait_for(ran, "the resolver's first run", pilot=pilot)
        await redrawn(pilot)
        screen = app.screen
        assert isinstance(screen, SubscriptionsScreen)
        shown = {key: s.upgrade for key, s in screen._subs.items()}
        assert {u.next for u in shown.values()} == {OLDER}
        console = Console(width=400, record=True, file=io.StringIO())
        console.print(screen.describe(("installed", "etcd")))
        described = console.export_text()
        assert "OLM's resolver" in described and "vault" in described
        behind = session.analysis.behind_head()
        assert [s.upgrade.next for s in behind] == [OLDER]
        # the graph screen marks the same bundle "next"
        graphed = find_subscription(session, ObjectRef(SUBSCRIPTION, "installed", "etcd"))
        assert graphed is not None and graphed.upgrade.next == OLDER


#: The head's extra property that rules it out, and what the reason must name (OLM's
#: resolver_test.go: TestSolveOperators_WithoutDeprecated, TestSolveOperators_WithGVKDependencies).
RULED_OUT = [
    ("- type: olm.deprecated\n  value: {}\n", "deprecated"),
    (
        "- type: olm.gvk.required\n  value: {group: vault.example.com, kind: Vault, version: v1}\n",
        "Kind Vault",
    ),
]


@pytest.mark.parametrize(("prop", "named"), RULED_OUT)
def test_each_cause_that_rules_the_head_out_is_named(tmp_path: Path, prop: str, named: str) -> None:
    text = (CASE / "catalog-community.yaml").read_text()
    head_props = "  value: {packageName: etcd, version: 0.9.4}\n"
    # replace the head's package requirement by the property under test
    start = text.index(head_props) + len(head_props)
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(text[:start] + prop)
    _, report = run_check([CLUSTER, "--catalog", f"olm/community={catalog}"])
    for sub in report["subscriptions"]:
        upgrade = sub["upgrade"]
        assert (upgrade["next"], upgrade["decidedBy"]) == (OLDER, "resolver")
        assert named in upgrade["notHeadBecause"] and HEAD in upgrade["notHeadBecause"]


def _state(installed: str | None, upgrade: UpgradeInfo, starting: str | None = None):
    return SubscriptionState(
        "ns", "sub", "etcd", "alpha", "community", "olm", "Automatic", "Automatic",
        None, installed, installed, None, upgrade, starting,
    )  # fmt: skip


#: (installed, upgrade as the channel decides it, startingCSV, what notHeadBecause says or None)
CHANNEL_REASONS = [
    (None, UpgradeInfo("catalog", "v3", "v3", ("v3",)), None, None),
    (None, UpgradeInfo("catalog", "v3", "v1", ("v1", "v2", "v3")), "v1", "spec.startingCSV"),
    (None, UpgradeInfo("catalog", "v3", "v2", ("v2",)), None, "newest bundle of the channel"),
    ("v1", UpgradeInfo("catalog", "v3", "v2", ("v2", "v3")), None, "one hop at a time"),
    ("v1", UpgradeInfo("catalog", "v3", "v2", ("v2",)), None, "the path stops at v2"),
    ("v1", UpgradeInfo("catalog", "v3"), None, "no bundle of the channel"),
    ("v1", UpgradeInfo("packagemanifest", "v3"), None, "unknown: the head does not admit"),
    ("v3", UpgradeInfo("catalog", "v3"), None, None),
    ("v1", UpgradeInfo("none"), None, None),
]


@pytest.mark.parametrize(("installed", "upgrade", "starting", "says"), CHANNEL_REASONS)
def test_without_the_resolver_the_channel_says_why_next_is_not_the_head(
    installed: str | None, upgrade: UpgradeInfo, starting: str | None, says: str | None
) -> None:
    (decided,) = decided_subscriptions([_state(installed, upgrade, starting)], None)
    assert decided.upgrade.decided_by == "channel"
    because = decided.upgrade.not_head_because
    assert (because is None) if says is None else (because is not None and says in because)
