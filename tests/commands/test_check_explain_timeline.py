"""R-EVD-11 in the reports: ``check --output markdown`` gives each incident a short timeline
(at most 10 entries, relative to the must-gather's gather time, cluster text made inert), the
JSON carries none (the contract has no timeline), and ``explain NAMESPACE`` ends with the
namespace's (at most 15 entries)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import yaml
from data_paths import DATA
from model_builders import (
    catalog_source,
    cluster_event,
    failed_plan,
    install_plan,
    namespace,
    operator_group,
    subscription,
)

from olmtui.cli import main

AZURE = DATA / "must-gather/must-gather-clean/must-gather-azure"
NS = "team-a"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def _write(path: Path, *objs: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump_all(objs))


def _must_gather(root: Path, events: int = 1) -> Path:
    """A must-gather of one namespace: a Subscription whose first InstallPlan failed on a
    Role, a second plan, ``events`` Warning Events on the Subscription (the first one's
    message full of Markdown), gathered at 16:00."""
    image = root / "quay-io-must-gather-sha256-0"
    ns = image / "namespaces" / NS
    sub = subscription(NS, "etcd", plan="install-a")
    sub["metadata"]["creationTimestamp"] = "2026-05-01T15:27:00Z"
    plan_a = failed_plan(
        NS, "install-a", ["etcd.v1"], message="error creating Role", created="2026-05-01T15:27:22Z"
    )
    plan_a["status"]["conditions"][0]["lastTransitionTime"] = "2026-05-01T15:28:43Z"
    plan_b = install_plan(NS, "install-b", "Installing", True, created="2026-05-01T15:29:59Z")
    _write(ns / f"{NS}.yaml", namespace(NS))
    _write(ns / "operators.coreos.com" / "operatorgroups" / "og.yaml", operator_group(NS, "og"))
    marketplace = image / "namespaces" / "openshift-marketplace" / "operators.coreos.com"
    _write(marketplace / "catalogsources" / "cat.yaml", catalog_source("openshift-marketplace"))
    _write(ns / "operators.coreos.com" / "subscriptions" / "etcd.yaml", sub)
    _write(ns / "operators.coreos.com" / "installplans" / "install-a.yaml", plan_a)
    _write(ns / "operators.coreos.com" / "installplans" / "install-b.yaml", plan_b)
    items = [
        cluster_event(
            NS,
            f"etcd.{i}",
            kind="Subscription",
            obj_name="etcd",
            reason="InstallPlanFailed",
            message="see [x](http://evil) `rm -rf` <b>|\x1b[31m" if i == 0 else f"retry {i}",
            last=f"2026-05-01T15:{30 + i:02}:00Z",
        )
        for i in range(events)
    ]
    _write(ns / "core" / "events.yaml", {"apiVersion": "v1", "kind": "EventList", "items": items})
    (root / "timestamp").write_text(
        "2026-05-01 16:00:00.1 +0000 UTC m=+0.04\n2026-05-01 16:00:00.1 +0000 UTC m=+60.1\n"
    )
    return root


def _timeline_of(note: str, code: str) -> list[str]:
    """The timeline lines under the incident whose root has ``code``."""
    lines = note.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("- **") and f"`{code}`" in line
    )
    out, inside = [], False
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        if line.startswith("  - timeline"):
            inside = True
            out.append(line)
        elif inside and line.startswith("    - "):
            out.append(line)
    return out


def test_markdown_gives_the_failed_plan_incident_its_story_in_order(tmp_path: Path) -> None:
    _, note = run("check", str(_must_gather(tmp_path / "mg")), "--output", "markdown")
    timeline = _timeline_of(note, "InstallPlanFailed")
    assert timeline[0] == (
        "  - timeline (times in UTC, relative to the gather time (2026-05-01 16:00:00 UTC)):"
    )
    assert timeline[1] == (
        "    - 2026-05-01 15:27:00 (33m 0s before) Subscription team-a/etcd: created"
    )
    assert "15:27:22 (32m 38s before) InstallPlan team-a/install-a: created" in timeline[2]
    assert "15:28:43" in timeline[3] and "Installed=False (InstallComponentFailed)" in timeline[3]
    # the Event's message is cluster text: nothing in it may act as Markdown
    assert "\\[x\\](http://evil) \\`rm -rf\\` \\<b\\>\\|" in timeline[4]
    assert "\x1b" not in note
    # the second plan is no object of this incident: not in its timeline
    assert len(timeline) == 5


def test_markdown_keeps_the_newest_ten_and_counts_the_earlier(tmp_path: Path) -> None:
    _, note = run("check", str(_must_gather(tmp_path / "mg", events=14)), "--output", "markdown")
    timeline = _timeline_of(note, "InstallPlanFailed")
    entries = [line for line in timeline[1:] if not line.startswith("    - … ")]
    assert len(entries) == 10
    assert timeline[1] == "    - … 7 earlier"  # 3 times of its objects and 14 Events
    assert entries[-1].endswith("InstallPlanFailed: retry 13")


def test_the_json_report_carries_no_timeline(tmp_path: Path) -> None:
    _, raw = run("check", str(_must_gather(tmp_path / "mg")), "--output", "json")
    assert "timeline" not in raw.lower()
    assert json.loads(raw)["incidents"]


def test_markdown_on_a_real_must_gather_tells_the_two_plans_story() -> None:
    """The issue's story, from the Azure CI must-gather: 15:27:22 plan created · 15:28:43
    Role failed (then the CSV left Pending); no timestamp file: UTC times, nothing relative."""
    _, note = run("check", str(AZURE), "--output", "markdown")
    timeline = _timeline_of(note, "InstallPlanFailed")
    assert timeline[0] == "  - timeline (times in UTC):"
    said = "\n".join(timeline)
    assert said.index(
        "15:27:22 InstallPlan cfe-test-namespace/install-bfnbn: created"
    ) < said.index("15:28:43 InstallPlan cfe-test-namespace/install-bfnbn: Installed=False")
    assert "error creating role" in said
    assert all(len([t for t in _timeline_of(note, c)[1:]]) <= 10 for c in ("InstallPlanFailed",))


def test_explain_ends_with_the_namespace_timeline(tmp_path: Path) -> None:
    _, out = run("explain", NS, str(_must_gather(tmp_path / "mg", events=14)))
    tail = out[out.index("what happened in namespace team-a") :].splitlines()
    heading = tail.index("UTC)):")  # the heading is wrapped at 100 columns
    assert " ".join(tail[: heading + 1]) == (
        "what happened in namespace team-a (times in UTC, relative to the gather time "
        "(2026-05-01 16:00:00 UTC)):"
    )
    tail = tail[heading:]
    assert tail[1] == "  … 3 earlier"  # 18 entries, the newest 15 shown
    assert tail[2] == "  2 without a time, not placed"  # the Namespace and the group
    shown = [line for line in tail[3:] if not line.startswith(" " * 23)]  # wrapped lines
    assert len(shown) == 15
    assert (
        shown[0] == "  2026-05-01 15:29:59  (30m 1s before)  InstallPlan team-a/install-b: created"
    )
    last = " ".join(line.strip() for line in tail[-2:])  # the newest, wrapped
    assert last.endswith("Subscription team-a/etcd: Warning InstallPlanFailed: retry 13")
    assert out.endswith("13\n")
    assert "\x1b" not in out and "\\x1b[31m" in out  # shown as an escape, never obeyed


def test_explain_on_the_sample_ends_with_its_timeline() -> None:
    _, out = run("explain", "team-a", "--sample")
    assert "what happened in namespace team-a (times in UTC" in out
