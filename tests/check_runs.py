"""`olmtui check` run in-process on an input: its exit status and its JSON report, on the
real must-gathers and on a triage case (a loader that refuses duplicate keys in expectations)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import yaml
from data_paths import DATA
from report_records import validate_report

from olmtui.cli import main

MUST_GATHERS = DATA / "must-gather/must-gather-clean"


def check_json(path: Path) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(path), "--output", "json"])
    report = json.loads(out.getvalue())
    validate_report(report)
    return status, report


class UniqueKeyLoader(yaml.SafeLoader):
    """YAML keeps the last of two equal keys silently; an expectation written twice (two
    ``must_not:`` lists) would then drop checks without a word."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        keys = [self.construct_object(key, deep=deep) for key, _ in node.value]
        duplicated = sorted({str(k) for k in keys if keys.count(k) > 1})
        assert not duplicated, f"{node.start_mark}: keys given twice: {duplicated}"
        return super().construct_mapping(node, deep=deep)


def run_check(argv: list[str]) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", *argv, "--output", "json"])
    return status, json.loads(out.getvalue())
