"""A property of ``check``'s proof of remedies: for random small clusters, every remedy
``check`` reports ``simulated`` does what it claims on the snapshot itself. Its steps'
changes are applied to the snapshot's objects (``model/diagnosis/changes.py applied``),
then what OLM's controllers write in reply as the simulation models it (a Subscription's
status after its InstallPlan is deleted, the new InstallPlan: a snapshot of the steps alone
is the moment before OLM syncs, its objects still carrying the status OLM wrote before),
the file written and ``check`` run again from scratch: the finding the remedy was for and
those that follow from it are gone, and no new error appears."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_builders import catalog_source, csv, failed_plan, namespace, operator_group, subscription
from simulation_support import ORPHAN, catalog_specs, references_plan
from snapshot_files import yaml_documents

from olmtui.model.diagnosis.changes import applied
from olmtui.model.records.diagnosis import FindingKey, Remedy
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.simulation import Simulator
from olmtui.store import KINDS

Obj = dict[str, Any]
NAMESPACES = ("team-a", "team-b")
#: Catalog content for community-operators in openshift-marketplace: etcd 0.9.2 -> 0.9.4.
CATALOGS = catalog_specs(ORPHAN)
ETCD_CRD = ("EtcdCluster", "v1beta2", "etcdclusters.etcd.database.coreos.com")
VERSIONS = ("0.9.2", "0.9.4")


@st.composite
def clusters(draw: st.DrawFn) -> list[Obj]:
    """Two namespaces, each with groups, etcd CSVs in any phase, and maybe a Subscription
    whose InstallPlan failed, waits or completed: the states whose remedies check tries."""
    objects = [
        namespace("openshift-marketplace"),
        catalog_source("openshift-marketplace", "community-operators"),
    ]
    for ns in NAMESPACES:
        objects.append(namespace(ns))
        for group in range(draw(st.integers(0, 2))):
            objects.append(
                operator_group(
                    ns,
                    f"og{group}",
                    targets=draw(st.sampled_from([None, [ns], list(NAMESPACES)])),
                    upgrade=draw(st.sampled_from([None, "TechPreviewUnsafeFailForward"])),
                )
            )
        for version in draw(st.lists(st.sampled_from(VERSIONS), max_size=2, unique=True)):
            objects.append(
                csv(
                    ns,
                    f"etcdoperator.v{version}",
                    version=version,
                    owned=(ETCD_CRD,),
                    group="og0",
                    targets=ns,
                    phase=draw(st.sampled_from(["Succeeded", "Failed", "Pending"])),
                )
            )
        if not draw(st.booleans()):
            continue
        current = draw(st.sampled_from([None, *(f"etcdoperator.v{v}" for v in VERSIONS)]))
        sub = subscription(
            ns,
            "etcd",
            package="etcd",
            channel="alpha",
            source="community-operators",
            approval=draw(st.sampled_from(["Automatic", "Manual"])),
            current=current,
            installed=current if current and draw(st.booleans()) else None,
        )
        if current and draw(st.booleans()):
            plan = failed_plan(ns, "install-1", [current])
            phase = draw(st.sampled_from(["Failed", "RequiresApproval", "Complete"]))
            plan["status"]["phase"] = phase
            if phase == "RequiresApproval":
                plan["spec"]["approved"] = False
            objects.append(plan)
            state = draw(st.sampled_from(["UpgradePending", "AtLatestKnown", "UpgradeFailed"]))
            references_plan(sub, "install-1", state=state, failed=phase == "Failed")
        objects.append(sub)
    return objects


def _key(obj: Obj) -> tuple[str, str, str]:
    meta = obj["metadata"]
    return (obj["kind"], meta.get("namespace") or "", meta["name"])


def _changed(objects: list[Obj], remedy: Remedy) -> dict[tuple[str, str, str], Obj]:
    """The snapshot's objects with the remedy's steps applied in order."""
    by_key = {_key(o): o for o in objects}
    for step in remedy.steps:
        for change in step.changes:
            target = change.target
            key = (target.kind, target.namespace, target.name)
            new = applied(by_key.get(key), change)
            if new is None:
                by_key.pop(key, None)
            else:
                by_key[key] = new
    return by_key


def _synced(before: Path, remedy: Remedy) -> list[Obj]:
    """The state after the steps and OLM's reply to them (a trial on a fresh session)."""
    changes = [c for step in remedy.steps for c in step.changes]
    simulator = snapshot_session([str(before)], CATALOGS).analysis.simulator()
    with simulator.trial(changes) as (_, store):
        return [obj for kind in KINDS for obj in store.list(kind)]


def _keys(report: dict[str, Any]) -> set[FindingKey]:
    return {
        (f["code"], f["kind"] or "", f["namespace"] or "", f["name"] or "")
        for f in report["findings"]
    }


def _errors(report: dict[str, Any]) -> set[FindingKey]:
    return {
        (f["code"], f["kind"] or "", f["namespace"] or "", f["name"] or "")
        for f in report["findings"]
        if f["severity"] == "error"
    }


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(objects=clusters())
def test_a_simulated_remedy_clears_its_incident_on_the_snapshot(
    objects: list[Obj], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proven: list[tuple[Remedy, Collection[FindingKey]]] = []
    verify = Simulator.verify

    def recorded(self: Simulator, remedy: Remedy, clears: Collection[FindingKey]) -> Remedy:
        verified = verify(self, remedy, clears)
        if verified.verified == "simulated":
            proven.append((verified, frozenset(clears)))
        return verified

    monkeypatch.setattr(Simulator, "verify", recorded)
    before = tmp_path / "before.yaml"
    before.write_text(yaml_documents(objects, sort_keys=False))
    report = snapshot_session([str(before)], CATALOGS).analysis.report(verify_remedies=True)
    simulated = sum(
        1 for f in report["findings"] if (f["remedy"] or {}).get("verified") == "simulated"
    )
    assert simulated == len(proven)  # what check says is what its trials showed
    for remedy, clears in proven:
        steps = _changed(objects, remedy)
        synced = _synced(before, remedy)
        # OLM writes status and makes objects; it deletes none the steps create, nor brings
        # back one they delete
        held = {_key(o) for o in synced}
        assert {k for k in steps if k[0] in KINDS} <= held
        assert not ({_key(o) for o in objects} - steps.keys()) & held
        after = tmp_path / "after.yaml"
        after.write_text(yaml_documents(synced, sort_keys=False))
        checked = snapshot_session([str(after)], CATALOGS).analysis.report()
        assert not clears & _keys(checked), (remedy, clears & _keys(checked))
        assert not _errors(checked) - _errors(report), (remedy, _errors(checked))
