"""Context first: ``check`` says when the input was gathered, which versions it
shows and whether it is complete, grades ages at the gather time, and says nothing missing
from half an archive (R-SRC-1)."""

from __future__ import annotations

import contextlib
import io
import tarfile
from pathlib import Path

import yaml
from check_runs import MUST_GATHERS, check_json
from model_builders import clusterversion, csv, namespace, operator_group

from olmtui.cli import main

#: Codes that rest on absence, which half an archive made up (21 NamespaceLabelDrift
#: warnings from half of a real must-gather).
ABSENCE = {"NamespaceLabelDrift", "NoOperatorGroup", "StaticProvidedAPIs"}


def _tar(root: Path, into: Path) -> Path:
    """The must-gather as a tar, its OperatorGroups last (as a cut archive loses them)."""
    files = sorted(p for p in root.rglob("*") if p.is_file())
    ordered = [p for p in files if "operatorgroups" not in p.parts]
    ordered += [p for p in files if "operatorgroups" in p.parts]
    with tarfile.open(into, "w") as archive:
        for path in ordered:
            archive.add(path, arcname=str(path.relative_to(root.parent)))
    return into


def test_half_an_archive_says_nothing_missing_and_says_it_is_incomplete(tmp_path: Path):
    whole = _tar(MUST_GATHERS / "must-gather-aws", tmp_path / "mg.tar")
    status, report = check_json(whole)
    assert report["source"]["complete"] is True
    assert report["source"]["incompleteBecause"] == []
    data = whole.read_bytes()
    cut = tmp_path / "cut.tar"
    cut.write_bytes(data[: int(len(data) * 0.93)])  # the OperatorGroups are lost
    status, report = check_json(cut)
    codes = [f["code"] for f in report["findings"]]
    assert not ABSENCE & set(codes), codes
    assert "InputIncomplete" in codes
    assert report["source"]["complete"] is False
    assert report["source"]["incompleteBecause"] == [
        "the archive ends early: the files after the break are missing"
    ]
    assert status == 1  # the break itself is an error (R-SRC-1)


def _write(path: Path, *objs: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump_all(objs))


def _must_gather(root: Path, gathered: str | None) -> Path:
    """A must-gather of one namespace whose CSV has been Installing since 10:00."""
    image = root / "quay-io-must-gather-sha256-0"
    ns = image / "namespaces" / "team-a"
    group = operator_group("team-a", "og", targets=None)
    group["metadata"]["uid"] = "og-uid"
    _write(ns / "team-a.yaml", namespace("team-a"))
    _write(ns / "operators.coreos.com" / "operatorgroups" / "og.yaml", group)
    waiting = csv(
        "team-a",
        "op.v1",
        phase="Installing",
        reason="InstallWaiting",
        status={"lastTransitionTime": "2026-05-02T10:00:00Z"},
    )
    _write(ns / "operators.coreos.com" / "clusterserviceversions" / "op.yaml", waiting)
    cluster = image / "cluster-scoped-resources" / "config.openshift.io" / "clusterversions"
    _write(cluster / "version.yaml", clusterversion(("Completed", "4.16.3")))
    if gathered is not None:
        (root / "timestamp").write_text(
            f"{gathered} +0000 UTC m=+0.04\n{gathered} +0000 UTC m=+60.1\n"
        )
    return root


def test_ages_are_graded_at_the_gather_time(tmp_path: Path):
    """Installing for 45 minutes when gathered is an error (R-CSV-I: after 30); without the
    timestamp file the age is unknown past the CSV's own time (info)."""
    _, report = check_json(_must_gather(tmp_path / "a", "2026-05-02 10:45:00.123"))
    installing = [f for f in report["findings"] if f["code"] == "CSVInstalling"]
    assert [f["severity"] for f in installing] == ["error"]
    assert "for 45m 0s" in installing[0]["message"]
    assert report["source"]["gatheredAt"] == "2026-05-02T10:45:00Z"
    assert report["source"]["openshiftVersion"] == "4.16.3"
    _, undated = check_json(_must_gather(tmp_path / "b", None))
    assert undated["source"]["gatheredAt"] is None
    assert undated["source"]["newestObjectTime"] == "2026-05-02T10:00:00Z"
    assert [f["severity"] for f in undated["findings"] if f["code"] == "CSVInstalling"] == ["info"]


def _text(path: Path, *more: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", str(path), *more])
    return out.getvalue()


def test_line_one_says_when_which_versions_and_how_complete(tmp_path: Path):
    dated = _text(_must_gather(tmp_path / "a", "2026-05-02 10:45:00.123"))
    assert dated.splitlines()[0] == (
        "olmtui check: snapshot of 1 path, gathered 2026-05-02 10:45 UTC (must-gather "
        "timestamp), OpenShift 4.16.3, OLM version unknown"
    )
    undated = _text(_must_gather(tmp_path / "b", None))
    assert undated.splitlines()[0] == (
        "olmtui check: snapshot of 1 path, newest object 2026-05-02 10:00 UTC; gather time "
        "unknown, OpenShift 4.16.3, OLM version unknown"
    )
    note = _text(tmp_path / "a", "--output", "markdown")
    assert "(gathered 2026-05-02 10:45 UTC (must-gather timestamp)), OpenShift 4.16.3" in note


def test_an_unreadable_document_withholds_what_rests_on_its_kind(tmp_path: Path):
    """A broken OperatorGroup file: its namespace's CSV is not said to lack a group."""
    root = _must_gather(tmp_path / "a", None)
    group_file = next(root.rglob("og.yaml"))
    group_file.write_text("kind: OperatorGroup\nmetadata: {name: og\n")
    _, report = check_json(root)
    codes = {f["code"] for f in report["findings"]}
    assert "NoOperatorGroup" not in codes and "InputIncomplete" in codes
    assert report["source"]["incompleteBecause"] == [
        "1 unreadable document(s) skipped in 1 file(s) (of OperatorGroup)"
    ]
    line_one = _text(root).splitlines()[0]
    assert line_one.endswith(
        " — input incomplete: 1 unreadable document(s) skipped in 1 file(s) (of OperatorGroup)"
    )
