"""The model over the real must-gathers in tests/data: what OLM wrote there must come out again."""

from __future__ import annotations

from pathlib import Path

import pytest
from model_builders import DATA, load_yaml

from olmtui.model.incremental.engine import Model
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store, is_copied_csv

MUST_GATHERS = sorted((DATA / "must-gather/must-gather-clean").iterdir())


def csv_files(root: Path) -> list[dict]:
    return [load_yaml(p) for p in root.rglob("clusterserviceversions/*.yaml")]


@pytest.fixture(scope="module", params=MUST_GATHERS, ids=lambda p: p.name)
def gathered(request):
    store = Store()
    load_snapshot([request.param], store)
    return request.param, store, Model(store)


def test_r_og_1_derived_targets_equal_observed_status(gathered):
    _, _, model = gathered
    checked = 0
    for og in model.operator_groups():
        if og.status_namespaces is not None:
            assert set(og.target_namespaces) == set(og.status_namespaces), og.ref
            checked += 1
    assert checked >= 3


def test_r_mem_succeeded_csvs_have_no_verdict_and_no_error(gathered):
    _, _, model = gathered
    errors = {(f.namespace, f.name) for f in model.findings() if f.severity == "error"}
    succeeded = [c for c in model.csvs() if c.phase == "Succeeded"]
    assert succeeded
    for csv in succeeded:
        assert csv.verdict is None, csv.ref
        assert csv.api_reconciliation == "NoAPIConflict", csv.ref
        assert (csv.namespace, csv.name) not in errors


def test_no_error_findings_at_all_on_healthy_must_gathers(gathered):
    _, _, model = gathered
    assert [f for f in model.findings() if f.severity == "error"] == []


def test_r_copy_count_matches_the_tree_and_nothing_is_missing_or_stale(gathered):
    root, _, model = gathered
    copies = [c for c in csv_files(root) if is_copied_csv(c)]
    copied = model.copied_csvs()
    assert copied.present == len(copies)
    assert copied.missing == () and copied.stale == ()
    held: dict[tuple[str, str], set[str]] = {}
    for copy in copies:
        meta = copy["metadata"]
        held.setdefault((meta["labels"]["olm.copiedFrom"], meta["name"]), set()).add(
            meta["namespace"]
        )
    for (namespace, name), namespaces in held.items():
        assert set(model.csv(namespace, name).expected_copies) == namespaces
        assert set(model.copies_of(namespace, name)) == namespaces


def test_r_api_group_annotations_are_what_olm_keeps(gathered):
    _, _, model = gathered
    for og in model.operator_groups():
        assert og.expected_provided_apis == og.provided_apis, og.ref
    assert not {
        "StaleProvidedAPIs",
        "NamespaceLabelDrift",
        "AnnotationDrift",
        "TargetsNotSynced",
    } & {f.code for f in model.findings()}
