"""``check --fleet --prometheus FILE``'s text: label values escaped as the exposition format
says, so a target named with a quote, a backslash or a newline parses back to its name."""

from __future__ import annotations

from fleet_support import parse_exposition

from olmtui.report.fleet_prometheus import label, prometheus_text


def test_label_values_are_escaped() -> None:
    assert label('a"b\\c\nd') == 'a\\"b\\\\c\\nd'


def test_a_hostile_target_name_parses_back() -> None:
    name = 'ctx "prod"\\eu\nwest'
    targets = [
        {
            "name": name,
            "status": "ok",
            "findings": [
                {"rule": "R-SUB-5", "severity": "error"},
                {"rule": "R-SUB-5", "severity": "error"},
                {"rule": "R-OG-6", "severity": "warning"},
            ],
        },
        {"name": "down", "status": "timeout", "findings": []},
    ]
    parsed = parse_exposition(prometheus_text(targets))
    assert set(parsed["help"]) == {"olmtui_findings", "olmtui_target_up"}
    assert ("olmtui_findings", {"target": name, "rule": "R-SUB-5", "severity": "error"}, 2.0) in (
        parsed["samples"]
    )
    up = {s[1]["target"]: s[2] for s in parsed["samples"] if s[0] == "olmtui_target_up"}
    assert up == {name: 1.0, "down": 0.0}
