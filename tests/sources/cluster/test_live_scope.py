"""R-DOC-10 end to end: ``check --live --namespace`` as a user who may list nothing across
namespaces (403 at the cluster scope, namespaces too: each given one is fetched by name).

The cluster holds a Subscription whose CatalogSource is in openshift-marketplace, copies whose
parent is in openshift-operators, a group whose expected copy lives in team-c and a group in
team-ops labelling team-a: none of them was read, so none is reported missing. A real problem
inside team-a is still found. The snapshots are the triage cases ``scope-*``.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from data_paths import DATA
from report_records import validate_report

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.apiserver.resources import RESOURCES
from olmtui.cli import main

TRIAGE = DATA / "triage"
OUTSIDE = ["scope-catalogsource-outside", "scope-copy-parent-outside", "scope-label-drift-outside"]
FALSE_ALARMS = {
    "CatalogSourceMissing",
    "StaleCopiedCSV",
    "MissingCopiedCSV",
    "NamespaceLabelDrift",
    "TargetNamespaceMissing",  # team-c exists, but listing namespaces is forbidden
}


@contextlib.contextmanager
def served(cases: list[str], tmp_path: Path, *, limited: bool = True) -> Iterator[str]:
    """The cases' clusters on one loopback server that (``limited``) forbids listing anything,
    namespaces included, at the cluster scope; returns the kubeconfig path."""
    server = LoopbackAPIServer()
    for case in cases:
        with open(TRIAGE / case / "cluster.yaml", encoding="utf-8") as handle:
            server.state.load(list(yaml.safe_load_all(handle)), skip_unknown=True)
    for resource in RESOURCES if limited else ():
        if resource.namespaced or resource.plural == "namespaces":
            server.forbid(resource.plural, "", verbs=("list", "watch"))
    thread = run_in_thread(server)
    try:
        yield str(server.write_kubeconfig(tmp_path / "kubeconfig"))
    finally:
        thread.stop()


def check(kubeconfig: str, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", "--live", "--kubeconfig", kubeconfig, *args])
    return status, out.getvalue()


@pytest.mark.parametrize("case", OUTSIDE)
def test_nothing_outside_the_namespaces_read_is_reported_missing(case: str, tmp_path: Path):
    with served([case], tmp_path) as kubeconfig:
        status, text = check(kubeconfig, "--namespace", "team-a", "--output", "json")
    report = json.loads(text)
    validate_report(report)
    assert report["source"]["namespaces"] == ["team-a"]
    codes = {f["code"] for f in report["findings"]}
    assert not codes & FALSE_ALARMS, codes
    assert {f["code"] for f in report["findings"] if f["severity"] != "info"} == set()
    assert "NamespacesNotRead" in codes
    assert status == 0


def test_a_real_problem_inside_the_namespaces_read_is_still_found(tmp_path: Path):
    with served(["scope-real-problem-inside"], tmp_path) as kubeconfig:
        status, text = check(kubeconfig, "--namespace", "team-a", "--output", "json")
    report = json.loads(text)
    missing = [f for f in report["findings"] if f["code"] == "CatalogSourceMissing"]
    assert [(f["namespace"], f["name"]) for f in missing] == [("team-a", "internal-tool")]
    assert any(f["code"] == "NamespaceLabelDrift" for f in report["findings"])
    assert status == 1


def test_the_text_report_says_what_was_read(tmp_path: Path):
    with served(["scope-catalogsource-outside"], tmp_path) as kubeconfig:
        status, text = check(kubeconfig, "--namespace", "team-a", "--namespace", "team-b")
    assert "read: namespaces team-a, team-b only" in text.splitlines()[2]
    assert "CatalogSourceMissing" not in text
    assert status == 0


def test_a_cluster_wide_read_says_nothing_of_namespaces(tmp_path: Path):
    """Without --namespace (and with the right to list) everything is read: the field is
    null, no finding speaks of a scope, and the CatalogSource that is there is found."""
    with served(["scope-catalogsource-outside"], tmp_path, limited=False) as kubeconfig:
        status, text = check(kubeconfig, "--output", "json")
    report = json.loads(text)
    assert report["source"]["namespaces"] is None
    codes = {f["code"] for f in report["findings"]}
    assert not codes & {"NamespacesNotRead", "CatalogSourceMissing", "LiveNoAccess"}, codes
    assert status == 0
