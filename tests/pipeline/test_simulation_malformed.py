"""A trial keeps the wrong-typed fields a change leaves alone (R-SRC-4): the cluster's object
still holds them, so its MalformedObject finding neither clears nor is lost when the copy
is put back; a change that removes the bad field clears it."""

from __future__ import annotations

from pathlib import Path

import yaml
from data_paths import ROOT
from snapshot_files import yaml_documents

from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session

SAMPLE = ROOT / "olmtui" / "samples" / "cluster.yaml"


def _session(tmp_path: Path) -> tuple[Session, ObjectRef, ObjectRef]:
    docs = [d for d in yaml.safe_load_all(SAMPLE.read_text()) if d]
    plans = [d for d in docs if d["kind"] == "InstallPlan"]
    bad, other = plans[-1], plans[0]
    bad["spec"]["generation"] = "not a number"
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(docs, sort_keys=False))
    ref = [
        ObjectRef("InstallPlan", p["metadata"]["namespace"], p["metadata"]["name"])
        for p in (bad, other)
    ]
    return snapshot_session([str(path)], []), ref[0], ref[1]


def _malformed(findings: object) -> list[str]:
    return [f.name for f in findings if f.code == "MalformedObject"]  # type: ignore[attr-defined]


def test_a_patch_elsewhere_keeps_the_malformed_finding_and_the_copy_is_put_back(
    tmp_path: Path,
) -> None:
    session, bad, other = _session(tmp_path)
    simulator = session.analysis.simulator()
    label = Change("patch", bad, field="metadata.labels.x", value="y")
    first = simulator.run([label])
    assert _malformed(first.before) == [bad.name]
    assert _malformed(first.cleared) == []
    assert _malformed(first.after) == [bad.name]
    second = simulator.run([Change("patch", other, field="metadata.labels.x", value="y")])
    assert _malformed(second.cleared) == []
    assert _malformed(second.after) == [bad.name]


def test_a_patch_that_removes_the_bad_field_clears_it(tmp_path: Path) -> None:
    session, bad, _ = _session(tmp_path)
    outcome = session.analysis.simulator().run(
        [Change("patch", bad, field="spec.generation", value="")]
    )
    assert _malformed(outcome.cleared) == [bad.name]
