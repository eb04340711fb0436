"""``olmtui check --output markdown``: the incident note on a real must-gather, the sample and
a snapshot with a pending upgrade whose names hold Markdown's active characters."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from data_paths import DATA, ROOT

from olmtui.cli import main
from olmtui.report.markdown_report import RULES_DOC, _fenced, md

AZURE = DATA / "must-gather/must-gather-clean/must-gather-azure"
ETCD = DATA / "catalogs" / "community-operators-prod" / "operators" / "etcd"

# A Subscription one hop behind the channel head; its name holds `|`, backticks and `*`.
PENDING = """\
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {namespace: db, name: "etcd|`rm -rf`*x*<b>"}
spec: {name: etcd, channel: clusterwide-alpha, source: community, sourceNamespace: olm}
status: {installedCSV: etcdoperator.v0.9.2-clusterwide, currentCSV: etcdoperator.v0.9.2-clusterwide}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {namespace: db, name: etcdoperator.v0.9.2-clusterwide}
spec: {version: 0.9.2-clusterwide, replaces: etcdoperator.v0.9.0}
"""


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", *argv])
    return status, out.getvalue()


def headings(note: str) -> list[str]:
    return [line for line in note.splitlines() if line.startswith("#")]


def test_markdown_on_a_must_gather_leads_with_the_failed_install_and_its_remedy() -> None:
    status, note = run(str(AZURE), "--output", "markdown")
    json_status, raw = run(str(AZURE), "--output", "json")
    report = json.loads(raw)
    assert status == json_status == 1  # exit status as for the other outputs
    titles = headings(note)
    assert titles[:4] == [
        "# OLM check: 2 errors",
        "## Summary",
        "## Incidents",
        "## Findings by object",
    ]
    # R-DIAG-3: one incident, the failed plan's, with the CSV it left folded under it
    incidents = note.split("## Incidents\n")[1].split("\n## ")[0]
    assert incidents.count("- **🔴 error**") == 1
    assert (
        "- **🔴 error** `InstallPlanFailed` on Subscription "
        "cfe-test-namespace/image-caching-operator-v0-0-1-sub: "
    ) in incidents
    assert (
        "  - follows: `CSVPending` on ClusterServiceVersion "
        "cfe-test-namespace/image-caching-operator.v0.0.1"
    ) in incidents
    source = note.split("\n")[2]
    assert "snapshot " in source and "newest object 2021-09-13 15:32 UTC; gather time" in source
    assert "| 2 | 0 | 4 |" in note
    # the error objects come first, the info-only ones after them
    objects = [t for t in titles if t.startswith("### ")]
    assert objects[:2] == [
        "### ClusterServiceVersion cfe-test-namespace/image-caching-operator.v0.0.1",
        "### Subscription cfe-test-namespace/image-caching-operator-v0-0-1-sub",
    ]
    failed = next(f for f in report["findings"] if f["code"] == "InstallPlanFailed")
    section = note.split(objects[1])[1].split("\n### ")[0]
    assert "**🔴 error** `InstallPlanFailed` (rule [R-SUB-5](docs/rules.md))" in section
    assert md(failed["message"]) in section  # the model's words, remedy included
    assert "Delete Subscription image-caching-operator-v0-0-1-sub" in section
    assert "## Pending upgrades" in titles
    assert "```mermaid" not in note  # nothing pending here


def test_markdown_on_the_sample_says_what_the_text_says() -> None:
    status, note = run("--sample", "--output", "markdown")
    _, raw = run("--sample", "--output", "json")
    report = json.loads(raw)
    assert status == 1
    counts = report["summary"]["findings"]
    assert headings(note)[0] == f"# OLM check: {counts['error']} errors"
    for finding in report["findings"]:
        assert md(finding["message"]) in note
    findings = note.split("## Findings by object\n")[1]
    assert findings.count("- **🔴 error**") == counts["error"]
    assert findings.count("- **🟠 warning**") == counts["warning"]
    assert findings.count("- **🔵 info**") == counts["info"]
    incidents = note.split("## Incidents\n")[1].split("\n## ")[0]
    by_incident = report["summary"]["incidents"]
    assert incidents.count("- **🔴 error**") == by_incident["error"]
    assert incidents.count("- **🟠 warning**") == by_incident["warning"]
    assert incidents.count("- **🔵 info**") == by_incident["info"]


def test_rule_links_point_at_the_rules_doc_and_its_ids() -> None:
    _, note = run("--sample", "--output", "markdown")
    rules = (ROOT / RULES_DOC).read_text("utf-8")
    linked = set(re.findall(r"\[(R-[A-Z0-9.-]+)\]\(docs/rules\.md\)", note))
    assert linked
    for rule in linked:
        assert f"### {rule}:" in rules


def test_markdown_draws_a_pending_upgrade_and_escapes_untrusted_names(tmp_path: Path) -> None:
    snapshot = tmp_path / "snapshot.yaml"
    snapshot.write_text(PENDING)
    _, note = run(str(snapshot), "--catalog", f"olm/community={ETCD}", "--output", "markdown")
    escaped = r"etcd\|\`rm -rf\`\*x\*\<b\>"
    assert (
        f"### Subscription db/{escaped}: etcdoperator.v0.9.2-clusterwide → "
        "etcdoperator.v0.9.4-clusterwide"
    ) in note
    assert "`rm -rf`" not in note and "<b>" not in note
    block = note.split("```mermaid\n")[1].split("\n```")[0]
    assert block.startswith("flowchart BT")
    assert '["0.9.4-clusterwide<br/>etcdoperator.v0.9.4-clusterwide"]' in block
    assert "-->|replaced by|" in block
    assert "class n1 installed" in block and "class n0 head" in block


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a|b", r"a\|b"),
        ("`code`", r"\`code\`"),
        ("*bold* _it_ ~x~", r"\*bold\* \_it\_ \~x\~"),
        ("<img src=x>", r"\<img src=x\>"),
        ("[link](http://x)", r"\[link\](http://x)"),
        ("&amp;", r"\&amp;"),
        ("- item", r"\- item"),
        ("1. item", r"1\. item"),
        ("# title", r"\# title"),
        ("two\nlines\x1b[31m", r"two lines\\x1b\[31m"),
    ],
)
def test_md_makes_untrusted_text_inert(text: str, shown: str) -> None:
    assert md(text) == shown


def test_a_backtick_run_in_a_mermaid_comment_cannot_close_the_fence() -> None:
    drawing = 'flowchart BT\n  %% error: bad ```\n  n0["x"]\n'
    assert "`" not in _fenced(drawing)


def test_long_lists_are_cut_with_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    from olmtui.report import markdown_report

    monkeypatch.setattr(markdown_report, "OBJECT_LIMIT", 1)
    _, note = run("--sample", "--output", "markdown")
    assert "- ... and 2 more\n" in note  # of the 3 error incidents in the summary
    assert "... and 10 more incidents" in note
    # one object heading among the findings (the Resolution section has its own, per namespace)
    findings = note.split("\n## Resolution\n")[0]
    assert len([t for t in headings(findings) if t.startswith("### ")]) == 1
    assert "more objects with findings (`olmtui check --output json` lists them all)" in note


def test_a_live_note_names_the_context_and_the_time_read() -> None:
    import datetime as dt

    from olmtui.report.markdown_report import render_markdown

    _, raw = run("--sample", "--output", "json")
    report = json.loads(raw)
    report["source"] = {**report["source"], "kind": "live", "namespaces": ["a|b"]}
    when = dt.datetime(2026, 11, 24, 15, 0, tzinfo=dt.UTC)
    note = render_markdown(report, label="prod*", when=when)
    assert (
        "Source: live cluster prod\\* (read at 2026-11-24 15:00:00 UTC), "
        "OpenShift version unknown, OLM version unknown."
    ) in note
    assert r"Only namespaces a\|b were read: elsewhere is unknown, not absent." in note
