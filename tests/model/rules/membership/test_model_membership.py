"""R-MEM-0..8: OLM's verdict on each CSV from its namespace's OperatorGroup, and the
recoveries of R-CSV-F once the group rules pass."""

from __future__ import annotations

from model_builders import MODEL_DATA, codes, load_all, model_of, namespace, operator_group
from model_builders import csv as make_csv

from olmtui.model.rules.membership.checks import is_active_member


def verdict_of(model, ns="op", name="x"):
    verdict = model.csv(ns, name).verdict
    return None if verdict is None else (verdict.phase, verdict.reason, verdict.message)


def test_r_mem_1_no_operator_group():
    model, _ = model_of(namespace("op"), make_csv("op", "x", phase="Pending", reason=None))
    assert verdict_of(model) == (
        "Failed",
        "NoOperatorGroup",
        "csv in namespace with no operatorgroups",
    )
    assert model.csv("op", "x").operator_group is None
    assert model.csv("op", "x").api_reconciliation is None
    assert "NoOperatorGroup" in codes(model)


def test_r_mem_2_too_many_operator_groups():
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "a", status=[""]),
        operator_group("op", "b", status=[""]),
        make_csv("op", "x", group="a", targets=""),
    )
    assert verdict_of(model) == (
        "Failed",
        "TooManyOperatorGroups",
        "csv created in namespace with multiple operatorgroups, can't pick one automatically",
    )
    assert model.csv("op", "x").operator_group is None


def test_r_mem_3_annotation_drift_stops_without_phase_change():
    model, _ = model_of(
        namespace("op"),
        namespace("a"),
        operator_group("op", "g", targets=["a"], status=["a"]),
        make_csv("op", "x", modes=("SingleNamespace",), group="g", targets="b"),
    )
    assert verdict_of(model) is None
    assert model.csv("op", "x").api_reconciliation is None
    drift = next(f for f in model.findings() if f.code == "AnnotationDrift")
    assert "'b'" in drift.message and "'a'" in drift.message
    assert model.csv("op", "x").expected_copies == ()


def test_r_mem_3_selector_matching_nothing_fails_with_no_target_namespaces():
    """The real shape: the CSV carries only olm.operatorGroup and olm.operatorNamespace."""
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", selector={"matchLabels": {"team": "nobody"}}),
        make_csv("op", "x", group="g", targets=None, phase="Failed", reason="NoTargetNamespaces"),
    )
    assert verdict_of(model) == (
        "Failed",
        "NoTargetNamespaces",
        "no targetNamespaces are matched operatorgroups namespace selection",
    )
    found = codes(model)
    assert {"NoTargetNamespaces", "SelectorMatchesNothing"} <= found
    og_finding = next(f for f in model.findings() if f.code == "SelectorMatchesNothing")
    assert og_finding.severity == "error"  # it has a member CSV that OLM blocks


def test_r_mem_3_selector_matching_nothing_is_told_by_the_verdict_not_as_drift():
    """QA case: OLM writes no targets annotation while status.namespaces is absent, so
    nothing settles while the selector matches nothing; the verdict says so, and no
    AnnotationDrift finding claims the drift repairs itself."""
    model, _ = model_of(*load_all(MODEL_DATA / "qa" / "selector-matches-nothing.yaml"))
    assert verdict_of(model, "sel", "bar.v1.0.0")[:2] == ("Failed", "NoTargetNamespaces")
    about_bar = {f.code: f for f in model.findings() if f.name == "bar.v1.0.0"}
    assert "AnnotationDrift" not in about_bar
    message = about_bar["NoTargetNamespaces"].message
    assert "no olm.targetNamespaces" in message and "status.namespaces is absent" in message
    assert "settles" not in message
    assert "LabelSelectorTargets" not in codes(model, "og-sel")


def test_r_mem_3_unsynced_group_drift_names_the_targets_its_sync_writes():
    """status.namespaces absent but the spec selects a namespace: OLM writes the targets
    annotation only after the group's sync sets status.namespaces (R-MEM-3, R-OG-2)."""
    model, _ = model_of(
        namespace("op"),
        namespace("a"),
        operator_group("op", "g", targets=["a"]),
        make_csv("op", "x", modes=("SingleNamespace",), group="g", targets=None),
    )
    assert verdict_of(model) is None
    drift = next(f for f in model.findings() if f.code == "AnnotationDrift")
    assert "olm.targetNamespaces is absent; OLM writes it only once" in drift.message
    assert "[a]" in drift.message and "expected ''" not in drift.message


def test_r_mem_3_unsynced_group_expects_empty_target_string():
    og = operator_group("op", "g", targets=["op"])
    assert is_active_member(make_csv("op", "x", group="g", targets=""), og)
    assert not is_active_member(make_csv("op", "x", group="g", targets="op"), og)


def test_r_mem_5_missing_targets_annotation_is_drift_first():
    """R-MEM-3 requires the targets annotation, so its absence is drift (no phase change)
    while the group selects something."""
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", status=[""]),
        make_csv("op", "x", group="g", targets=None),
    )
    assert verdict_of(model) is None
    assert "AnnotationDrift" in codes(model)


def test_r_mem_6_install_mode_unsupported():
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", status=[""]),
        make_csv("op", "x", modes=("OwnNamespace",), group="g", targets=""),
    )
    assert verdict_of(model) == (
        "Failed",
        "UnsupportedOperatorGroup",
        "AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces",
    )
    assert model.csv("op", "x").expected_copies == ()


def test_r_mem_6_uses_the_annotation_not_the_status():
    """OLM splits the CSV's olm.targetNamespaces; with agreeing annotations they are equal."""
    model, _ = model_of(
        namespace("op"),
        namespace("a"),
        namespace("b"),
        operator_group("op", "g", targets=["a", "b"], status=["b", "a"]),
        make_csv("op", "x", modes=("MultiNamespace",), group="g", targets="a,b"),
    )
    assert verdict_of(model) is None
    assert model.csv("op", "x").api_reconciliation == "NoAPIConflict"


def test_r_mem_0_no_retry_is_skipped():
    model, _ = model_of(
        namespace("op"),
        make_csv("op", "x", phase="Failed", reason="InstallComponentFailedNoRetry"),
    )
    assert verdict_of(model) is None
    assert "InstallComponentFailedNoRetry" in codes(model)


def test_r_mem_0_crd_name_without_dot_aborts_silently():
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", status=[""]),
        make_csv("op", "x", owned=(("Foo", "v1", "foos"),), group="g", targets=""),
    )
    assert verdict_of(model) is None
    assert model.csv("op", "x").api_reconciliation is None
    assert "MalformedCRDName" in codes(model)


def test_r_csv_f_2_group_failure_recovers_to_pending():
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", status=[""]),
        make_csv(
            "op", "x", group="g", targets="", phase="Failed", reason="UnsupportedOperatorGroup"
        ),
    )
    assert verdict_of(model) == (
        "Pending",
        "RequirementsUnknown",
        "InstallModes now support target namespaces",
    )
    finding = next(f for f in model.findings() if f.code == "GroupFailureRecovers")
    assert finding.severity == "info"


def test_r_csv_f_1_fail_forward_replaces_instead_of_recovering():
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", status=[""], upgrade="TechPreviewUnsafeFailForward"),
        make_csv("op", "x", group="g", targets="", phase="Failed", reason="NoOperatorGroup"),
        make_csv("op", "y", group="g", targets="", phase="Pending", reason=None, replaces="x"),
    )
    assert verdict_of(model) == (
        "Replacing",
        "BeingReplaced",
        "Fail Forward is enabled, allowing Failed csv to be replaced by csv: y",
    )


def test_r_csv_f_other_failures_are_not_group_verdicts():
    model, _ = model_of(
        namespace("op"),
        operator_group("op", "g", status=[""]),
        make_csv("op", "x", group="g", targets="", phase="Failed", reason="InstallCheckFailed"),
    )
    assert verdict_of(model) is None


def test_r_mem_8_active_member_requires_all_three_annotations():
    og = operator_group("op", "g", targets=["a"], status=["a"])
    assert is_active_member(make_csv("op", "x", group="g", targets="a"), og)
    other = make_csv("op", "x", group="g", targets="a")
    other["metadata"]["annotations"]["olm.operatorNamespace"] = "elsewhere"
    assert not is_active_member(other, og)
    assert not is_active_member(make_csv("op", "x", group="h", targets="a"), og)
