"""A property of the simulation: for random small clusters and random changes, the findings
the simulation reports after the changes (and OLM's reactions to them) are exactly those
``olmtui check`` reports on a snapshot of the changed state. The simulation follows the
change feed incrementally and resolves only the namespaces the change reaches; ``check``
derives everything from scratch: the two must agree. And the copy the trial changed is put
back: a second trial of the same changes gives the same answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_builders import csv, failed_plan, namespace, operator_group
from simulation_support import ORPHAN, catalog_specs, references_plan
from snapshot_files import yaml_documents

from olmtui.errors import UsageError
from olmtui.model.diagnosis.changes import ChangeError
from olmtui.model.records.diagnosis import Change, finding_key
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.store import KINDS

Obj = dict[str, Any]
NAMESPACES = ("team-a", "team-b")
#: Catalog content for community-operators in openshift-marketplace: etcd 0.9.2 -> 0.9.4.
CATALOGS = catalog_specs(ORPHAN)
ETCD_CRD = ("EtcdCluster", "v1beta2", "etcdclusters.etcd.database.coreos.com")


def _marketplace() -> list[Obj]:
    return [
        namespace("openshift-marketplace"),
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "CatalogSource",
            "metadata": {"name": "community-operators", "namespace": "openshift-marketplace"},
            "spec": {"sourceType": "grpc", "image": "quay.io/example/community-operators:1"},
            "status": {
                "connectionState": {
                    "lastObservedState": "READY",
                    "lastConnect": "2026-11-20T09:58:12Z",
                }
            },
        },
    ]


@st.composite
def clusters(draw: st.DrawFn) -> list[Obj]:
    objects = _marketplace()
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
        versions = draw(st.lists(st.sampled_from(["0.9.2", "0.9.4"]), max_size=2, unique=True))
        for version in versions:
            objects.append(
                csv(
                    ns,
                    f"etcdoperator.v{version}",
                    version=version,
                    owned=(ETCD_CRD,),
                    group="og0",
                    targets=ns,
                    phase=draw(st.sampled_from(["Succeeded", "Failed", "Pending", "Replacing"])),
                )
            )
        if draw(st.booleans()):
            sub: Obj = {
                "apiVersion": "operators.coreos.com/v1alpha1",
                "kind": "Subscription",
                "metadata": {"name": "etcd", "namespace": ns},
                "spec": {
                    "name": "etcd",
                    "channel": "alpha",
                    "source": "community-operators",
                    "sourceNamespace": "openshift-marketplace",
                    "installPlanApproval": draw(st.sampled_from(["Automatic", "Manual"])),
                },
                "status": {},
            }
            current = draw(st.sampled_from([None, "etcdoperator.v0.9.2", "etcdoperator.v0.9.4"]))
            if current:
                sub["status"]["currentCSV"] = current
                if draw(st.booleans()):
                    sub["status"]["installedCSV"] = current
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


def _changes(objects: list[Obj]) -> st.SearchStrategy[list[Change]]:
    refs = [
        ObjectRef(
            o["kind"],
            o["metadata"].get("namespace", "") if o["kind"] != "Namespace" else "",
            o["metadata"]["name"],
        )
        for o in objects
    ]
    plans = [r for r in refs if r.kind == "InstallPlan"]
    subs = [r for r in refs if r.kind == "Subscription"]
    groups = [r for r in refs if r.kind == "OperatorGroup"]
    one = st.one_of(
        st.sampled_from(refs).map(lambda r: Change("delete", r)),
        *([st.sampled_from(plans).map(lambda r: Change("approve", r))] if plans else []),
        *(
            [
                st.tuples(
                    st.sampled_from(subs),
                    st.sampled_from(
                        [
                            ("spec.channel", "beta"),
                            ("spec.installPlanApproval", "Manual"),
                            ("spec.startingCSV", "etcdoperator.v0.9.2"),
                        ]
                    ),
                ).map(lambda t: Change("patch", t[0], field=t[1][0], value=t[1][1]))
            ]
            if subs
            else []
        ),
        *(
            [
                st.tuples(
                    st.sampled_from(groups),
                    st.sampled_from(
                        [
                            ("spec.upgradeStrategy.name", "TechPreviewUnsafeFailForward"),
                            ("spec.targetNamespaces", '["team-a", "team-b"]'),
                            ("spec.targetNamespaces", ""),
                            ("spec.targetNamespaces", '["team-b"]'),
                        ]
                    ),
                ).map(lambda t: Change("patch", t[0], field=t[1][0], value=t[1][1]))
            ]
            if groups
            else []
        ),
    )
    return st.lists(one, min_size=1, max_size=2)


def _key(finding: Any) -> tuple[str, ...]:
    return (
        finding.severity,
        finding.code,
        finding.kind,
        finding.namespace,
        finding.name,
        finding.message,
        finding.rule,
    )


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_simulation_after_is_what_check_says_of_the_changed_state(
    data: st.DataObject, tmp_path: Path
) -> None:
    objects = data.draw(clusters())
    before = tmp_path / "before.yaml"
    before.write_text(yaml_documents(objects, sort_keys=False))
    session = snapshot_session([str(before)], CATALOGS)
    changes = data.draw(_changes(objects))
    simulator = session.analysis.simulator()
    try:
        with simulator.trial(changes) as (outcome, store):
            changed = [obj for kind in KINDS for obj in store.list(kind)]
    except ChangeError:
        return  # a change after an earlier one deleted its object: refused, nothing to compare
    after = tmp_path / "after.yaml"
    after.write_text(yaml_documents(changed, sort_keys=False))
    try:
        checked = snapshot_session([str(after)], CATALOGS).analysis.report()
    except UsageError:
        return  # nothing of OLM's left (a Namespace deleted with all it held): no check

    expected = sorted(
        (
            f["severity"],
            f["code"],
            f["kind"] or "",
            f["namespace"] or "",
            f["name"] or "",
            f["message"],
            f["rule"],
        )
        for f in checked["findings"]
    )
    assert sorted(_key(f) for f in outcome.after) == expected
    resolved = {r["namespace"]: r["status"] for r in checked["resolution"]}
    assert {r.namespace: r.status for r in outcome.after_resolution} == resolved
    # cleared and new, found by identity, are what keys say
    before_keys = {finding_key(f) for f in outcome.before}
    after_keys = {finding_key(f) for f in outcome.after}
    assert {finding_key(f) for f in outcome.cleared} == before_keys - after_keys
    assert {finding_key(f) for f in outcome.new} == after_keys - before_keys
    # the copy was put back: the same trial again gives the same answer
    assert simulator.run(changes).after == outcome.after
    assert sorted(_key(f) for f in simulator.run([]).after) == sorted(
        _key(f) for f in outcome.before
    )
