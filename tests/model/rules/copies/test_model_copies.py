"""R-COPY-2..8: where each CSV is copied, which copies are missing or stale and why."""

from __future__ import annotations

from model_builders import (
    MODEL_DATA,
    codes,
    copy_of,
    load_all,
    model_of,
    namespace,
    olmconfig,
    operator_group,
)
from model_builders import csv as make_csv

from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.copies.placement import (
    copies_disabled,
    copy_source,
    expected_copy_namespaces,
    olmconfig_condition,
)


def global_setup(*extra, phase="Succeeded", reason="InstallSucceeded"):
    source = make_csv("op", "x", group="g", targets="", phase=phase, reason=reason)
    objs = [
        namespace("op"),
        namespace("a"),
        namespace("b"),
        operator_group("op", "g", status=[""]),
        source,
        *extra,
    ]
    return source, objs


def test_r_copy_3_global_group_copies_everywhere_but_its_namespace():
    source, objs = global_setup()
    model, _ = model_of(*objs, copy_of(source, "a"))
    assert model.csv("op", "x").expected_copies == ("a", "b")
    copied = model.copied_csvs()
    assert copied.present == 1
    assert [(m.csv, m.namespace) for m in copied.missing] == [("op/x", "b")]
    assert copied.stale == ()
    assert model.copies_of("op", "x") == ["a"]
    missing = next(f for f in model.findings() if f.code == "MissingCopiedCSV")
    assert "b" in missing.message and missing.severity == "warning"


def test_r_copy_3_listed_targets_only_existing_and_not_own():
    assert expected_copy_namespaces("op", ("op", "b", "ghost"), ["op", "a", "b"], False) == {"b"}
    assert expected_copy_namespaces("op", ("b",), ["op", "a", "b"], False) == {"b"}
    assert expected_copy_namespaces("op", ("",), ["op", "a"], False) == {"a"}


def test_r_copy_2_own_namespace_group_copies_nothing():
    assert expected_copy_namespaces("op", ("op",), ["op", "a"], False) == frozenset()
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", targets=["op"], status=["op"]),
        make_csv("op", "x", modes=("OwnNamespace",), group="g", targets="op"),
    )
    assert model.csv("op", "x").expected_copies == ()


def test_r_copy_2_uncopiable_phase_or_reason():
    for phase, reason in (("", None), ("Failed", "InvalidInstallModes")):
        _, objs = global_setup(phase=phase, reason=reason)
        model, _ = model_of(*objs)
        assert model.csv("op", "x").expected_copies == (), (phase, reason)


def test_r_copy_2_group_failure_that_recovers_is_copiable_again():
    """Failed/UnsupportedOperatorGroup whose group now fits goes to Pending on this sync
    (R-CSV-F 2), and a Pending CSV is copied."""
    _, objs = global_setup(phase="Failed", reason="UnsupportedOperatorGroup")
    model, _ = model_of(*objs)
    assert model.csv("op", "x").verdict.phase == "Pending"
    assert model.csv("op", "x").expected_copies == ("a", "b")


def test_r_copy_2_verdict_counts_as_this_syncs_transition():
    """A CSV that OLM fails on its next sync is not copiable, whatever its current phase."""
    source = make_csv("op", "x", modes=("OwnNamespace",), group="g", targets="")
    model, _ = model_of(
        namespace("op"),
        namespace("a"),
        operator_group("op", "g", status=[""]),
        source,
        copy_of(source, "a"),
    )
    assert model.csv("op", "x").verdict.reason == "UnsupportedOperatorGroup"
    assert model.csv("op", "x").expected_copies == ()
    stale = model.copied_csvs().stale
    assert len(stale) == 1 and "not copiable" in stale[0].reason


def test_r_copy_6_parent_gone():
    source, _ = global_setup()
    model, _ = model_of(namespace("a"), copy_of(source, "a"))
    stale = model.copied_csvs().stale
    assert [(s.namespace, s.name, s.copied_from) for s in stale] == [("a", "x", "op")]
    assert "no longer exists" in stale[0].reason
    assert "StaleCopiedCSV" in codes(model)


def test_r_copy_6_orphan_copies_are_reported_on_a_copy_not_the_missing_parent():
    """QA case: the finding must point at an object that is there (jump to object)."""
    model, store = model_of(*load_all(MODEL_DATA / "qa" / "orphan-copy.yaml"))
    orphan = next(
        f for f in model.findings() if f.code == "StaleCopiedCSV" and f.name == "gone.v1.0.0"
    )
    assert (orphan.kind, orphan.namespace, orphan.name) == (
        "ClusterServiceVersion",
        "app1",
        "gone.v1.0.0",
    )
    assert store.get("ClusterServiceVersion", "app1", "gone.v1.0.0") is not None
    assert "ops/gone.v1.0.0, which no longer exists" in orphan.message
    assert orphan.related[0] == ObjectRef("ClusterServiceVersion", "ops", "gone.v1.0.0")
    with_parent = next(
        f for f in model.findings() if f.code == "StaleCopiedCSV" and f.name == "foo.v1.0.0"
    )
    assert (with_parent.namespace, with_parent.name) == ("ops", "foo.v1.0.0")


def test_r_copy_6_orphan_finding_moves_back_to_the_parent_when_it_returns():
    source, _ = global_setup()
    model, store = model_of(
        namespace("a"), namespace("b"), copy_of(source, "a"), copy_of(source, "b")
    )
    orphan = next(f for f in model.findings() if f.code == "StaleCopiedCSV")
    assert (orphan.namespace, orphan.name) == ("a", "x")
    assert ObjectRef("ClusterServiceVersion", "b", "x") in orphan.related
    store.apply_many([namespace("op"), operator_group("op", "g", status=[""]), source])
    assert "StaleCopiedCSV" not in codes(model)
    store.apply("DELETED", source)
    assert [(f.namespace, f.name) for f in model.findings() if f.code == "StaleCopiedCSV"] == [
        ("a", "x")
    ]


def test_r_copy_6_parent_failed_with_conflict():
    source, objs = global_setup(phase="Failed", reason="InterOperatorGroupOwnerConflict")
    model, _ = model_of(*objs, copy_of(source, "a"))
    assert "InterOperatorGroupOwnerConflict" in model.copied_csvs().stale[0].reason


def test_r_copy_6_parent_targets_no_longer_include_namespace():
    source = make_csv("op", "x", modes=("SingleNamespace",), group="g", targets="b")
    model, _ = model_of(
        namespace("op"),
        namespace("a"),
        namespace("b"),
        operator_group("op", "g", targets=["b"], status=["b"]),
        source,
        copy_of(source, "a"),
        copy_of(source, "b"),
    )
    stale = model.copied_csvs().stale
    assert [(s.namespace, s.name) for s in stale] == [("a", "x")]
    assert "olm.targetNamespaces" in stale[0].reason
    assert model.copied_csvs().missing == ()


def test_r_copy_6_copy_without_operator_namespace_annotation():
    source, objs = global_setup()
    copy = copy_of(source, "a")
    del copy["metadata"]["annotations"]["olm.operatorNamespace"]
    assert copy_source(copy) == ("op", "x")
    model, _ = model_of(*objs, copy)
    assert "olm.operatorNamespace" in model.copied_csvs().stale[0].reason


def test_r_copy_5_group_no_longer_targets_namespace():
    """The group's status no longer includes the namespace but the parent's annotation (not
    yet rewritten) still does: the group's sync only queues the copy for the R-COPY-6 checks,
    which keep it until OLM rewrites the parent's annotations (R-MEM-3)."""
    source = make_csv("op", "x", modes=("MultiNamespace",), group="g", targets="a,b")
    model, _ = model_of(
        namespace("op"),
        namespace("a"),
        namespace("b"),
        operator_group("op", "g", targets=["b"], status=["b"]),
        source,
        copy_of(source, "a"),
    )
    # The parent's annotation disagrees with the group now, so it is not an active member.
    assert "AnnotationDrift" in codes(model)
    assert "not an active member" in model.copied_csvs().stale[0].reason


def test_r_copy_7_olmconfig_disables_copies_of_global_groups_only():
    assert copies_disabled(olmconfig(True))
    assert not copies_disabled(olmconfig(False)) and not copies_disabled(olmconfig(None))
    assert not copies_disabled(None)
    source, objs = global_setup(olmconfig(True))
    single = make_csv("s", "y", modes=("SingleNamespace",), group="sg", targets="a")
    model, _ = model_of(
        *objs,
        copy_of(source, "a"),
        namespace("s"),
        operator_group("s", "sg", targets=["a"], status=["a"]),
        single,
    )
    assert model.csv("op", "x").expected_copies == ()
    assert model.csv("s", "y").expected_copies == ("a",)
    assert "disabled" in model.copied_csvs().stale[0].reason
    assert {"CopiedCSVsDisabled", "MissingCopiedCSV"} <= codes(model)


def test_r_copy_8_present_count_is_every_copy():
    source, objs = global_setup()
    model, _ = model_of(*objs, copy_of(source, "a"), copy_of(source, "b"))
    assert model.copied_csvs().present == 2
    assert model.copied_csvs().missing == () and model.copied_csvs().stale == ()
    assert not {"MissingCopiedCSV", "StaleCopiedCSV"} & codes(model)


def test_r_copy_8_olmconfig_condition_table():
    assert olmconfig_condition(False, False, False) == (
        "False",
        "CopiedCSVsEnabled",
        "Copied CSVs are enabled and present across the cluster",
    )
    assert olmconfig_condition(False, True, True)[2] == (
        "Copied CSVs are enabled and at least one copied CSVs is missing"
    )
    assert olmconfig_condition(True, False, True)[:2] == ("False", "CopiedCSVsDisabled")
    assert olmconfig_condition(True, True, False)[0] == "True"


def test_r_copy_8_stale_olmconfig_condition_is_reported():
    config = olmconfig(False)
    config["status"] = {
        "conditions": [
            {
                "type": "DisabledCopiedCSVs",
                "status": "False",
                "reason": "CopiedCSVsEnabled",
                "message": "Copied CSVs are enabled and present across the cluster",
            }
        ]
    }
    source, objs = global_setup(config)
    model, store = model_of(*objs, copy_of(source, "a"), copy_of(source, "b"))
    assert "CopiedCSVsConditionStale" not in codes(model)
    store.apply("DELETED", copy_of(source, "b"))
    stale = next(f for f in model.findings() if f.code == "CopiedCSVsConditionStale")
    assert "at least one copied CSVs is missing" in stale.message


def test_r_copy_3_copy_in_a_namespace_that_no_longer_exists():
    source, objs = global_setup()
    store_objs = [o for o in objs if o["metadata"]["name"] != "b"]
    model, store = model_of(*store_objs, copy_of(source, "a"), copy_of(source, "b"))
    stale = model.copied_csvs().stale
    assert [(s.namespace, s.name) for s in stale] == [("b", "x")]
    assert "not an existing namespace" in stale[0].reason
    store.apply("ADDED", namespace("b"))
    assert model.copied_csvs().stale == ()
