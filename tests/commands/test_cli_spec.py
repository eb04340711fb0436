"""``olmtui --spec`` (the whole command line as JSON, read from the parsers) and ``olmtui
check --schema`` (the report's shipped JSON Schema): what an agent driving olmtui headless
reads to know the commands, their options, outputs and exit statuses."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from cli_in_process import run_cli

from olmtui.cli import COMMAND_MODULES
from olmtui.report import load_schema

FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)")


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    result = run_cli("--spec")
    assert result.returncode == 0, result.stderr
    value: dict[str, Any] = json.loads(result.stdout)
    return value


def _flags(described: dict[str, Any]) -> set[str]:
    return {flag for option in described["options"] for flag in option["flags"]}


def _help_flags(*argv: str) -> set[str]:
    """Every long option ``--help`` shows in its usage line (argparse lists them all)."""
    text = run_cli(*argv, "--help").stdout
    usage = text.split("\n\n")[0]
    return set(FLAG.findall(usage)) - {"--help"}


def test_every_command_and_option_of_the_command_line_is_in_the_spec(
    spec: dict[str, Any],
) -> None:
    commands = {c["name"]: c for c in spec["commands"]}
    assert len(commands) == len(COMMAND_MODULES)
    assert {"check", "whatif", "explain", "graph", "mcp"} <= set(commands)
    for name, command in commands.items():
        assert _help_flags(name) <= _flags(command), name
        assert command["help"] and command["usage"].startswith(f"olmtui {name}")
    assert _help_flags() <= _flags(spec["dashboard"])
    assert {"--spec", "--catalog", "--context"} <= _help_flags()
    assert len(_help_flags("check")) >= 8


def test_options_carry_their_types_defaults_and_choices(spec: dict[str, Any]) -> None:
    check = next(c for c in spec["commands"] if c["name"] == "check")
    options = {o["flags"][0]: o for o in check["options"]}
    assert options["--output"]["choices"] == ["text", "json", "markdown", "jsonl"]
    assert options["--output"]["default"] == "text"
    assert options["--live"]["type"] == "boolean"
    assert options["--request-timeout"]["type"] == "duration"
    assert options["--catalog"]["repeatable"] is True
    assert check["outputFormats"] == ["text", "json", "markdown", "jsonl"]
    assert [a["name"] for a in check["arguments"]] == ["PATH"]
    graph = next(c for c in spec["commands"] if c["name"] == "graph")
    assert graph["outputFormats"] == ["mermaid", "text", "json"]


def test_exit_statuses_and_the_report_schema_are_named(spec: dict[str, Any]) -> None:
    statuses = {e["status"] for e in spec["exitStatuses"]}
    assert {0, 1, 2, 3} <= statuses
    assert spec["reportSchema"]["command"] == "olmtui check --schema"
    assert spec["format"] == 1


def test_check_schema_prints_the_shipped_schema_and_reads_no_input() -> None:
    result = run_cli("check", "--schema")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == load_schema()
    refused = run_cli("check", "--schema", "--sample")
    assert refused.returncode == 2 and "reads no input" in refused.stderr
