"""The incremental Model equals a from-scratch one after any sequence of changes.

Hypothesis draws small clusters (namespaces with labels, OperatorGroups with every target
shape, CSVs with install modes, owned CRDs, annotations and phases, copies, Subscriptions,
InstallPlans, the OLMConfig) and random add/modify/delete sequences, singly and in batches.
After each step the live Model must match a fresh Model over a fresh Store holding the same
objects, on every public query.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_builders import (
    ABSENT,
    copy_of,
    install_plan,
    namespace,
    olmconfig,
    operator_group,
    package_manifest,
    subscription,
)
from model_builders import csv as make_csv

from olmtui.model.incremental.engine import Model
from olmtui.store import KINDS, Store

NS = ["a", "b", "c"]
CRDS = [("A", "v1", "as.g"), ("B", "v1", "bs.g"), ("C", "v2", "cs.h"), ("Bad", "v1", "bads")]
API_KEYS = ["A.v1.g", "B.v1.g", "C.v2.h"]
MODES: list[Any] = [
    ("AllNamespaces",),
    ("OwnNamespace",),
    ("SingleNamespace", "MultiNamespace"),
    ("OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"),
    ({"type": "AllNamespaces", "supported": True}, {"type": "AllNamespaces", "supported": True}),
    ({"type": "OwnNamespacejl", "supported": True}, {"type": "AllNamespaces", "supported": True}),
]
STATES = [
    ("Succeeded", "InstallSucceeded"),
    ("Pending", "RequirementsUnknown"),
    (None, None),
    ("Failed", "UnsupportedOperatorGroup"),
    ("Failed", "InterOperatorGroupOwnerConflict"),
    ("Failed", "CannotModifyStaticOperatorGroupProvidedAPIs"),
    ("Failed", "NoOperatorGroup"),
    ("Failed", "InstallComponentFailedNoRetry"),
    ("Installing", "InstallWaiting"),
    ("Failed", "OwnerConflict"),
]

names = st.sampled_from
namespaces = st.builds(
    lambda n, team, uid: namespace(
        n,
        {
            **({"team": team} if team else {}),
            **({f"olm.operatorgroup.uid/{uid}": ""} if uid else {}),
        },
    ),
    names(NS),
    names([None, "x", "y"]),
    names([None, "og-a-g1", "og-b-g1", "stale"]),
)


@st.composite
def operator_groups(draw):
    ns, name = draw(names(NS)), draw(names(["g1", "g2"]))
    shape = draw(names(["global", "list", "selector", "bad-selector", "empty-selector"]))
    kwargs: dict[str, Any] = {}
    if shape == "list":
        kwargs["targets"] = draw(st.lists(names([*NS, "", "ghost"]), min_size=1, max_size=3))
    elif shape == "selector":
        kwargs["selector"] = {"matchLabels": {"team": draw(names(["x", "y"]))}}
    elif shape == "bad-selector":
        kwargs["selector"] = {"matchExpressions": [{"key": "team", "operator": "Near"}]}
    elif shape == "empty-selector":
        kwargs["selector"] = {}
    kwargs["status"] = draw(
        st.one_of(
            st.just(ABSENT),
            st.just([""]),
            st.just(["", "a"]),
            st.lists(names(NS), max_size=3, unique=True),
        )
    )
    apis = draw(st.one_of(st.none(), st.lists(names(API_KEYS), max_size=3, unique=True)))
    kwargs["apis"] = None if apis is None else ",".join(apis)
    kwargs["static"] = draw(st.booleans())
    kwargs["upgrade"] = draw(names([None, "TechPreviewUnsafeFailForward"]))
    return operator_group(ns, name, **kwargs)


@st.composite
def csvs(draw):
    ns, name = draw(names(NS)), draw(names(["x", "y", "z"]))
    phase, reason = draw(names(STATES))
    return make_csv(
        ns,
        name,
        modes=draw(names(MODES)),
        owned=tuple(draw(st.lists(names(CRDS), max_size=2, unique=True))),
        group=draw(names([None, "g1", "g2"])),
        targets=draw(names([None, "", "a", "a,b", ns])),
        phase=phase,
        reason=reason,
        replaces=draw(names([None, "x", "y", "z"])),
    )


@st.composite
def copies(draw):
    copy = copy_of(draw(csvs()), draw(names(NS)))
    if draw(st.booleans()):
        copy["status"]["phase"] = draw(names(["Succeeded", "Failed"]))
    return copy


subscriptions = st.builds(
    lambda ns, name, approval, plan: subscription(ns, name, approval=approval, plan=plan),
    names(NS),
    names(["s1", "s2"]),
    names([None, "Manual", "Automatic"]),
    names([None, "p1"]),
)
install_plans = st.builds(
    install_plan, names(NS), st.just("p1"), names(["Complete", "RequiresApproval"]), st.booleans()
)


def olmconfig_with(disabled, condition):
    config = olmconfig(disabled)
    if condition:
        config["status"] = {
            "conditions": [
                {
                    "type": "DisabledCopiedCSVs",
                    "status": condition[0],
                    "reason": condition[1],
                    "message": condition[2],
                }
            ]
        }
    return config


olmconfigs = st.builds(
    olmconfig_with,
    names([None, True, False]),
    names(
        [
            None,
            (
                "False",
                "CopiedCSVsEnabled",
                "Copied CSVs are enabled and present across the cluster",
            ),
            (
                "True",
                "CopiedCSVsDisabled",
                "Copied CSVs are disabled and no unexpected copied CSVs "
                "were found for operators installed in AllNamespace mode",
            ),
        ]
    ),
)
manifests = st.builds(
    lambda catalog, modes: package_manifest(
        catalog,
        "openshift-marketplace",
        "pkg",
        "head.v1",
        [{"type": t, "supported": True} for t in modes],
    ),
    names(["cat", "other"]),
    names(MODES[:4]),
)
objects = st.one_of(
    namespaces,
    operator_groups(),
    csvs(),
    copies(),
    subscriptions,
    install_plans,
    olmconfigs,
    manifests,
)
steps = st.one_of(
    st.tuples(st.just("put"), objects),
    st.tuples(st.just("delete"), objects),
    st.tuples(st.just("batch"), st.lists(objects, min_size=1, max_size=6)),
)


def fresh_model(store: Store) -> Model:
    copy = Store()
    copy.read_namespaces = store.read_namespaces
    copy.apply_many([obj for kind in KINDS for obj in store.list(kind)])
    return Model(copy)


def snapshot(model: Model) -> dict[str, Any]:
    return {
        "namespaces": model.namespaces(),
        "operator_groups": model.operator_groups(),
        "csvs": model.csvs(),
        "copied": model.copied_csvs(),
        "copies_of": {c.ref: model.copies_of(c.namespace, c.name) for c in model.csvs()},
        "subscriptions": model.subscriptions(),
        "findings": sorted(model.findings(), key=repr),
    }


def assert_same(live: Model, store: Store) -> None:
    expected = snapshot(fresh_model(store))
    got = snapshot(live)
    for key in expected:
        assert got[key] == expected[key], key


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    initial=st.lists(objects, max_size=12),
    sequence=st.lists(steps, min_size=1, max_size=12),
    read=st.sampled_from([None, frozenset({"a"}), frozenset({"a", "b"})]),
)
def test_incremental_model_equals_a_fresh_recompute(initial, sequence, read):
    store = Store()
    store.read_namespaces = read  # a --namespace session: copies elsewhere are not missing
    store.apply_many(initial)
    model = Model(store)
    assert_same(model, store)
    for action, payload in sequence:
        version = model.version
        if action == "put":
            change = store.apply("MODIFIED", payload)
        elif action == "delete":
            change = store.apply("DELETED", payload)
        else:
            change = store.apply_many(payload)
        if change:
            assert model.version > version
        assert_same(model, store)


def test_version_follows_a_change():
    store = Store()
    store.apply_many(
        [
            namespace("a"),
            operator_group("a", "g", status=[""]),
            make_csv("a", "x", group="g", targets=""),
        ]
    )
    model = Model(store)
    version = model.version
    store.apply(
        "MODIFIED",
        make_csv("a", "x", group="g", targets="", phase="Installing", reason="InstallWaiting"),
    )
    assert model.version == version + 1
    assert model.csv("a", "x").phase == "Installing"
