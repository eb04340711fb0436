"""The demo end to end: the loopback server, the live watcher (real kubernetes-asyncio over
HTTP) and the script, with the model following every change; and ``olmtui demo --print``
as a user runs it."""

from __future__ import annotations

import html
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import wait_for

from olmtui.demo import scenario as s
from olmtui.demo.cluster import DemoCluster
from olmtui.model.viewmodels.metrics import seed_metrics
from olmtui.pipeline.build import demo_session, demo_status
from olmtui.store import Change
from olmtui.ui.app import OlmApp

CSV = "ClusterServiceVersion"


async def test_model_follows_the_script_through_the_live_watcher() -> None:
    """R-CSV phases of the new keycloak, the old one replaced and deleted, the Subscription
    moving (R-SUB-2) and the watcher counting the upgrade, all seen through watch events."""
    with DemoCluster(0.05, cycles=1) as demo:
        model = demo_session(demo).model
        new_phases: list[str] = []
        old_phases: list[str] = []
        installed: list[str] = []
        conflicts: set[str] = set()

        def follow(changes: list[Change]) -> None:
            for change in changes:
                key, obj = change.key, change.new
                if key.kind == CSV and key.namespace == s.TEAM_A_OPERATORS and obj:
                    phases = new_phases if key.name == s.KEYCLOAK_NEXT else old_phases
                    phase = (obj.get("status") or {}).get("phase")
                    if key.name in (s.KEYCLOAK_NEXT, s.KEYCLOAK_OLD) and (
                        not phases or phases[-1] != phase
                    ):
                        phases.append(phase)
                if (
                    key.kind == CSV
                    and change.type == "DELETED"
                    and key.name == s.KEYCLOAK_OLD
                    and key.namespace == s.TEAM_A_OPERATORS
                ):
                    old_phases.append("(deleted)")
                if (
                    key.kind == "Subscription"
                    and obj
                    and key.name == s.KEYCLOAK_SUB
                    and key.namespace == s.TEAM_A_OPERATORS
                ):
                    current = (obj.get("status") or {}).get("installedCSV")
                    if not installed or installed[-1] != current:
                        installed.append(current)
            conflicts.update(
                f"{f.namespace}/{f.name}"
                for f in model.findings()
                if f.code == "InterOperatorGroupOwnerConflict"
            )

        demo.store.subscribe(follow)
        metrics_during = []
        demo.on_step = lambda step: metrics_during.append(
            seed_metrics(demo.store, model, demo.upgrade_count).csv_upgrade_count
        )
        await demo.run()

    assert new_phases == ["Pending", "InstallReady", "Installing", "Succeeded"]
    # ... and after the rewind the old CSV is back, Succeeded.
    assert old_phases == ["Succeeded", "Replacing", "Deleting", "(deleted)", "Succeeded"]
    assert installed == [s.KEYCLOAK_OLD, s.KEYCLOAK_NEXT, s.KEYCLOAK_OLD]
    assert conflicts == {f"{s.TEAM_B_OPERATORS}/{s.ETCD}", f"{s.OPS_NS}/{s.ETCD}"}
    assert demo.upgrade_count >= 1
    assert max(metrics_during) >= 1
    # The rewind brought the start back: the old keycloak is installed again.
    assert demo.store.get(CSV, s.TEAM_A_OPERATORS, s.KEYCLOAK_OLD) is not None
    assert demo.store.get(CSV, s.TEAM_A_OPERATORS, s.KEYCLOAK_NEXT) is None


def test_demo_print_prints_changing_reports_and_exits_cleanly() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "olmtui", "demo", "--print", "--cycles", "1", "--speed", "fast"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    reports = [r for r in done.stdout.split("=== ") if r]
    assert len(reports) >= 3
    assert all(r.startswith("demo cluster (loopback 127.0.0.1:") for r in reports)
    bodies = [r.split("\n", 1)[1] for r in reports]
    assert len(set(bodies)) >= 3 and bodies[0] != bodies[1], "reports follow the changes"
    # The rewind restores the start; only the watcher's upgrade counter remembers the cycle.
    assert _without_metrics(bodies[-1]) == _without_metrics(bodies[0])
    assert "step 0/13: start" in reports[0] and "step 13/13" in reports[-1]
    # folded: the text report wraps its lines where their words fall
    assert "installed keycloak-operator.v26.6.2" in " ".join(bodies[0].split())
    assert any(
        "keycloak-operator.v26.6.3" in b and "keycloak-operator.v26.6.2" not in b for b in bodies
    ), "the upgrade lands"
    assert all(b.startswith("olmtui check: live cluster") for b in bodies)
    # the same findings as check and the screens: catalog health and upgrades included
    assert "CatalogSourceNotReady" in bodies[0] and "UpgradeAvailable" in bodies[0]


def _without_metrics(body: str) -> str:
    return "\n".join(line for line in body.splitlines() if not line.startswith("Metrics: "))


def test_demo_rejects_a_bad_speed_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "olmtui", "demo", "--speed", "soon"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("olmtui: --speed must be")
    assert len(done.stderr.splitlines()) == 1


def _screen_rows(svg: str) -> list[str]:
    """The text rows of an exported Textual screenshot."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, text in re.findall(r'<text[^>]*?x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(y), []).append((float(x), html.unescape(text)))
    return [
        "".join(t for _, t in sorted(row)).replace("\xa0", " ") for _, row in sorted(rows.items())
    ]


async def test_dashboard_runs_the_demo_as_its_live_source() -> None:
    """``olmtui demo`` without --print: the app runs the watcher and the script as its
    worker and the header names the demo cluster and the script's latest step."""
    with DemoCluster(0.05, cycles=1) as demo:
        session = demo_session(demo)
        # 180 columns: the header names the demo cluster's OpenShift version too (cluster_upgrade)
        app = OlmApp(session)
        async with app.run_test(size=(180, 40)) as pilot:
            await wait_for(lambda: demo.finished, "the demo's cycle done", pilot=pilot)
            await wait_for(
                lambda: "stopped" in _screen_rows(app.export_screenshot())[0],
                "the header saying the demo stopped",
                pilot=pilot,
            )
            rows = _screen_rows(app.export_screenshot())
    assert demo.finished and demo.steps_done == demo.steps_per_cycle
    assert demo.caught_up()
    header = rows[0]
    assert demo.label in header
    assert "stopped" in header and "the demo rewinds to the start" in header
    assert demo_status(demo).state == "stopped"


def test_demo_print_ends_cleanly_on_ctrl_c() -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "olmtui", "demo", "--print", "--speed", "fast"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert demo.stdout is not None
        first = demo.stdout.readline()
        assert first.startswith("=== demo cluster (loopback 127.0.0.1:")
        demo.send_signal(signal.SIGINT)
        _, err = demo.communicate(timeout=60)
    finally:
        if demo.poll() is None:
            demo.kill()
    assert demo.returncode == 130
    assert err == "", "no traceback, no warning"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_demo_print_ends_cleanly_when_killed_or_its_terminal_closes(
    tmp_path: Path,
    signum: int,
) -> None:
    """kill or a closed terminal unwind like Ctrl-C: exit 128 + the signal, no traceback,
    and the demo's temporary kubeconfig directory is gone."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "olmtui", "demo", "--print", "--speed", "fast"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    try:
        assert demo.stdout is not None
        assert demo.stdout.readline().startswith("=== demo cluster (loopback 127.0.0.1:")
        assert [p.name[:12] for p in tmp_path.iterdir()] == ["olmtui-demo-"]
        demo.send_signal(signum)
        _, err = demo.communicate(timeout=60)
    finally:
        if demo.poll() is None:
            demo.kill()
    assert demo.returncode == 128 + signum
    assert err == "", "no traceback, no warning"
    assert list(tmp_path.iterdir()) == []
