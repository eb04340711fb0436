"""Explanations of unsatisfiable resolutions (R-RES-18): OLM's wording, the objects, a fix."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.model.rules.resolution.constraints import (
    AppliedConstraint,
    AtMost,
    Conflict,
    Constraint,
    Dependency,
    Mandatory,
    Prohibited,
    Variable,
)
from olmtui.model.rules.resolution.explanation import ExplainFacts, Offer, explain, object_of
from olmtui.model.rules.resolution.result import ExplainedConstraint
from olmtui.model.rules.resolution.solver import NotSatisfiable, solve

NS = "team"
ORPHAN = "@existing/team//etcd.v0.9.2"
HEAD = "community/olm/stable/etcd.v0.9.4"


def one(
    variable: str, constraint: Constraint, facts: ExplainFacts | None = None
) -> ExplainedConstraint:
    (explained,) = explain(NotSatisfiable((AppliedConstraint(variable, constraint),)), NS, facts)
    return explained


def test_objects_of_ids() -> None:
    assert object_of("subscription:etcd", NS) == "Subscription team/etcd"
    assert object_of(ORPHAN, NS) == "ClusterServiceVersion team/etcd.v0.9.2"
    assert object_of(HEAD, NS) == "bundle etcd.v0.9.4 (catalog olm/community)"
    assert object_of("etcd", NS) is None
    assert object_of("EtcdCluster (etcd.database.coreos.com/v1beta2)", NS) is None


def test_orphan_blocking_its_package() -> None:
    problem = [
        Variable(
            ORPHAN,
            (
                Mandatory(
                    "clusterserviceversion etcd.v0.9.2 exists and is not referenced by a "
                    "subscription"
                ),
            ),
        ),
        Variable(
            "subscription:etcd",
            (
                Mandatory("subscription etcd exists"),
                Dependency((HEAD,), f"subscription etcd requires {HEAD}"),
            ),
        ),
        Variable(HEAD, ()),
        Variable(
            "etcd",
            (
                Mandatory("there can be only one operator from package etcd"),
                AtMost(1, (ORPHAN, HEAD), f"{ORPHAN} and {HEAD} originate from package etcd"),
            ),
        ),
    ]
    result = solve(problem, ["subscription:etcd", ORPHAN, "etcd"])
    assert isinstance(result, NotSatisfiable)
    facts = ExplainFacts(
        {"etcd": [Offer("etcd.v0.9.2", "etcd", "0.9.2", "stable", "olm/community")]}
    )
    explained = explain(result, NS, facts)
    assert explained == explain(result, NS, facts)  # stable
    assert explained[0] == ExplainedConstraint(
        f"{ORPHAN} and {HEAD} originate from package etcd",
        ("ClusterServiceVersion team/etcd.v0.9.2", "bundle etcd.v0.9.4 (catalog olm/community)"),
        "only one bundle of package etcd may be installed per namespace (installed: "
        "ClusterServiceVersion team/etcd.v0.9.2; deleting a CSV keeps its operands)",
    )
    orphan = next(e for e in explained if e.constraint.startswith("clusterserviceversion"))
    assert orphan.objects == ("ClusterServiceVersion team/etcd.v0.9.2",)
    assert orphan.fix == (
        "delete the orphaned ClusterServiceVersion team/etcd.v0.9.2 (its operands stay); to "
        "keep this version, subscribe again with startingCSV: etcd.v0.9.2 from catalog "
        "olm/community, channel stable"
    )
    assert all("create a Subscription" not in e.fix for e in explained)


def test_invalid_subscription_texts() -> None:
    texts = {
        "no operators found from catalog community in namespace olm referenced by subscription "
        "etcd": "no CatalogSource olm/community is visible from namespace team: fix "
        "spec.source/spec.sourceNamespace of Subscription team/etcd",
        "no operators found in package etcd in the catalog referenced by subscription etcd": (
            "its catalog has no package etcd: fix spec.name or spec.source of Subscription "
            "team/etcd"
        ),
        "no operators found in channel beta of package etcd in the catalog referenced by "
        "subscription etcd": "package etcd has no channel beta in its catalog: fix spec.channel "
        "of Subscription team/etcd",
        "no operators found with name etcd.v9 in channel beta of package etcd in the catalog "
        "referenced by subscription etcd": "channel beta of package etcd has no bundle etcd.v9: "
        "fix spec.startingCSV of Subscription team/etcd",
    }
    for text, fix in texts.items():
        explained = one("subscription:etcd", Prohibited(text))
        assert explained.fix == fix
        assert explained.objects == ("Subscription team/etcd",)


def test_deprecated_bundle() -> None:
    explained = one(HEAD, Prohibited(f"bundle {HEAD} is deprecated"))
    assert explained.objects == ("bundle etcd.v0.9.4 (catalog olm/community)",)
    assert explained.fix == (
        "bundle etcd.v0.9.4 (catalog olm/community) is deprecated: pick a non-deprecated "
        "bundle (spec.startingCSV) or a different channel"
    )


def test_required_gvk_nothing_provides() -> None:
    text = (
        "bundle etcd.v0.9.4 requires an operator providing an API with group: "
        "monitoring.coreos.com, version: v1, kind: ServiceMonitor"
    )
    assert one(HEAD, Dependency((), text)).fix == (
        "nothing installed or in a visible catalog provides Kind ServiceMonitor "
        "(monitoring.coreos.com/v1): install an operator that provides it or add a catalog that "
        "has one"
    )


def test_package_range_nothing_satisfies() -> None:
    text = (
        "bundle etcd.v0.9.4 requires an operator with package: prometheus and with version in "
        "range: >=2.0.0"
    )
    facts = ExplainFacts(
        {
            "prometheus": [
                Offer("prometheus.v1.2.0", "prometheus", "1.2.0", "beta", "olm/community"),
                Offer("prometheus.v1.2.0", "prometheus", "1.2.0", "alpha", "olm/community"),
            ]
        }
    )
    assert one(HEAD, Dependency((), text), facts).fix == (
        "bundle etcd.v0.9.4 needs package prometheus in range >=2.0.0; catalog olm/community "
        "has only 1.2.0"
    )
    assert one(HEAD, Dependency((), text)).fix.endswith(
        "add a catalog that has a version in that range"
    )
    assert one(HEAD, Dependency((), text), ExplainFacts({})).fix.endswith(
        "no visible catalog has that package"
    )


def test_conflict_and_gvk_provider() -> None:
    conflict = one(HEAD, Conflict(ORPHAN, f"{HEAD} conflicts with {ORPHAN}"))
    assert conflict.objects == (
        "bundle etcd.v0.9.4 (catalog olm/community)",
        "ClusterServiceVersion team/etcd.v0.9.2",
    )
    other = "@existing/team//other.v1"
    provide = AtMost(1, (other, HEAD), f"{other} and {HEAD} provide EtcdCluster (e/v1)")
    explained = one("EtcdCluster (e/v1)", provide)
    assert explained.fix == (
        "remove the other provider of EtcdCluster (e/v1) from namespace team (installed: "
        "ClusterServiceVersion team/other.v1; deleting a CSV keeps its operands)"
    )
    invariant = one("EtcdCluster (e/v1)", Mandatory("there can be only one provider of ..."))
    assert invariant.objects == ()


POOL = ["subscription:s", ORPHAN, HEAD, "community/olm/alpha/etcd.v0.9.0", "etcd", "K (g/v)"]
TEXTS = [
    "subscription s exists",
    "clusterserviceversion etcd.v0.9.2 exists and is not referenced by a subscription",
    "no operators found in package etcd in the catalog referenced by subscription s",
    f"bundle {HEAD} is deprecated",
    "bundle etcd.v0.9.4 requires an operator with package: q and with version in range: >=1",
    "bundle etcd.v0.9.4 requires an operator providing an API with group: g, version: v, kind: K",
    "no operators found matching the criteria of subscription s",
    f"{ORPHAN} and {HEAD} originate from package etcd",
    f"{ORPHAN} and {HEAD} provide K (g/v)",
    "free text",
]
OBJECT = re.compile(
    r"(Subscription team/s|ClusterServiceVersion team/etcd\.v0\.9\.2"
    r"|bundle etcd\.v0\.9\.[04] \(catalog olm/community\))"
)


@st.composite
def applied_sets(draw: st.DrawFn) -> NotSatisfiable:
    ids = st.sampled_from(POOL)
    text = st.sampled_from(TEXTS)
    constraint = st.one_of(
        st.builds(Mandatory, text),
        st.builds(Prohibited, text),
        st.builds(Dependency, st.lists(ids, max_size=3).map(tuple), text),
        st.builds(Conflict, ids, text),
        st.builds(AtMost, st.just(1), st.lists(ids, max_size=3).map(tuple), text),
    )
    return NotSatisfiable(tuple(draw(st.lists(st.builds(AppliedConstraint, ids, constraint)))))


@settings(max_examples=200, deadline=None)
@given(applied_sets(), st.booleans())
def test_every_constraint_is_explained_stably(nots: NotSatisfiable, with_facts: bool) -> None:
    facts = ExplainFacts({"q": [Offer("q.v0.1", "q", "0.1.0", "a", "olm/community")]})
    explained = explain(nots, NS, facts if with_facts else None)
    assert explained == explain(nots, NS, facts if with_facts else None)
    assert [e.constraint for e in explained] == [c.constraint.text for c in nots.constraints]
    for e in explained:
        assert e.fix and "create a Subscription" not in e.fix
        assert all(OBJECT.fullmatch(o) for o in e.objects), e.objects
        assert len(set(e.objects)) == len(e.objects)


def test_other_prohibitions() -> None:
    assert one(HEAD, Prohibited("bundle requires OpenShift < 4.12")).fix == (
        "bundle etcd.v0.9.4 (catalog olm/community) may not be installed here: pick another bundle"
    )
    assert one("subscription:s", Prohibited("something new")).fix == (
        "fix spec.source/sourceNamespace/name/channel/startingCSV of Subscription team/s"
    )
