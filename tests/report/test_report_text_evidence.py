"""R-EVD-10 in ``olmtui check`` text: under each incident's root, the few evidence lines that
prove it (its fields, status before spec, then its newest Events, then its newest log lines),
each kind capped with a count of what is left and where to see it all; escaped, cut to the
terminal's width on a terminal and never when piped."""

from __future__ import annotations

import contextlib
import io
import shutil
from typing import Any

import pytest
from data_paths import DATA
from report_records import build_model, build_report

from olmtui.cli import main
from olmtui.model.records.types import EventEvidence, FieldEvidence, Finding, LogEvidence
from olmtui.report import render_text
from olmtui.report.evidence_text import (
    EVENTS_SHOWN,
    FIELDS_SHOWN,
    LOG_LINES_SHOWN,
    cut,
    evidence_lines,
)

MUST_GATHER = DATA / "logs" / "must-gather-logs"
CSV = "ClusterServiceVersion"


def _text(*evidence: Any, width: int | None = None) -> str:
    finding = Finding("error", "CSVFailed", CSV, "ns", "a.v1", "it failed", evidence=evidence)
    return render_text(build_report(build_model([finding])), width=width)


def _block(text: str) -> list[str]:
    """The evidence lines under the one root finding."""
    lines = text.split("  CSVFailed  ", 1)[1].splitlines()
    start = lines.index("      evidence:")
    block = []
    for line in lines[start + 1 :]:
        if not line.startswith("        "):
            break
        block.append(line.strip())
    return block


def _check_text(stdout: io.StringIO) -> str:
    with contextlib.redirect_stdout(stdout):
        assert main(["check", str(MUST_GATHER)]) == 1
    return stdout.getvalue()


def test_a_must_gather_root_shows_its_fields_newest_events_and_log_lines() -> None:
    text = _check_text(io.StringIO())
    root = text.split("  CSVFailed  ClusterServiceVersion openshift-operators/", 1)[1]
    assert _block("  CSVFailed  " + root) == [
        "field  .status.phase = Failed",
        "field  .status.reason = InstallCheckFailed",
        "field  .status.message = install timeout",
        "event  2026-11-28T11:25:00Z            Warning InstallCheckFailed: install timeout",
        "event  2026-11-28T11:22:00Z            Normal InstallWaiting (×3): installing: waiting "
        "for deployment etcd-operator to become ready",
        "log    2026-11-28T11:25:00.400000000Z  olm-operator-5f9c7d8b6-x2x4z/olm-operator: "
        'time="2026-11-28T11:25:00Z" level=warning msg="install timed out" '
        "csv=etcdoperator.v0.9.4 id=Xr4tT namespace=openshift-operators phase=Installing",
        "log    2026-11-28T11:25:00.500000000Z  olm-operator-5f9c7d8b6-x2x4z/olm-operator: "
        "E1128 11:25:00.500000 1 queueinformer_operator.go:319] sync "
        '{"update" "openshift-operators/etcdoperator.v0.9.4"} failed: install timeout',
        "... and 2 more (all of it: --output json, or the dashboard's Findings detail)",
    ]
    # a Subscription's root shows its catalog-operator line too
    sub = text.split("  CatalogSourceMissing  Subscription openshift-operators/etcd", 1)[1]
    assert "log    2026-11-28T11:19:02.300000000Z  catalog-operator-" in sub.split("Remedy")[0]


def test_each_evidence_type_prints_on_its_line_another_object_named() -> None:
    block = _block(
        _text(
            FieldEvidence(CSV, "ns", "a.v1", "status.phase", "Failed"),
            FieldEvidence("Pod", "ns", "p-1", "status.containerStatuses[0].waiting", "OOMKilled"),
            EventEvidence(CSV, "ns", "a.v1", "BackOff", "restarting", "Warning", 7, "2026-01-01T00:00:00Z"),  # noqa: E501
            LogEvidence("olm-operator-1", "olm-operator", "2026-01-01T00:00:01Z", "error", "boom"),
        )
    )  # fmt: skip
    assert block == [
        "field  .status.phase = Failed",
        "field  Pod ns/p-1 .status.containerStatuses[0].waiting = OOMKilled",
        "event  2026-01-01T00:00:00Z  Warning BackOff (×7): restarting",
        "log    2026-01-01T00:00:01Z  olm-operator-1/olm-operator: boom",
    ]


def test_each_kind_is_capped_newest_first_with_a_count_of_the_rest() -> None:
    fields = [FieldEvidence(CSV, "ns", "a.v1", "spec.replaces", "a.v0")] + [
        FieldEvidence(CSV, "ns", "a.v1", f"status.f{i}", str(i)) for i in range(4)
    ]
    events = [
        EventEvidence(CSV, "ns", "a.v1", f"R{i}", "m", "Warning", 1, f"2026-01-01T00:00:0{i}Z")
        for i in (3, 1, 4, 2)
    ]
    logs = [LogEvidence("p", "c", f"2026-01-01T00:00:0{i}Z", "", f"line {i}") for i in range(5)]
    block = _block(_text(*fields, *events, *logs))
    assert len(block) == FIELDS_SHOWN + EVENTS_SHOWN + LOG_LINES_SHOWN + 1
    # the status fields before the spec field, in their order
    assert block[:3] == ["field  .status.f0 = 0", "field  .status.f1 = 1", "field  .status.f2 = 2"]
    assert [line.split()[2] for line in block[3:5]] == ["Warning", "Warning"]
    assert [line.split()[1] for line in block[3:5]] == [
        "2026-01-01T00:00:04Z",
        "2026-01-01T00:00:03Z",
    ]
    # the newest log lines, read in time order
    assert [line.rsplit(": ", 1)[1] for line in block[5:7]] == ["line 3", "line 4"]
    left = len(fields) + len(events) + len(logs) - 7
    assert block[7].startswith(f"... and {left} more (all of it: --output json")


def test_a_finding_without_field_events_or_logs_shows_no_evidence_heading() -> None:
    assert "evidence:" not in _text()


def test_untrusted_evidence_stays_data() -> None:
    text = _text(
        EventEvidence(CSV, "ns", "a.v1", "Bad\x1b[2J", "[bold red]x[/]\r\nmore", "Warning", 1, ""),
        LogEvidence("p\x1b]0;t\x07", "c", "", "", "line \x1b[31mred"),
    )
    block = _block(text)
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert block[0] == "event  (no time)  Warning Bad\\x1b[2J: [bold red]x[/] more"
    assert block[1] == "log    (no time)  p\\x1b]0;t\\x07/c: line \\x1b[31mred"


def test_on_a_terminal_no_evidence_line_is_wider_than_it_and_piped_none_is_cut() -> None:
    long = FieldEvidence(CSV, "ns", "a.v1", "status.message", "x" * 300)
    assert _block(_text(long))[0] == "field  .status.message = " + "x" * 300
    narrow = _text(long, width=60)
    assert narrow.count("  field  .status.message = xxx") == 1
    line = next(line for line in narrow.splitlines() if "status.message" in line)
    assert len(line) == 60 and line.endswith("x…")


def test_cut_counts_wide_characters_as_two_cells() -> None:
    assert cut("日本語のテキスト", 7) == "日本語…"
    assert cut("short", 80) == "short"
    assert cut("x" * 200, None) == "x" * 200


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_check_cuts_evidence_to_the_terminal_s_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: shutil.os.terminal_size((72, 24)))
    monkeypatch.setenv("NO_COLOR", "1")
    text = _check_text(_Terminal())
    evidence = [line for line in text.splitlines() if line.startswith("        ")]
    assert any(line.startswith("        log    2026-11-28T11:25:00.4") for line in evidence)
    assert all(len(line) <= 72 for line in text.splitlines() if line.startswith("        log"))


def test_a_streamed_long_list_and_bare_objects_give_no_lines() -> None:
    assert evidence_lines({"kind": "Namespace", "evidence": iter(())}) == ([], 0)
    bare = {"kind": CSV, "namespace": "ns", "name": "a", "field": None, "value": None}
    assert evidence_lines({"kind": CSV, "namespace": "ns", "name": "a", "evidence": [bare]}) == (
        [],
        0,
    )
