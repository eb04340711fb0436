"""One answer in the Overview's counts (R-RES-17, R-UPG-1): behind the
channel head is counted over the records the resolver decided, and a Subscription the
resolver keeps where it is (its newer bundle requires a package no catalog provides, as in
OLM's ``TestResolver``'s unsatisfied-dependency cases) is said to be held back; without
catalog content the head is unknown, never "0 behind"."""

from __future__ import annotations

from pathlib import Path

import yaml
from simulation_support import ORPHAN, find, fixture_objects, session_of
from snapshot_files import yaml_documents

from olmtui.model.viewmodels.metrics import HeadCounts, head_counts
from olmtui.pipeline.session import Session
from olmtui.ui.screens.overview import _behind_text

CATALOG = ORPHAN / "catalog-community-operators.yaml"


def _etcd_installed_at_0_9_2(
    tmp_path: Path, *, requires: str | None, content: bool = True
) -> Session:
    """etcd 0.9.2 installed; the channel's head 0.9.4 optionally requires package
    ``requires``; the catalog's content given unless not ``content``."""
    objects = fixture_objects(ORPHAN)
    installed = find(objects, "ClusterServiceVersion", "etcdoperator.v0.9.4")
    installed["metadata"]["name"] = "etcdoperator.v0.9.2"
    installed["spec"]["version"] = "0.9.2"
    notes = installed["metadata"]["annotations"]
    notes["operatorframework.io/properties"] = notes["operatorframework.io/properties"].replace(
        '"version":"0.9.4"', '"version":"0.9.2"'
    )
    find(objects, "Subscription", "etcd")["status"] = {
        "state": "AtLatestKnown",
        "installedCSV": "etcdoperator.v0.9.2",
        "currentCSV": "etcdoperator.v0.9.2",
    }
    if not content:
        return session_of(objects, tmp_path)
    docs = list(yaml.safe_load_all(CATALOG.read_text()))
    if requires is not None:
        head = next(d for d in docs if d.get("name") == "etcdoperator.v0.9.4")
        head["properties"].append(
            {
                "type": "olm.package.required",
                "value": {"packageName": requires, "versionRange": ">=1.0.0"},
            }
        )
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(yaml_documents(docs))
    return session_of(objects, tmp_path, [f"openshift-marketplace/community-operators={catalog}"])


def _decided_heads(session: Session) -> HeadCounts:
    analysis = session.analysis
    return head_counts(analysis.decided_subscriptions(analysis.resolutions()))


def test_a_subscription_the_resolver_holds_back_is_counted_and_said(tmp_path: Path) -> None:
    heads = _decided_heads(_etcd_installed_at_0_9_2(tmp_path, requires="nope"))
    assert (heads.installed, heads.behind, heads.unknown, heads.held) == (1, 1, 0, 1)
    assert _behind_text(heads) == "1 behind channel head (1 held back by OLM's resolver)"


def test_a_subscription_the_resolver_moves_is_behind_not_held(tmp_path: Path) -> None:
    heads = _decided_heads(_etcd_installed_at_0_9_2(tmp_path, requires=None))
    assert (heads.installed, heads.behind, heads.held) == (1, 1, 0)
    assert _behind_text(heads) == "1 behind channel head"


def test_without_catalog_content_the_head_is_unknown_not_zero_behind(tmp_path: Path) -> None:
    heads = _etcd_installed_at_0_9_2(tmp_path, requires=None, content=False).analysis.head_counts()
    assert heads.behind == 0 and heads.unknown == heads.installed == 1
    assert _behind_text(heads) == "behind channel head: unknown (no catalog content)"
