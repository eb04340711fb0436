"""The HealthIndex's findings equal a from-scratch ``merged_findings`` after any sequence of
changes (as tests/model/incremental/test_model_incremental.py does for the engine), and a copy's
change costs no recomputation.

Hypothesis draws small clusters with what the health rules read (Subscriptions pointing at
present, missing and unhealthy CatalogSources in their own or the global catalog namespace,
InstallPlans, CSVs and copies, OperatorGroups, CRDs, OLM v1 ClusterExtensions and
ClusterCatalogs, lost and regained access) and random add/modify/delete sequences, with and
without catalog content for the upgrade rules and the v1 resolution (a stand-in resolver that
reads every input the real one does, R-V1-20).
"""

from __future__ import annotations

import copy
import json
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_builders import (
    catalog_source,
    clusteroperator,
    clusterversion,
    copy_of,
    crd,
    install_plan,
    namespace,
    operator_group,
    service,
    subscription,
)
from model_builders import csv as make_csv
from v1_objects import conditioned_catalog, pkg_extension

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import finding_order, health_findings, merged_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.types import Finding
from olmtui.model.rules.installplans.summaries import pending_approvals
from olmtui.model.rules.upgrades.graph import upgrade_hook
from olmtui.model.rules.v1 import resolve as v1_resolve
from olmtui.model.rules.v1.resolve import V1Resolution
from olmtui.store import Store, Unreadable, is_copied_csv

NS = ["a", "b", "marketplace"]
CSV_NAMES = ["pkg.v1.0.0", "pkg.v1.1.0", "pkg.v2.0.0"]
LOAD = [Finding("warning", "UnreadableFile", "", "", "x.yaml", "could not read x.yaml")]
E = ChannelEntry
CONTENT = Catalog(
    "marketplace/cat",
    "test",
    packages={
        "pkg": Package(
            "pkg",
            "stable",
            {
                "stable": Channel(
                    "pkg",
                    "stable",
                    (E(CSV_NAMES[2], CSV_NAMES[1]), E(CSV_NAMES[1], CSV_NAMES[0]), E(CSV_NAMES[0])),
                )
            },
            {n: Bundle(n, "pkg", n.partition(".v")[2]) for n in CSV_NAMES},
        )
    },
)
#: Content bound to the ClusterCatalog ``cc1`` (``--catalog cc1=PATH``, R-V1-22).
V1_CONTENT = Catalog("cc1", "test", packages=CONTENT.packages)
names = st.sampled_from


def make_crd(name: str, served: bool, webhook: tuple[str, str] | None = None):
    plural = name.split(".", 1)[0]
    return crd(
        name,
        kind=plural.title(),
        versions=[{"name": "v1", "served": served}],
        conversion="None" if webhook is None else "Webhook",
        webhook=None if webhook is None else {"namespace": webhook[0], "name": webhook[1]},
    )


def with_max_ocp(csv: dict[str, Any], maximum: str | None) -> dict[str, Any]:
    """R-DOC-16: the CSV with an ``olm.maxOpenShiftVersion`` property (or none)."""
    if maximum is not None:
        props = {"properties": [{"type": "olm.maxOpenShiftVersion", "value": maximum}]}
        annotations = csv["metadata"].setdefault("annotations", {})
        annotations["operatorframework.io/properties"] = json.dumps(props)
    return csv


#: ConstraintsNotSatisfiable messages naming CSVs, bundles and CatalogSources (R-SUB-7).
RESOLUTION = [
    None,
    "constraints not satisfiable: @existing/a//pkg.v1.0.0 and marketplace/cat/stable/pkg.v2.0.0 "
    "originate from package pkg, clusterserviceversion pkg.v1.0.0 exists and is not referenced "
    "by a subscription, subscription s1 exists, subscription s1 requires "
    "cat/marketplace/stable/pkg.v2.0.0",
    "constraints not satisfiable: @existing/b//pkg.v1.1.0, cat/marketplace/stable/pkg.v2.0.0 "
    "and cat/a/stable/pkg.v1.0.0 provide A (g/v1), bundle cat/marketplace/stable/pkg.v2.0.0 "
    "is deprecated, bundle pkg.v1.1.0 requires an operator with package: x, subscription s2 "
    "requires at least one of cat/marketplace/stable/pkg.v2.0.0, @existing/b//pkg.v1.1.0 or "
    "cat/a/stable/pkg.v1.0.0",
    "constraints not satisfiable: no operators found from catalog other in namespace "
    "marketplace referenced by subscription s1, subscription s1 exists",
]


def with_resolution(sub: dict[str, Any], message: str | None) -> dict[str, Any]:
    if message:
        sub["status"]["conditions"] = [
            {
                "type": "ResolutionFailed",
                "status": "True",
                "reason": "ConstraintsNotSatisfiable",
                "message": message,
            }
        ]
    return sub


subscriptions = st.builds(
    lambda ns, name, source, approval, installed, plan, state, message: with_resolution(
        subscription(
            ns,
            name,
            source=source[1],
            source_ns=source[0],
            approval=approval,
            installed=installed,
            current=installed,
            state=state,
            plan=plan,
        ),
        message,
    ),
    names(NS),
    names(["s1", "s2"]),
    names([("marketplace", "cat"), ("a", "cat"), ("marketplace", "gone")]),
    names([None, "Manual", "Automatic"]),
    names([None, *CSV_NAMES]),
    names([None, "p1", "p2"]),
    names([None, "AtLatestKnown", "UpgradePending"]),
    names(RESOLUTION),
)


def owned_by(plan: dict[str, Any], owner: str | None) -> dict[str, Any]:
    if owner:
        owners = [{"apiVersion": "operators.coreos.com/v1alpha1", "kind": "Subscription"}]
        plan["metadata"]["ownerReferences"] = [{**owners[0], "name": owner, "uid": owner}]
    return plan


plans = st.builds(
    lambda ns, name, phase, approved, planned, owner: owned_by(
        {
            **install_plan(ns, name, phase, approved),
            "spec": {
                "approved": approved,
                "approval": "Manual",
                "clusterServiceVersionNames": planned,
            },
        },
        owner,
    ),
    names(NS),
    # Enough names for a pile of Failed plans (R-DOC-15).
    names(["p1", "p2", "p3", "p4", "p5", "p6"]),
    names(["Complete", "RequiresApproval", "Failed"]),
    st.booleans(),
    st.lists(names(CSV_NAMES), max_size=2, unique=True),
    names([None, "s1", "s2"]),
)


def labelled(csv: dict[str, Any], package_label: bool) -> dict[str, Any]:
    """The CSV with OLM's ``operators.coreos.com/<package>.<namespace>`` label (the package a
    leftover CSV belongs to, R-DOC-14)."""
    if package_label:
        ns = csv["metadata"]["namespace"]
        csv["metadata"].setdefault("labels", {})[f"operators.coreos.com/pkg.{ns}"] = ""
    return csv


def waiting_csv(
    ns: str,
    name: str,
    owned: tuple,
    phase: tuple[str, str],
    replaces: Any,
    maximum: str | None,
    package_label: bool,
) -> dict[str, Any]:
    """A CSV whose message names the Deployment ``op`` it waits for (R-CSV-I), with an
    ``olm.maxOpenShiftVersion`` (R-DOC-16) and a package label (R-DOC-14) or not."""
    obj = make_csv(
        ns,
        name,
        owned=owned,
        group="g1",
        targets="",
        phase=phase[0],
        reason=phase[1],
        replaces=replaces,
    )
    obj["status"]["message"] = "installing: waiting for deployment op to become ready: no"
    return labelled(with_max_ocp(obj, maximum), package_label)


csvs = st.builds(
    waiting_csv,
    names(NS),
    names(CSV_NAMES),
    names([(), (("A", "v1", "as.g"),), (("B", "v1", "bs.g"),)]),
    names(
        [
            ("Succeeded", "InstallSucceeded"),
            ("Failed", "InstallCheckFailed"),
            ("Installing", "InstallWaiting"),
            ("Pending", "OperatorConditionNotUpgradeable"),
            ("Replacing", "BeingReplaced"),
        ]
    ),
    names([None, *CSV_NAMES]),
    names([None, "4.12", "4.14", "4.12.1"]),
    st.booleans(),
)
#: What the CSV findings read besides CSVs: the Deployment a CSV waits for, and
#: the OperatorCondition that holds an upgrade (R-CSV-P 1).
deployments = st.builds(
    lambda ns, available: {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"namespace": ns, "name": "op"},
        "spec": {"replicas": 1},
        "status": {"availableReplicas": int(available)},
    },
    names(NS),
    st.booleans(),
)
operator_conditions = st.builds(
    lambda ns, name, upgradeable: {
        "apiVersion": "operators.coreos.com/v2",
        "kind": "OperatorCondition",
        "metadata": {"namespace": ns, "name": name},
        "status": {"conditions": [{"type": "Upgradeable", "status": upgradeable}]},
    },
    names(NS),
    names(CSV_NAMES),
    names(["True", "False"]),
)
copies = st.builds(copy_of, csvs, names(NS))
sources = st.builds(
    lambda ns, name, state, reason: catalog_source(ns, name, state=state, reason=reason),
    names(["marketplace", "a"]),
    names(["cat", "other"]),
    names(["READY", "TRANSIENT_FAILURE", None]),
    names([None, "SpecInvalidError", "InvalidIntervalError"]),
)
crds = st.builds(
    make_crd, names(["as.g", "bs.g"]), st.booleans(), names([None, ("a", "hook"), ("b", "hook")])
)
platform = st.one_of(
    st.builds(service, names(["a", "b"]), names(["hook", "metrics"])),
    st.builds(lambda v: clusterversion(("Completed", v)), names(["4.12.3", "4.13.0"])),
    st.builds(
        lambda up, message: clusteroperator(up, None, message),
        names(["True", "False"]),
        names(["", "- a/pkg.v1.0.0 is 4.12"]),
    ),
)
groups = st.builds(
    lambda ns, name: operator_group(ns, name, status=[""]), names(NS), names(["g1", "g2"])
)


def stand_in_resolver(
    extension: dict[str, Any], cluster_catalogs: Any, content: Any
) -> V1Resolution:
    """Reads what ``resolve_extension`` reads (the extension, every ClusterCatalog, the
    content per catalog) and answers each kind of V1Resolution, so the property test covers
    the resolution findings (R-V1-20) while the real resolver is not there."""
    names_ = sorted(c["metadata"]["name"] for c in cluster_catalogs)
    missing = [n for n in names_ if n not in content]
    if missing:
        return V1Resolution(unknown=missing[0])
    if not names_:
        return V1Resolution(error='no bundles found for package "pkg"')
    bundle = CSV_NAMES[(len(names_) + len(extension["metadata"]["name"])) % 3]
    deprecated = ("deprecated bundle",) if bundle == CSV_NAMES[0] else ()
    return V1Resolution(
        bundle=bundle, version=bundle[5:], catalog=names_[-1], deprecations=deprecated
    )


PROGRESSING = [
    None,
    ("True", "Succeeded", "Desired state reached"),
    ("True", "Retrying", 'no bundles found for package "pkg"'),
    ("False", "Blocked", "bad config"),
]
cluster_extensions = st.builds(
    pkg_extension,
    names(["e1", "e2"]),
    names([None, *CSV_NAMES]),
    names(PROGRESSING),
    st.booleans(),
    names([None, "sa"]),
    names([None, {}, {"matchLabels": {"olm.operatorframework.io/metadata.name": "cc1"}}]),
)
cluster_catalogs = st.builds(
    conditioned_catalog,
    names(["cc1", "cc2"]),
    names(["True", "False", None]),
    names(["Available", "Unavailable"]),
    st.booleans(),
    names([0, 1]),
)
objects = st.one_of(
    cluster_extensions,
    cluster_catalogs,
    subscriptions,
    plans,
    csvs,
    copies,
    sources,
    crds,
    groups,
    platform,
    deployments,
    operator_conditions,
    st.builds(namespace, names(NS)),
)


def spoiled(obj: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """The object with one field of the wrong type (R-SRC-4): the store reads it as absent
    and records a ``MalformedObject`` finding."""
    obj = copy.deepcopy(obj)
    section, field = where.split(".")
    obj[section] = {**(obj.get(section) or {}), field: value}
    return obj


#: Objects with a wrong-typed field, good ones of the same names set it right again.
malformed = st.builds(
    spoiled,
    objects,
    names(["metadata.labels", "status.conditions", "spec.version"]),
    names([5, "text", {"a": 1}]),
)
objects = st.one_of(objects, malformed)
access = st.tuples(
    st.just("access"), names(["Subscription", "InstallPlan", "CatalogSource"]), st.booleans()
)
#: A pile of Failed InstallPlans in one namespace, up to more than OLM keeps (R-DOC-15).
piles = st.builds(
    lambda ns, count, owner: [
        owned_by(install_plan(ns, f"p{i}", "Failed", True), owner) for i in range(1, count + 1)
    ],
    names(NS),
    st.integers(3, 6),
    names([None, "s1", "s2"]),
)
steps = st.one_of(
    st.tuples(st.just("batch"), piles),
    st.tuples(st.just("put"), objects),
    st.tuples(st.just("delete"), objects),
    st.tuples(st.just("batch"), st.lists(objects, min_size=1, max_size=5)),
    access,
    # ClusterCatalog content fetched live arrives or goes (R-V1-21): a CATALOG_CONTENT change
    st.tuples(st.just("content"), st.booleans()),
)


def from_scratch(store: Store, model: Model, catalogs: list[Catalog]) -> list[Finding]:
    return merged_findings(
        LOAD,
        model=model.findings(),
        health=health_findings(store, catalogs, model.subscriptions()),
        unreadable=store.unreadable,
        read_namespaces=store.read_namespaces,
    )


def assert_same(index: HealthIndex, store: Store, model: Model, catalogs: list[Catalog]) -> None:
    expected = from_scratch(store, model, catalogs)
    assert list(index.findings()) == expected
    # the health findings alone, which ``check`` reports from the index
    scratch = health_findings(store, catalogs, model.subscriptions())
    assert sorted(index.health_findings(), key=finding_order) == sorted(scratch, key=finding_order)
    counts = index.severity_counts()
    assert counts == {s: sum(f.severity == s for f in expected) for s in counts}
    installed = [c for c in store.list("ClusterServiceVersion") if not is_copied_csv(c)]
    approvals = pending_approvals(
        store.list("InstallPlan"), store.list("Subscription"), reversed(installed)
    )
    # The CSVs in the other order: ``replaces_for`` must not depend on it.
    assert index.approvals() == approvals


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    initial=st.lists(objects, max_size=12),
    sequence=st.lists(steps, min_size=1, max_size=12),
    with_content=st.booleans(),
    read=st.sampled_from([None, frozenset({"a"}), frozenset({"a", "b"})]),
)
def test_incremental_findings_equal_a_fresh_merge(initial, sequence, with_content, read):
    with mock.patch.object(v1_resolve, "resolve_extension", stand_in_resolver):
        _incremental_equals_fresh(initial, sequence, with_content, read)


def _incremental_equals_fresh(initial, sequence, with_content, read):
    catalogs = [CONTENT, V1_CONTENT] if with_content else []
    store = Store()
    store.read_namespaces = read  # a --namespace session (R-DOC-10), fixed for the session
    store.apply_many(initial)
    model = Model(store, upgrades=upgrade_hook(catalogs))
    index = HealthIndex(store, model, lambda: catalogs, LOAD)
    assert_same(index, store, model, catalogs)
    for action, *payload in sequence:
        if action == "put":
            store.apply("MODIFIED", payload[0])
        elif action == "delete":
            store.apply("DELETED", payload[0])
        elif action == "batch":
            store.apply_many(payload[0])
        elif action == "content":
            catalogs[:] = [c for c in catalogs if c is not V1_CONTENT]
            catalogs += [V1_CONTENT] if payload[0] else []
            store.content_changed("ClusterCatalog")
        else:
            kind, lost = payload
            store.set_unreadable(
                kind, Unreadable(kind.lower() + "s", "forbidden", 0.0) if lost else None
            )
        assert_same(index, store, model, catalogs)


def _cluster() -> tuple[Store, Model, HealthIndex, list[dict[str, Any]]]:
    parent = make_csv("a", CSV_NAMES[0], group="g1", targets="", phase="Succeeded")
    copied = copy_of(parent, "b")
    objs = [
        namespace("a"),
        namespace("b"),
        operator_group("a", "g1", status=[""]),
        parent,
        copied,
        subscription(
            "a",
            "s1",
            source="gone",
            source_ns="marketplace",
            approval="Manual",
            installed=CSV_NAMES[0],
        ),
        install_plan("a", "p1", "RequiresApproval", False),
    ]
    store = Store()
    store.apply_many(objs)
    model = Model(store)
    return store, model, HealthIndex(store, model, lambda: [], LOAD), [parent, copied]


def record_computes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The subjects :class:`HealthIndex` recomputes from now on, in order."""
    computed: list[tuple[str, ...]] = []
    real = HealthIndex._compute
    monkeypatch.setattr(
        HealthIndex,
        "_compute",
        lambda self, subject: computed.append(subject) or real(self, subject),
    )
    return computed


def test_a_copy_change_recomputes_no_subject(monkeypatch: pytest.MonkeyPatch) -> None:
    store, model, index, (_, copied) = _cluster()
    index.findings()
    generation = index.operators_generation
    computed = record_computes(monkeypatch)
    copied = {**copied, "status": {"phase": "Failed", "reason": "Copied"}}
    assert store.apply("MODIFIED", copied) is not None
    assert list(index.findings()) == from_scratch(store, model, [])
    assert computed == []
    assert index.operators_generation == generation


def test_a_subscription_change_recomputes_its_namespace_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, model, index, _ = _cluster()
    index.findings()
    computed = record_computes(monkeypatch)
    store.apply("MODIFIED", subscription("a", "s1", source_ns="marketplace"))
    assert list(index.findings()) == from_scratch(store, model, [])
    # The instance of package pkg in "a" did not move, so no cluster-wide partition did.
    assert sorted(computed) == [("csv", "a"), ("left", "a"), ("ns", "a")]


def test_a_catalog_source_change_reaches_the_namespaces_that_use_it() -> None:
    store, model, index, _ = _cluster()
    assert "CatalogSourceMissing" in {f.code for f in index.findings()}
    store.apply("ADDED", catalog_source("marketplace", "gone", state="TRANSIENT_FAILURE"))
    codes = {f.code for f in index.findings()}
    assert "CatalogSourceMissing" not in codes
    assert {"TargetedCatalogSourceUnhealthy", "CatalogSourceNotReady"} <= codes
    assert list(index.findings()) == from_scratch(store, model, [])


def test_a_csv_change_recomputes_only_the_partitions_it_touches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two packages each installed in two namespaces: changing one CSV recomputes its
    namespace, its package, the CRD it owns and its own requirements, not the other
    package's partitions."""

    def instance(ns: str, name: str, crd_name: str, version: str = "") -> dict[str, Any]:
        version = version or name.partition(".v")[2]
        owned = (("K", "v1", crd_name),)
        return make_csv(ns, name, owned=owned, group="g1", targets="", version=version)

    objs = [
        instance("a", "one.v1.0.0", "ks.one"),
        instance("b", "one.v1.1.0", "ks.one"),
        instance("a", "two.v1.0.0", "ks.two"),
        instance("b", "two.v1.1.0", "ks.two"),
    ]
    store = Store()
    store.apply_many(objs)
    model = Model(store)
    index = HealthIndex(store, model, lambda: [], LOAD)
    assert {f.code for f in index.findings()} >= {"MultiInstanceVersionSkew", "SharedCRDOwners"}
    computed = record_computes(monkeypatch)
    store.apply("MODIFIED", {**instance("a", "one.v1.0.0", "ks.one"), "status": {"phase": "X"}})
    assert list(index.findings()) == from_scratch(store, model, [])
    assert sorted(computed) == [
        ("csv", "a"),
        ("left", "a"),
        ("ns", "a"),
        ("req", "a", "one.v1.0.0"),
    ]
    computed.clear()
    store.apply("MODIFIED", instance("a", "one.v1.0.0", "ks.one", version="1.1.0"))
    assert list(index.findings()) == from_scratch(store, model, [])
    skewed = {f.name for f in index.findings() if f.code == "MultiInstanceVersionSkew"}
    assert skewed == {"two.v1.0.0"}
    assert sorted(computed) == [
        ("crd", "ks.one"),
        ("csv", "a"),
        ("left", "a"),
        ("ns", "a"),
        ("pkg", "one"),
        ("req", "a", "one.v1.0.0"),
    ]


def test_a_live_clock_measures_csv_ages_against_now_and_moves_on() -> None:
    """In a live session the CSV subjects are recomputed when the clock has moved,
    and equal ``health_findings`` at that time (``now``)."""
    import datetime as dt

    from olmtui.model.incremental.health import health_findings as scratch

    start = dt.datetime(2024, 1, 1, 10, 0, tzinfo=dt.UTC)
    clock = [start + dt.timedelta(minutes=2)]
    installing = make_csv("a", CSV_NAMES[0], group="g1", targets="", phase="Installing")
    installing["status"].update(reason="InstallWaiting", lastTransitionTime="2024-01-01T10:00:00Z")
    store = Store()
    store.apply_many([namespace("a"), operator_group("a", "g1", status=[""]), installing])
    model = Model(store)
    index = HealthIndex(store, model, lambda: [], clock=lambda: clock[0])

    def csv_findings() -> list[Finding]:
        return [f for f in index.findings() if f.code == "CSVInstalling"]

    (young,) = csv_findings()
    assert young.severity == "info" and "for 2m 0s" in young.message
    assert young in scratch(store, now=clock[0])
    clock[0] = start + dt.timedelta(minutes=31)
    (old,) = csv_findings()
    assert old.severity == "error" and "for 31m 0s" in old.message
    assert old in scratch(store, now=clock[0])


def test_a_cluster_extension_change_recomputes_its_subject_and_the_catalogs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-V1-*: an extension's findings read it and every ClusterCatalog; a catalog's read it
    and every extension (which select it). Nothing else moves."""
    store, model, index, _ = _cluster()
    store.apply_many([conditioned_catalog("cc1", "False", "Available", False, 0)])
    index.findings()
    computed = record_computes(monkeypatch)
    store.apply("ADDED", pkg_extension("e1", None, PROGRESSING[2], False, None, None))
    assert list(index.findings()) == from_scratch(store, model, [])
    assert sorted(computed) == [("cc", "cc1"), ("ce", "e1")]
    assert {"ClusterCatalogNotServing", "ClusterExtensionRetrying"} <= {
        f.code for f in index.findings()
    }
