"""The text of ``check`` reads each finding's entry once: a streamed report builds an entry,
and plans and proves its remedy, each time the findings are read, and the text used to read
them six times (the header's LiveNoAccess scan, the incidents, three severities, the
Subscriptions' states): six trials of every remedy."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

import pytest

from olmtui.model.records.types import Finding
from olmtui.pipeline.build import sample_session
from olmtui.report import json_report, write_text


def test_each_remedy_is_planned_once(monkeypatch: pytest.MonkeyPatch) -> None:
    planned: Counter[int] = Counter()  # by the finding record, which every pass shares
    planner = json_report.remedy_for

    def counted(finding: Finding, context: Any) -> Any:
        planned[id(finding)] += 1
        return planner(finding, context)

    monkeypatch.setattr(json_report, "remedy_for", counted)
    report = sample_session([], None).analysis.report(streamed=True, verify_remedies=True)
    text = io.StringIO()
    write_text(report, text)
    assert planned and set(planned.values()) == {1}, planned
    assert "Remedy (" in text.getvalue()
