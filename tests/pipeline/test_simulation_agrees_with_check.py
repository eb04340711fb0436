"""A trial starts from what ``check`` reports of the same session: the resolver's findings
resting on objects not read are held back alike. With OperatorGroups unreadable, a
namespace without a group proves nothing: its resolution is not evaluated (R-RES-22) and
no "resolution would stop" is said."""

from __future__ import annotations

from pathlib import Path

from simulation_support import RESOLUTION, catalog_specs, fixture_objects
from snapshot_files import yaml_documents

from olmtui.pipeline.build import snapshot_session

CASE = RESOLUTION / "TestSolveOperators"


def test_a_trial_starts_from_checks_findings_with_a_kind_not_readable(tmp_path: Path) -> None:
    objects = [o for o in fixture_objects(CASE) if o.get("kind") != "OperatorGroup"]
    objects.append(
        {
            "apiVersion": "olmtui.dev/v1",
            "kind": "SnapshotAccess",
            "metadata": {"name": "olmtui-snapshot"},
            "refused": [
                {"kind": "OperatorGroup", "resource": "operatorgroups", "reason": "403 Forbidden"}
            ],
        }
    )
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(objects, sort_keys=False))
    session = snapshot_session([str(path)], catalog_specs(CASE))
    before = session.analysis.simulator().run([]).before
    whole = session.analysis.report()
    report = whole["findings"]
    assert sorted((f.code, f.namespace, f.name) for f in before) == sorted(
        (f["code"], f["namespace"] or "", f["name"] or "") for f in report
    )
    assert "ResolutionWouldStop" not in {f.code for f in before}
    # R-RES-22: zero groups read is not zero groups: the resolution is unknown
    assert [(r["namespace"], r["status"]) for r in whole["resolution"]] == [
        ("test-namespace", "not-evaluated")
    ]
