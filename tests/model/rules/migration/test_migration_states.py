"""The four states (R-MIG-12), what else stands in a conversion's way (R-MIG-14), and the rows
gathered from the cache (``model/viewmodels/migration``)."""

from __future__ import annotations

from migration_support import CLUSTER_CATALOG, CSV_NAME, NS, content, eligible, healthy_subscription
from model_builders import catalog_source, csv, operator_condition, operator_group, subscription
from v1_objects import catalog, extension

from olmtui.model.rules.migration.checks import OperatorInputs
from olmtui.model.rules.migration.states import MIGRATED_FROM, counts, migrations
from olmtui.model.viewmodels.migration import migration_rows
from olmtui.objects import Obj, name_of
from olmtui.store import Store


def _inputs(sub: Obj) -> OperatorInputs:
    return eligible(subscription=sub)


def _migrated(name: str, origin: str, package: str = "pkg") -> Obj:
    return extension(name, package=package, namespace=NS, annotations={MIGRATED_FROM: origin})


def test_the_four_states_in_the_tools_order() -> None:
    subs = [
        healthy_subscription(),
        subscription("team", "scoped", package="other", installed="x", state="AtLatestKnown"),
        subscription("half", "done", package="half"),
    ]
    extensions = [_migrated("done", "half/done", "half"), _migrated("gone", "old/gone", "gone")]
    rows = migrations(subs, extensions, _inputs_by_name(subs))
    assert [(r.state, str(r.object)) for r in rows] == [
        ("Conflict", "Subscription half/done"),
        ("Ineligible", "Subscription team/scoped"),
        ("AlreadyMigrated", "ClusterExtension gone"),
        ("Eligible", "Subscription operators/pkg"),
    ]
    conflict, ineligible, migrated, ok = rows
    assert (
        conflict.reason
        == "ClusterExtension done was converted from it and the Subscription remains"
    )
    assert conflict.rules == () and conflict.cluster_extension is None
    assert migrated.reason == "converted from Subscription old/gone, which is gone"
    assert migrated.package == "gone"
    assert ok.reason == "every rule passes" and ok.cluster_extension is not None
    assert ineligible.cluster_extension is None and ineligible.preview is None
    assert counts(rows) == {"Conflict": 1, "Ineligible": 1, "AlreadyMigrated": 1, "Eligible": 1}


def _inputs_by_name(subs: list[Obj]):  # type: ignore[no-untyped-def]
    """The eligible operator's inputs for the first Subscription; a scoped group for others."""

    def inputs_of(sub: Obj) -> OperatorInputs:
        if name_of(sub) == name_of(subs[0]):
            return _inputs(sub)
        return eligible(subscription=sub, groups=[operator_group("team", "og", targets=["team"])])

    return inputs_of


def test_an_ineligible_reason_names_failing_and_unknown_rules_apart() -> None:
    def inputs_of(sub: Obj) -> OperatorInputs:
        return eligible(subscription=sub, csv=None, groups=[])

    (row,) = migrations([healthy_subscription()], [], inputs_of)
    assert row.state == "Ineligible"
    assert row.reason == "fails C1, C6; not shown: C1a, C2, C3, C4, C5, C7, C8"
    assert [r.id for r in row.failing] == ["C1", "C1a", "C2", "C3", "C4", "C5", "C6", "C7", "C8"]


def test_an_unannotated_extension_of_the_package_or_the_name_is_noted() -> None:
    same_package = extension("mine", package="pkg", namespace="elsewhere")
    same_name = extension("pkg", package="another", namespace="elsewhere")
    (row,) = migrations([healthy_subscription()], [same_package, same_name], _inputs)
    assert row.state == "Eligible"  # the tool's rules do not read it: a note, not a state
    assert row.notes == (
        "ClusterExtension mine already installs package pkg",
        "ClusterExtension pkg already has this Subscription's name",
    )


def test_rows_are_gathered_from_the_cache_with_the_catalog_content_bound() -> None:
    store = Store()
    store.apply_many(
        [
            operator_group(NS, "og", status=[""]),
            csv(NS, CSV_NAME),
            operator_condition(CSV_NAME, None, ns=NS),
            healthy_subscription(),
            catalog_source("openshift-marketplace", "cat"),
            catalog(CLUSTER_CATALOG),
        ]
    )
    bound = content()
    (row,) = migration_rows(store, [bound])
    assert (row.state, row.reason) == ("Eligible", "every rule passes")
    (unbound,) = migration_rows(store, [])
    assert unbound.state == "Ineligible"
    assert unbound.reason == "not shown: C7"
