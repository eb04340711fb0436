"""The ``olmtui check`` report: the JSON of format 1, its JSON Schema, and the readable text.

``json_report`` builds the JSON dict from the model's records plus the findings of the
health rules (``health``); the text output is rendered from that dict, so both always say
the same thing. ``schema.json`` ships in the package for tools that check reports.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from olmtui.report.json_report import (
    FORMAT,
    Report,
    dumps,
    has_errors,
    report_json,
    write_json,
)
from olmtui.report.text_report import render_text, write_text

__all__ = [
    "FORMAT",
    "Report",
    "dumps",
    "has_errors",
    "load_schema",
    "render_text",
    "report_json",
    "write_json",
    "write_text",
]


def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of report format 1, read fresh from the package."""
    schema: dict[str, Any] = json.loads(
        files("olmtui.report").joinpath("schema.json").read_text("utf-8")
    )
    return schema
