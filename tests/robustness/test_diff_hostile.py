"""``olmtui diff`` on values only YAML has (dates, binary, NaN, keys that are not strings)
and on fields of the wrong type: every output prints, the JSON stays JSON; never exit 3."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from cli_in_process import run_cli
from model_builders import subscription
from snapshot_files import yaml_documents

from olmtui.report.diff_report import load_diff_schema

ODD_VALUES = (
    "spec:\n  config:\n    x: !!binary aGVsbG8=\n    y: .nan\n    z: 2021-01-01\n    5: 1\n"
)


@pytest.mark.parametrize("output", ["text", "json", "markdown"])
def test_values_only_yaml_has_are_printed_as_text(tmp_path: Path, output: str) -> None:
    before = tmp_path / "a.yaml"
    before.write_text(yaml_documents([subscription("ns", "s")]))
    odd = yaml_documents([subscription("ns", "s", status={"state": [1, 2]})])
    after = tmp_path / "b.yaml"
    after.write_text(odd.replace("spec:\n", ODD_VALUES, 1))
    result = run_cli("diff", before, after, "--output", output)
    assert result.returncode == 1, result.stderr
    if output == "json":
        answer = json.loads(result.stdout)
        jsonschema.validate(answer, load_diff_schema())
        (entry,) = answer["objects"]["changed"]
        values = {w["field"]: w["to"] for w in entry["what"]}
        assert values["spec.config.y"] == "nan"
        assert values["spec.config.x"] == "b'hello'"
