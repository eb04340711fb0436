"""``olmtui whatif`` says which incidents clear and which appear: the
JSON's ``before``/``after`` carry ``incidents`` shaped as ``check``'s ``incidents[]``, and
the text has one line per incident cleared or brought."""

from __future__ import annotations

import json

import jsonschema
import pytest
from simulation_support import ORPHAN, catalog_specs

from olmtui.cli import main
from olmtui.report import load_schema

CLUSTER = str(ORPHAN / "cluster.yaml")
CATALOG = [f"--catalog={spec}" for spec in catalog_specs(ORPHAN)]
ORPHAN_CSV = "csv/team/etcdoperator.v0.9.4"


def _whatif_schema() -> dict[str, object]:
    schema = load_schema()
    return {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/whatif"}


def test_json_holds_the_incidents_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["whatif", CLUSTER, *CATALOG, "--delete", ORPHAN_CSV, "--output", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    jsonschema.validate(answer, _whatif_schema())
    before = {i["root"]["code"]: i for i in answer["before"]["incidents"]}
    after = {i["root"]["code"]: i for i in answer["after"]["incidents"]}
    orphan = before["UnreferencedCSV"]
    assert orphan["id"] == "UnreferencedCSV:ClusterServiceVersion/team/etcdoperator.v0.9.4"
    assert orphan["severity"] == "warning"
    csv = {"kind": "ClusterServiceVersion", "namespace": "team", "name": "etcdoperator.v0.9.4"}
    assert csv in orphan["affected"]
    assert "UnreferencedCSV" not in after and "ResolutionWouldFail" not in after
    assert after["InstallPlanPending"]["root"]["name"] == "etcd"
    assert "InstallPlanPending" not in before
    # each side's incidents are its findings' diagnosis: every finding is in one of them
    for side in (answer["before"], answer["after"]):
        refs = [i["root"] for i in side["incidents"]]
        refs += [c for i in side["incidents"] for c in i["consequences"]]
        assert len(refs) == len(side["findings"])


def test_text_has_one_line_per_incident_cleared_and_brought(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["whatif", CLUSTER, *CATALOG, "--delete", ORPHAN_CSV]) == 0
    out = capsys.readouterr().out
    cleared = out[out.index("Incidents that clear (3):") : out.index("Incidents that appear")]
    assert (
        "  - warning UnreferencedCSV ClusterServiceVersion team/etcdoperator.v0.9.4 "
        "(0 consequences)" in cleared
    )
    assert "  - warning ResolutionWouldFail Namespace team (0 consequences)" in cleared
    brought = out[out.index("Incidents that appear (1):") : out.index("Findings that clear")]
    assert "  + info InstallPlanPending Subscription team/etcd (0 consequences)" in brought
