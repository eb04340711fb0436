"""Golden reports: what ``olmtui check --output json`` finds on real inputs, approved once, so
that no finding appears, disappears or changes severity without someone saying so.

Each golden file under ``tests/golden/`` holds the report reduced to what a finding is (its
code, the object it is about, its severity, its incident) and the summary's counts, findings
sorted (their order is presentation, not a finding). Messages are left out: their wording may
improve without a finding changing.

The inputs:

* ``must-gather-{aws,azure,metal,vsphere}``: the four real ``oc adm must-gather`` dumps of OCP
  4.8/4.9 CI clusters in ``tests/data/must-gather/must-gather-clean/``, from
  https://github.com/openshift/must-gather-clean (``test/files/``; see tests/data/SOURCES.md);
* ``sample``: ``olmtui check --sample``, the cluster shipped in ``olmtui/samples/cluster.yaml``.

When a change of findings is intended, re-approve with one line and review the diff of
``tests/golden/`` before committing it::

    OLMTUI_APPROVE=1 python3 -m pytest -q -p no:cacheprovider tests/contract/test_golden_reports.py
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from typing import Any

import pytest
from data_paths import DATA, TESTS

from olmtui.cli import main

GOLDEN = TESTS / "golden"
MUST_GATHERS = DATA / "must-gather/must-gather-clean"
#: Golden file stem -> the ``olmtui check`` arguments before ``--output json``.
INPUTS: dict[str, list[str]] = {
    **{
        f"must-gather-{dump}": [str(MUST_GATHERS / f"must-gather-{dump}")]
        for dump in ("aws", "azure", "metal", "vsphere")
    },
    "sample": ["--sample"],
}
#: Set to re-approve: the golden files are rewritten from what ``check`` says now.
APPROVE = os.environ.get("OLMTUI_APPROVE") == "1"


def finding_key(finding: dict[str, Any]) -> dict[str, str]:
    """What a finding is: its code, the object it is about, its severity, and the incident
    it belongs to (R-DIAG-9: a finding that follows from another names that one's)."""
    where = "/".join(part for part in (finding["namespace"], finding["name"]) if part)
    return {
        "code": finding["code"],
        "object": f"{finding['kind']} {where}".strip(),
        "severity": finding["severity"],
        "incident": finding["incident"],
    }


def reduced(status: int, report: dict[str, Any]) -> dict[str, Any]:
    """The report as its golden file holds it: exit status, summary counts (the metrics
    block is left out: it describes objects, not findings), findings sorted."""
    summary = {k: v for k, v in report["summary"].items() if k != "metrics"}
    findings = sorted(
        (finding_key(f) for f in report["findings"]),
        key=lambda f: (f["severity"], f["code"], f["object"]),
    )
    return {"exitStatus": status, "summary": summary, "findings": findings}


def rendered(golden: dict[str, Any]) -> str:
    """The golden file's text: one finding a line, so a review reads the diff line by line."""
    head = json.dumps(
        {"exitStatus": golden["exitStatus"], "summary": golden["summary"]},
        indent=2,
        sort_keys=True,
    )
    lines = ",\n".join(f"    {json.dumps(f, sort_keys=True)}" for f in golden["findings"])
    body = f'  "findings": [\n{lines}\n  ]' if lines else '  "findings": []'
    return f"{head[:-2]},\n{body}\n}}\n"


def check_now(args: list[str]) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", *args, "--output", "json"])
    assert status in (0, 1), f"check {args} exited {status}"
    return reduced(status, json.loads(out.getvalue()))


def changes(approved: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What differs, one line each: findings gone, findings new, counts changed."""
    said = [json.dumps(f, sort_keys=True) for f in approved["findings"]]
    says = [json.dumps(f, sort_keys=True) for f in now["findings"]]
    lines = [f"- {f}" for f in said if f not in says] + [f"+ {f}" for f in says if f not in said]
    if sorted(said) != sorted(says) and not lines:  # the same findings, counted differently
        lines.append(f"findings repeated differently: {len(said)} approved, {len(says)} now")
    for key in ("exitStatus", "summary"):
        if approved[key] != now[key]:
            lines.append(f"{key}: approved {approved[key]}, now {now[key]}")
    return lines


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_check_finds_what_was_approved(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    now = check_now(INPUTS[name])
    if APPROVE:
        path.write_text(rendered(now))
        return
    assert path.exists(), f"no golden report {path}: approve one (see this module's docstring)"
    approved = json.loads(path.read_text())
    assert path.read_text() == rendered(approved), f"{path} is not in its rendered form"
    diff = changes(approved, now)
    assert not diff, (
        f"`olmtui check {' '.join(INPUTS[name])}` no longer finds what was approved "
        f"({path.name}); if the change is intended, re-approve (OLMTUI_APPROVE=1, see "
        "tests/contract/test_golden_reports.py):\n" + "\n".join(diff)
    )


def test_every_golden_report_has_its_input() -> None:
    """A golden file whose input is gone would pass unnoticed forever."""
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(INPUTS)


def test_a_changed_finding_is_reported_line_by_line() -> None:
    approved = {
        "exitStatus": 1,
        "summary": {"csvs": 1},
        "findings": [
            {"code": "CSVFailed", "object": "ClusterServiceVersion a/x", "severity": "error"}
        ],
    }
    now = {
        "exitStatus": 1,
        "summary": {"csvs": 1},
        "findings": [
            {"code": "CSVFailed", "object": "ClusterServiceVersion a/x", "severity": "warning"}
        ],
    }
    assert changes(approved, now) == [
        '- {"code": "CSVFailed", "object": "ClusterServiceVersion a/x", "severity": "error"}',
        '+ {"code": "CSVFailed", "object": "ClusterServiceVersion a/x", "severity": "warning"}',
    ]
    assert changes(approved, approved) == []
    assert json.loads(rendered(now)) == now
