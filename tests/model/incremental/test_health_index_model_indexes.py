"""The HealthIndex reads the Subscriptions and non-copied CSVs by namespace from the Model's
own indexes instead of keeping a second copy, and stays equal to the from-scratch pass when
one batch of changes makes Subscriptions known or unknown (R-DOC-14 judges unreferenced CSVs
only when any Subscription is known)."""

from __future__ import annotations

from model_builders import copy_of, csv, namespace, operator_group, subscription

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.types import Finding
from olmtui.store import Store


def from_scratch(store: Store, model: Model) -> list[Finding]:
    return merged_findings(
        (),
        model=model.findings(),
        health=health_findings(store, [], model.subscriptions()),
        unreadable=store.unreadable,
        read_namespaces=store.read_namespaces,
    )


def codes(findings: object) -> set[str]:
    return {f.code for f in findings}  # type: ignore[attr-defined]


def cluster() -> tuple[Store, Model, HealthIndex]:
    parent = csv("a", "pkg.v1.0.0")
    store = Store()
    store.apply_many(
        [
            namespace("a"),
            namespace("b"),
            operator_group("a", "g"),
            parent,
            copy_of(parent, "b"),
            csv("b", "other.v1.0.0"),
        ]
    )
    model = Model(store)
    return store, model, HealthIndex(store, model, list)


def test_the_index_reads_the_models_indexes_not_a_copy() -> None:
    store, model, index = cluster()
    inputs = index._inputs  # what the health rules read
    assert inputs.subs is model.subscriptions_by_namespace()
    assert inputs.installed is model.installed_csvs_by_namespace()
    # Copies are not installed CSVs (R-COPY-1); a namespace with none left is dropped.
    assert {ns: sorted(c) for ns, c in inputs.installed.items()} == {
        "a": ["pkg.v1.0.0"],
        "b": ["other.v1.0.0"],
    }
    store.apply("DELETED", csv("b", "other.v1.0.0"))
    assert "b" not in inputs.installed
    store.apply_many([subscription("a", "s")])
    store.apply("DELETED", subscription("a", "s"))
    assert not inputs.subs


def test_a_batch_that_makes_subscriptions_known_reaches_every_namespace() -> None:
    store, model, index = cluster()
    assert "UnreferencedCSV" not in codes(index.findings())  # no Subscription known yet
    # The first Subscription comes after a CSV change of the same batch, in another
    # namespace: every namespace's CSVs are judged now.
    store.apply_many([csv("a", "pkg.v1.0.0", phase="Failed"), subscription("c", "s")])
    assert list(index.findings()) == from_scratch(store, model)
    assert "UnreferencedCSV" in codes(index.findings())
    # The last one goes and another comes in one batch: Subscriptions stay known.
    store.replace("Subscription", [subscription("d", "s")])
    assert list(index.findings()) == from_scratch(store, model)
    assert "UnreferencedCSV" in codes(index.findings())
    # The last one goes: no CSV is judged unreferenced any more.
    store.apply("DELETED", subscription("d", "s"))
    assert list(index.findings()) == from_scratch(store, model)
    assert "UnreferencedCSV" not in codes(index.findings())
