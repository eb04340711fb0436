"""``olmtui check --catalog``: channels and upgrade paths in the report, from real catalogs.

The sample's keycloak Subscription (team-b) sits at keycloak-operator.v15.0.2 on channel
``alpha``; the published community-operators-prod bundles say what comes next (R-UPG-2) and
the hops to the head (R-UPG-5).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from data_paths import DATA
from report_records import validate_report

from olmtui.cli import main

OPERATORS = DATA / "catalogs/community-operators-prod/operators"
COMMUNITY = "openshift-marketplace/community-operators"


def check(*args: str) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", *args, "--output", "json"])
    report = json.loads(out.getvalue())
    validate_report(report)
    return status, report


@pytest.fixture(scope="module")
def report() -> dict:
    status, found = check("--sample", "--catalog", f"{COMMUNITY}={OPERATORS}")
    assert status == 1
    return found


def subscription_in(report: dict, namespace: str, name: str) -> dict:
    (found,) = [
        s for s in report["subscriptions"] if (s["namespace"], s["name"]) == (namespace, name)
    ]
    return found


def test_r_upg_2_next_bundle_for_the_installed_keycloak(report: dict) -> None:
    upgrade = subscription_in(report, "team-b", "keycloak-operator")["upgrade"]
    assert upgrade["graph"] == "catalog"
    assert upgrade["next"] == "keycloak-operator.v15.1.0"
    assert upgrade["edges"][0] == {
        "from": "keycloak-operator.v15.0.2",
        "to": "keycloak-operator.v15.1.0",
        "via": "replaces",
    }


def test_r_upg_5_path_runs_from_next_to_the_channel_head(report: dict) -> None:
    upgrade = subscription_in(report, "team-b", "keycloak-operator")["upgrade"]
    assert upgrade["path"][0] == upgrade["next"]
    assert upgrade["path"][-1] == upgrade["head"]
    assert len(upgrade["edges"]) == len(upgrade["path"])


def test_installed_head_has_no_next(report: dict) -> None:
    upgrade = subscription_in(report, "team-a", "etcd")["upgrade"]
    assert upgrade["head"] == "etcdoperator.v0.9.4"
    assert upgrade["next"] is None and upgrade["path"] == []


def test_r_upg_1_channels_listed_sorted_with_their_order(report: dict) -> None:
    keys = [(c["catalog"] or "", c["package"], c["channel"]) for c in report["channels"]]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    (etcd,) = [
        c
        for c in report["channels"]
        if (c["package"], c["channel"]) == ("etcd", "singlenamespace-alpha")
    ]
    assert etcd["catalog"] == COMMUNITY
    assert etcd["order"][0] == etcd["head"] == "etcdoperator.v0.9.4"


def test_subscriptions_of_other_catalogs_stay_without_a_graph(report: dict) -> None:
    upgrade = subscription_in(report, "cfe-test-namespace", "image-caching-operator-v0-0-1-sub")[
        "upgrade"
    ]
    assert upgrade == {
        "graph": "none",
        "head": None,
        "next": None,
        "path": [],
        "edges": [],
        "decidedBy": "channel",
        "notHeadBecause": None,
    }


def test_without_catalog_there_are_no_channels() -> None:
    _, report = check("--sample")
    assert report["channels"] == []
    assert all(s["upgrade"]["graph"] == "none" for s in report["subscriptions"])


def test_missing_catalog_path_exits_2_with_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "olmtui",
            "check",
            "--sample",
            "--catalog",
            str(tmp_path / "nothing-here"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "nothing-here" in result.stderr
