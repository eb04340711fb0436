"""``diff``'s outputs: the schema is a valid draft 2020-12 schema; what the cluster wrote
(names, values) is printed inert in text and Markdown; the JSON says every field."""

from __future__ import annotations

import io

import jsonschema

from olmtui.model.diff.records import FieldChange, ObjectChange, OperatorChange, StateDiff
from olmtui.model.records.types import ObjectRef
from olmtui.report.diff_report import (
    diff_json,
    diff_markdown,
    load_diff_schema,
    write_diff_text,
)

HOSTILE = "evil\x1b[31m\u202e`<b>|"


def a_diff() -> StateDiff:
    ref = ObjectRef("ClusterServiceVersion", "ops", HOSTILE)
    return StateDiff(
        added=(ObjectRef("InstallPlan", "ops", "install-1"),),
        removed=(),
        changed=(ObjectChange(ref, (FieldChange("status.phase", "Installing", HOSTILE),), 2),),
        operators=(OperatorChange("pkg", "ops", "1.0.0", None, "pkg.v1", None),),
        new_findings=(),
        resolved_findings=(),
        unchanged_findings=3,
        new_incidents=(),
        resolved_incidents=(),
        facts={ObjectRef("InstallPlan", "ops", "install-1"): {"status.phase": "Complete"}},
    )


def test_the_schema_is_valid_and_the_json_follows_it() -> None:
    schema = load_diff_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    source = {"kind": "recording", "paths": ["rec"], "at": "2026-11-28T10:00:00Z"}
    answer = diff_json(a_diff(), source, {"kind": "live", "paths": []})
    jsonschema.validate(answer, schema)
    assert answer["objects"]["changed"][0]["more"] == 2
    assert answer["objects"]["added"][0]["facts"] == {"status.phase": "Complete"}
    assert answer["operators"][0]["to"] is None
    del source["at"]  # a recording's side says its moment
    try:
        jsonschema.validate(diff_json(a_diff(), source, source), schema)
    except jsonschema.ValidationError:
        pass
    else:
        raise AssertionError("a recording without its moment passed")


def test_cluster_text_is_inert_in_text_and_markdown() -> None:
    out = io.StringIO()
    write_diff_text(a_diff(), "a.yaml", "b.yaml", out)
    text = out.getvalue()
    assert "\x1b" not in text and "\u202e" not in text
    assert "pkg in ops: 1.0.0 -> not installed (pkg.v1 -> none)" in text
    assert "... and 2 more fields" in text
    assert "+ ops/install-1 added (phase Complete)" in text
    markdown = diff_markdown(a_diff(), "a.yaml", "b.yaml")
    assert "\x1b" not in markdown and "<b>" not in markdown and "\u202e" not in markdown
