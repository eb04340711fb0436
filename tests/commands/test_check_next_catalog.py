"""``olmtui check --next-catalog``: ``nextCatalog[]`` in the JSON report (schema-valid), the
findings with their advice, the text and Markdown sections, and a bad path refused in one
line; on the descheduler operator's real 4.21 and 4.22 catalogs (R-NXT-1 .. R-NXT-6)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml
from data_paths import DATA
from model_builders import csv, subscription
from report_records import validate_report

from olmtui.cli import main

PKG = "cluster-kube-descheduler-operator"
NS = "openshift-kube-descheduler-operator"
SOURCE = "openshift-marketplace/redhat-operators"
NOW = DATA / "next-catalog" / PKG / "v4.21"
NEXT = DATA / "next-catalog" / PKG / "v4.22"
INSTALLED = "clusterkubedescheduleroperator.v5.1.0"


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cluster on 4.21 whose descheduler sits at 5.1.0 on channel stable."""
    path = tmp_path_factory.mktemp("next") / "cluster.yaml"
    objects = [
        subscription(
            NS, PKG, package=PKG, channel="stable", source="redhat-operators", installed=INSTALLED
        ),
        csv(NS, INSTALLED, version="5.1.0"),
    ]
    path.write_text(yaml.safe_dump_all(objects))
    return path


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", *args])
    return status, out.getvalue()


def json_report(*args: str) -> dict:
    _, text = run(*args, "--output", "json")
    report = json.loads(text)
    validate_report(report)
    return report


def test_without_next_catalog_the_section_is_empty(snapshot: Path) -> None:
    assert json_report(str(snapshot))["nextCatalog"] == []


def test_r_nxt_3_no_edge_with_the_way_out_in_json(snapshot: Path) -> None:
    report = json_report(
        str(snapshot), "--catalog", f"{SOURCE}={NOW}", "--next-catalog", f"{SOURCE}={NEXT}"
    )
    (entry,) = report["nextCatalog"]
    assert entry["object"] == f"{NS}/{PKG}"
    assert (entry["package"], entry["channel"]) == (PKG, "stable")
    assert entry["inNext"] == {"package": True, "channel": True, "edgeFromInstalled": False}
    assert (
        "upgrade it within channel stable to clusterkubedescheduleroperator.v5.3.2"
        in (entry["advice"])
    )
    (finding,) = [f for f in report["findings"] if f["rule"] == "R-NXT-3"]
    assert finding["code"] == "NextCatalogNoUpgradeEdge"


def test_r_nxt_6_a_next_catalog_bound_elsewhere_judges_nothing(snapshot: Path) -> None:
    report = json_report(str(snapshot), "--next-catalog", f"openshift-marketplace/other={NEXT}")
    assert report["nextCatalog"] == []


def test_r_nxt_1_bound_catalog_without_the_package(snapshot: Path) -> None:
    other = DATA / "catalogs/community-operators-prod/catalogs/v4.20"
    report = json_report(str(snapshot), "--next-catalog", f"{SOURCE}={other}")
    (entry,) = report["nextCatalog"]
    assert entry["inNext"] == {"package": False, "channel": False, "edgeFromInstalled": False}
    assert "no path exists" in entry["advice"]


def test_text_and_markdown_sections(snapshot: Path) -> None:
    args = (str(snapshot), "--catalog", f"{SOURCE}={NOW}", "--next-catalog", str(NEXT))
    _, text = run(*args)
    words = " ".join(text.split())  # the text report wraps long lines
    assert "NEXT CATALOG" in text and f"{NS}/{PKG} ({PKG}, stable)" in words
    _, markdown = run(*args, "--output", "markdown")
    assert "## Next catalog" in markdown


def test_a_missing_next_catalog_path_is_one_line_exit_2(
    snapshot: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run(str(snapshot), "--next-catalog", "/nonexistent/next")
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("olmtui: --next-catalog /nonexistent/next") and err.count("\n") == 1


def test_before_a_sub_command_it_is_the_dashboards_and_refused(
    snapshot: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--next-catalog", str(NEXT), "check", str(snapshot)]) == 2
    assert "--next-catalog before `check` applies to the dashboard only" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "dest"),
    [
        (["replay", "x.yaml"], "next_catalogs"),
        (["explain", "ns", "x.yaml"], "next_catalogs"),
        ([], "dashboard_next_catalogs"),
    ],
    ids=["replay", "explain", "dashboard"],
)
def test_replay_explain_and_the_dashboard_take_it(argv: list[str], dest: str) -> None:
    from olmtui.cli import build_parser

    given = [f"{SOURCE}={NEXT}", str(NOW)]
    flags = [word for spec in given for word in ("--next-catalog", spec)]
    args = build_parser().parse_args([*flags, *argv] if not argv else [*argv, *flags])
    assert getattr(args, dest) == given
