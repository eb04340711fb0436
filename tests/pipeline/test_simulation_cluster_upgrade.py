"""R-CUP-7 in ``check``'s proven remedies: a ClusterExtension capped at the running OpenShift
minor (``tests/data/cluster-upgrade``: argocd-operator 0.6.0 capped at 4.18 on 4.18.12; 0.7.0
capped too replaces it, 0.8.0 allows 4.19 and replaces 0.7.0) is moved by a change of its
version constraint that the simulation shows working: operator-controller resolves and installs
successor by successor, cluster-olm-operator clears the ``olm`` ClusterOperator's hold, and
both findings go. Where no change is shown to work, the remedy says what is missing."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from data_paths import DATA
from simulation_support import find, session_of

from olmtui.model.records.diagnosis import Change, Remedy, Step
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.simulation import refused

CASE = DATA / "cluster-upgrade"
CATALOG = f"operatorhubio={CASE / 'catalog.json'}"
EXTENSION = ObjectRef("ClusterExtension", "", "argocd")
BLOCKS = ("ClusterExtensionBlocksUpgrade", "ClusterExtension", "", "argocd")
HELD = ("OLMClusterOperatorNotUpgradeable", "ClusterOperator", "", "olm")


@pytest.fixture(scope="module")
def objects() -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all((CASE / "cluster.yaml").read_text()) if d]


def _remedy(tmp_path: Path, objects: list[dict[str, Any]], catalogs: list[str]) -> dict[str, Any]:
    report = session_of(objects, tmp_path, catalogs).analysis.report(verify_remedies=True)
    entry = next(f for f in report["findings"] if f["code"] == BLOCKS[0])
    remedy: dict[str, Any] = entry["remedy"]
    return remedy


def _pinned(objects: list[dict[str, Any]], version: str) -> list[dict[str, Any]]:
    changed = copy.deepcopy(objects)
    find(changed, "ClusterExtension", "argocd")["spec"]["source"]["catalog"]["version"] = version
    return changed


@pytest.mark.parametrize(("constraint", "patched"), [("0.6.0", "<=0.8.0"), ("<0.7.0", "<=0.8.0")])
def test_a_pin_or_a_range_is_changed_and_the_change_is_proven(
    tmp_path: Path, objects: list[dict[str, Any]], constraint: str, patched: str
) -> None:
    remedy = _remedy(tmp_path, _pinned(objects, constraint), [CATALOG])
    assert remedy["verified"] == "simulated", remedy
    [step] = remedy["steps"]
    assert step["action"] == "patch"
    assert step["command"] == (
        "oc patch clusterextension argocd --type merge -p "
        f"""'{{"spec":{{"source":{{"catalog":{{"version":"{patched}"}}}}}}}}'"""
    )
    assert f'from "{constraint}" to "{patched}"' in step["text"]
    assert "argocd-operator.v0.7.0, then argocd-operator.v0.8.0" in remedy["outcome"]
    assert (
        "ClusterExtensionBlocksUpgrade, OLMClusterOperatorNotUpgradeable clear"
        in (remedy["outcome"])
    )


def test_no_constraint_needs_no_change_and_says_so(
    tmp_path: Path, objects: list[dict[str, Any]]
) -> None:
    remedy = _remedy(tmp_path, objects, [CATALOG])
    assert [s["action"] for s in remedy["steps"]] == ["wait"]
    assert remedy["verified"] == "not-simulated"
    assert "its spec needs no change" in remedy["missing"]


def test_a_target_outside_the_channels_asked_for_is_not_patched(
    tmp_path: Path, objects: list[dict[str, Any]]
) -> None:
    changed = _pinned(objects, "0.6.0")
    find(changed, "ClusterExtension", "argocd")["spec"]["source"]["catalog"]["channels"] = [
        "stable"
    ]
    remedy = _remedy(tmp_path, changed, [CATALOG])
    assert [s["action"] for s in remedy["steps"]] == ["other"]
    assert remedy["verified"] == "not-simulated"
    assert "is in no channel the extension asks for (stable; it is in alpha)" in remedy["missing"]


def test_without_catalog_content_nothing_is_claimed(
    tmp_path: Path, objects: list[dict[str, Any]]
) -> None:
    remedy = _remedy(tmp_path, _pinned(objects, "0.6.0"), [])
    assert [s["action"] for s in remedy["steps"]] == ["other"]
    assert remedy["verified"] == "not-simulated"
    assert "its installed bundle is in none given" in remedy["missing"]
    assert "0.8.0" not in str(remedy)


def _set_version(version: str) -> Remedy:
    change = Change("patch", EXTENSION, field="spec.source.catalog.version", value=version)
    return Remedy((Step("patch", f"set the version to {version}", EXTENSION, changes=(change,)),))


def test_a_change_that_ends_at_a_capped_bundle_is_refused(
    tmp_path: Path, objects: list[dict[str, Any]]
) -> None:
    """0.7.0 replaces 0.6.0 but is capped at 4.18 too: the hold stays."""
    session = session_of(_pinned(objects, "0.6.0"), tmp_path, [CATALOG])
    remedy = session.analysis.simulator().verify(_set_version("0.7.0"), {BLOCKS, HELD})
    assert refused(remedy), remedy
    assert "installs argocd-operator.v0.7.0" in remedy.outcome
    assert "ClusterExtensionBlocksUpgrade stays on ClusterExtension argocd" in remedy.outcome


def test_a_change_the_resolver_cannot_follow_is_refused(
    tmp_path: Path, objects: list[dict[str, Any]]
) -> None:
    """Pinned to 0.8.0, two edges away: operator-controller retries with its error."""
    session = session_of(_pinned(objects, "0.6.0"), tmp_path, [CATALOG])
    remedy = session.analysis.simulator().verify(_set_version("0.8.0"), {BLOCKS, HELD})
    assert refused(remedy), remedy
    assert 'no bundles found for package "argocd-operator" matching version "0.8.0"' in (
        remedy.outcome
    )


def test_deleting_the_extension_clears_the_hold(
    tmp_path: Path, objects: list[dict[str, Any]]
) -> None:
    session = session_of(objects, tmp_path, [CATALOG])
    delete = Remedy(
        (Step("delete", "uninstall", EXTENSION, changes=(Change("delete", EXTENSION),)),)
    )
    remedy = session.analysis.simulator().verify(delete, {BLOCKS, HELD})
    assert remedy.verified == "simulated", remedy
    assert "InstalledOLMOperatorsUpgradeable=True" in remedy.outcome
